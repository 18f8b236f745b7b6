import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { shareFeed } from '../viewer/feed';
import ViewerPage from '../viewer/ViewerPage';

/** /s/:token — the live viewer of the dashboard a share link opens (published or not). */
export default function SharePage() {
  const { token = '' } = useParams();
  const [allowCsv, setAllowCsv] = useState(false);
  const feed = useMemo(() => shareFeed(token, allowCsv, (share) => setAllowCsv(share.allowCsv)), [token, allowCsv]);
  return <ViewerPage feed={feed} />;
}
