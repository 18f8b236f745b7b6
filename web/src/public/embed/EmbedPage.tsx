import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import type { EmbedTerms } from '@common/schemas/sharing/embedding';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { embedFeed } from '../viewer/feed';
import ViewerPage from '../viewer/ViewerPage';
import { useViewerStore } from '../viewer/viewerStore';
import { useViewerTheme } from '../viewer/viewerTheme';
import { EmptyText } from '../viewer/EmptyText';
import { Card, Empty } from '../viewer/ui/kit';
import { useDocumentTitle } from '../../useDocumentTitle';

/**
 * /embed/:token — the live viewer of the dashboard a signed embed token opens (published or not),
 * inside the host application's iframe. The server sends only the rows the token's filters allow;
 * the filter bar (its choices in this page's URL) narrows them further, never wider. When the token
 * is refused, expires or its secret is rotated, the page says so and stops: the host must sign a
 * new token (reload its page).
 */
export default function EmbedPage() {
  const { token = '' } = useParams();
  const [allowCsv, setAllowCsv] = useState(false);
  const [locked, setLocked] = useState<WidgetFilter[]>([]);
  const [firstTab, setFirstTab] = useState<string | undefined>(undefined);
  const feed = useMemo(
    () => embedFeed(token, allowCsv, (embed: EmbedTerms) => {
      setAllowCsv(embed.allowCsv);
      setFirstTab(embed.tab);
      setLocked((held) => (JSON.stringify(held) === JSON.stringify(embed.filters ?? []) ? held : (embed.filters ?? [])));
      // The host's theme for this page only (the viewer's own choice stays remembered for other pages).
      if (embed.theme) useViewerTheme.setState({ dark: embed.theme === 'dark' });
    }),
    [token, allowCsv],
  );
  // Ended for good: refused (401), its dashboard gone, or told so over the socket at its expiry or a rotation.
  const status = useViewerStore((s) => s.status);
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    if (status === 'notFound') setEnded(true);
  }, [status]);
  if (ended || status === 'notFound') return <EmbedEnded />;
  return <ViewerPage feed={feed} locked={locked} firstTab={firstTab} />;
}

function EmbedEnded() {
  useDocumentTitle('Dashboard unavailable');
  const dark = useViewerTheme((s) => s.dark);
  return (
    <div className={['lv-page', dark && 'lv-dark'].filter(Boolean).join(' ')}>
      <main style={{ padding: 'clamp(12px, 3vw, 24px)', maxWidth: 1600, width: '100%', margin: '0 auto' }} data-testid="embed-ended">
        <Card>
          <Empty>
            <EmptyText title="This dashboard is no longer available here" text="Its access has expired or was withdrawn. Reload the page to see it again." />
          </Empty>
        </Card>
      </main>
    </div>
  );
}
