import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { shareFeed } from '../viewer/feed';
import ViewerPage from '../viewer/ViewerPage';
import type { WidgetFilter } from '@common/schemas/widgets/widget';

/** /s/:token — the live viewer of the dashboard a share link opens (published or not). */
export default function SharePage() {
  const { token = '' } = useParams();
  const [allowCsv, setAllowCsv] = useState(false);
  // The link's locked filters: shown as fixed chips (the server sends only the records that match).
  const [locked, setLocked] = useState<WidgetFilter[]>([]);
  const feed = useMemo(
    () => shareFeed(token, allowCsv, (share) => {
      setAllowCsv(share.allowCsv);
      setLocked((held) => (JSON.stringify(held) === JSON.stringify(share.filters ?? []) ? held : (share.filters ?? [])));
    }),
    [token, allowCsv],
  );
  return <ViewerPage feed={feed} locked={locked} />;
}
