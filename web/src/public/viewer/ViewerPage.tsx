import { LazyResult } from './lazy/LazyResult';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { dashboardFeed, type ViewerFeed } from './feed';
import type { PublicTabDto } from '@common/schemas/dashboard';
import { EmptyText } from './EmptyText';
import { ViewerHeader } from './ViewerHeader';
import { TabContent } from './TabContent';
import { useViewerStore } from './viewerStore';
import { useViewerSync } from './useViewerSync';
import { ViewerTabContext } from './viewerExport';
import { TabShownContext } from './widgets/widgetContext';
import { Alert, Button, Card, Empty, SkeletonBlock, SkeletonLines } from './ui/kit';
import { ViewerTabs } from './ui/ViewerTabs';
import { ThemeToggle } from './ThemeToggle';
import { rotateSeconds } from './tv/useWakeLock';
import { pageSeconds } from './tv/useTvPaging';
import { useFieldTyping, useKeyMappings } from './useKeyMappings';
import { useViewerTheme } from './viewerTheme';
import { WidgetContext, viewerFeed } from './widgets/widgetContext';
import { useDocumentTitle } from '../../useDocumentTitle';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { LazyFilterBar } from './filters/LazyFilterBar';
import { useFilterBar } from './filters/useFilterBar';
import { pageNarrowing, type Narrowing } from './widgets/emptyReason';

type Bar = ReturnType<typeof useFilterBar>;

// TV mode's page (rotation, paging, wake lock) loads only on a TV.
const TvViewer = lazy(() => import('./tv/TvViewer').then((m) => ({ default: m.TvViewer })));

/**
 * The public dashboard viewer at /dashboards/:id; a share link's page passes its own
 * feed. `?embed=1` leaves out the header (the page sits in someone else's iframe); `?tv=1` is TV
 * mode, `&rotate=N` rotates its tabs and `&page=N` sets how often (seconds) tables and boards turn a page.
 */
export default function ViewerPage({ feed: given, locked = [], firstTab }: { feed?: ViewerFeed; locked?: WidgetFilter[]; firstTab?: string }) {
  const { id = '' } = useParams();
  const byId = useMemo(() => dashboardFeed(id), [id]);
  const feed = given ?? byId;
  const [search] = useSearchParams();
  const tv = search.get('tv') === '1';
  const embed = search.get('embed') === '1';
  const dark = useViewerTheme((s) => s.dark) || tv;
  const keyMappings = useKeyMappings();
  const typing = useFieldTyping();
  const timeField = useViewerStore((s) => s.head?.dataSource?.timeField ?? null);
  const paging = tv ? pageSeconds(search.get('page')) : 0;
  // The filter bar narrows what every widget, table and board reads; opted-out widgets read `unfiltered`.
  const bar = useFilterBar(viewerFeed, typing);
  const narrowingKey = JSON.stringify(pageNarrowing(locked, bar.filters, bar.choices, (f) => keyMappings[f] ?? f));
  const narrowing = useMemo(() => JSON.parse(narrowingKey) as Narrowing, [narrowingKey]);
  const env = useMemo(() => ({ feed: bar.feed, unfiltered: viewerFeed, keyMappings, typing, timeField, dark, tv, pageSeconds: paging, narrowing }), [bar.feed, keyMappings, typing, timeField, dark, tv, paging, narrowing]);
  return (
    <div className={['lv-page', dark && 'lv-dark', tv && 'lv-large'].filter(Boolean).join(' ')}>
      <WidgetContext.Provider value={env}>
        {tv ? <TvPage feed={feed} rotate={rotateSeconds(search.get('rotate'))} /> : <NormalViewer feed={feed} given={given} embed={embed} bar={bar} locked={locked} firstTab={firstTab} />}
      </WidgetContext.Provider>
    </div>
  );
}

function TvPage({ feed, rotate }: { feed: ViewerFeed; rotate: number }) {
  useViewerSync(feed);
  const status = useViewerStore((s) => s.status);
  const head = useViewerStore((s) => s.head);
  return (
    <Suspense fallback={<SkeletonLines rows={10} />}>
      <TvViewer head={head} status={status} rotate={rotate} />
    </Suspense>
  );
}

function NormalViewer({ feed, given, embed, bar, locked, firstTab }: { feed: ViewerFeed; given?: ViewerFeed; embed: boolean; bar: Bar; locked: WidgetFilter[]; firstTab?: string }) {
  const retry = useViewerSync(feed);
  const status = useViewerStore((s) => s.status);
  const head = useViewerStore((s) => s.head);
  const truncated = useViewerStore((s) => s.truncated);
  const total = useViewerStore((s) => s.order.length);
  const navigate = useNavigate();
  const keyMappings = useKeyMappings();
  const [picked, setSelected] = useState<string | null>(null);
  // Until a tab is picked, the one the page was asked to open first (a signed embed token's `tab`).
  const selected = picked ?? firstTab ?? null;
  const name = head?.dashboard.name;
  useDocumentTitle(name);

  let body;
  if (status === 'notFound') {
    body = (
      <LazyResult
        status="404"
        title="Dashboard Not Found"
        subTitle="The requested dashboard could not be found."
        extra={<Button kind="primary" onClick={() => navigate('/dashboards')}>Back to Dashboards</Button>}
      />
    );
  } else if (status === 'error') {
    body = <LazyResult status="error" title="Failed to fetch dashboard" extra={<Button kind="primary" onClick={retry}>Retry</Button>} />;
  } else if (status === 'loading' || !head) {
    body = <ViewerSkeleton />;
  } else if (head.tabs.length === 0) {
    body = (
      <Card>
        <Empty><EmptyText title="No Tabs Configured" text="This dashboard has no tabs configured yet." /></Empty>
      </Card>
    );
  } else {
    const active = head.tabs.some((t) => t.id === selected) ? selected! : head.tabs[0].id;
    body = (
      <>
        <LazyFilterBar filters={bar.filters} choices={bar.choices} onChange={bar.onChange} onClear={bar.onClear} records={viewerFeed} countsTest={bar.countsTest} locked={locked} label={(f) => keyMappings[f] ?? f} />
        {truncated && <Alert style={{ marginBottom: 16 }} title={`Showing the first ${total.toLocaleString()} records of this data source.`} />}
        <ViewerTabs active={active} onChange={setSelected} tabs={head.tabs.map((tab: PublicTabDto) => ({ key: tab.id, label: tab.name, content: <ViewerTabContext.Provider value={tab.id}><TabShownContext.Provider value={tab.id === active}><TabContent tab={tab} /></TabShownContext.Provider></ViewerTabContext.Provider> }))} />
      </>
    );
  }

  const activeTab = head?.tabs.find((t) => t.id === selected) ?? head?.tabs[0] ?? null;
  return (
    <>
      {!embed && (
        <ViewerHeader
          dashboard={status === 'ready' ? (head?.dashboard ?? null) : null}
          loading={status === 'loading'}
          actions={status === 'loading' || status === 'ready'}
          tabId={activeTab?.id ?? null}
          feed={given}
          extra={<ThemeToggle />}
        />
      )}
      <main style={{ padding: 'clamp(12px, 3vw, 24px)', maxWidth: 1600, width: '100%', margin: '0 auto' }}>{body}</main>
    </>
  );
}

function ViewerSkeleton() {
  return (
    <div data-testid="viewer-skeleton">
      <SkeletonBlock style={{ width: 240, height: 32, marginBottom: 16 }} />
      <Card>
        <SkeletonLines rows={8} />
      </Card>
    </div>
  );
}
