import ArrowLeftOutlined from '@ant-design/icons-svg/es/asn/ArrowLeftOutlined';
import DownOutlined from '@ant-design/icons-svg/es/asn/DownOutlined';
import DownloadOutlined from '@ant-design/icons-svg/es/asn/DownloadOutlined';
import { Alert, Button, MenuButton, SkeletonBlock, Tip } from './ui/kit';
import { csvFileName } from '@common/csv';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import { publicApi as api } from '../../api/client';
import { useSubmit } from '../../api/useSubmit';
import { useConnection } from '../../realtime/socket';
import { dashboardFeed, type ViewerFeed } from './feed';
import { tableViewOf } from './viewerExport';
import { useViewerStore } from './viewerStore';

/** The download name: "<dashboard> - <tab>.csv", "dashboard" when the name has nothing usable. */
export { csvFileName } from '@common/csv';

function download(body: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([body], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Every record of a tab, from the server's export at `path` (streamed from the database). */
async function exportAll(dashboard: PublicDashboardResponse['dashboard'], path: string, tabName: string | null) {
  const text = await api.get<string>(path);
  // The response decoder drops the BOM; put it back so spreadsheets read UTF-8.
  download(text.startsWith('\uFEFF') ? text : `\uFEFF${text}`, csvFileName(dashboard.name, tabName));
}

/** The current tab as the viewer shows it (filter, sort, visible columns); tabs without a table export every record. */
async function exportSeen(dashboard: PublicDashboardResponse['dashboard'], path: string, tabId: string | null, tabName: string | null) {
  const view = tabId ? tableViewOf(tabId) : null;
  if (!view) return exportAll(dashboard, path, tabName);
  const head = useViewerStore.getState().head;
  const labels = head?.dataSource?.keyMappings ?? head?.dashboard.configuration.keyMappings ?? {};
  const { tableCsv } = await import('./table/tableCsv');
  download(await tableCsv(view(), labels), csvFileName(dashboard.name, tabName));
}

/**
 * Back, name, description, Export CSV and the live indicator. `actions` false (not found, load
 * failure) leaves only the back button: there is nothing live to show or export.
 */
export function ViewerHeader({ dashboard, loading, tabId, actions = true, feed, extra }: { dashboard: PublicDashboardResponse['dashboard'] | null; loading: boolean; tabId: string | null; actions?: boolean; feed?: ViewerFeed; extra?: ReactNode }) {
  const navigate = useNavigate();
  // Only a lost connection says so: the first connect takes a moment, and the 30 s refetch runs anyway.
  const connection = useConnection((s) => s.public);
  const live = connection === 'live' || connection === 'connecting';
  // The viewer says a failed export in place (an alert under the header), not in a toast.
  const submit = useSubmit();
  const busy = submit.busy;
  const failed = submit.error !== null;
  // A share link may forbid CSV (no button) and has no list to go back to (no back button).
  const exportPath = dashboard ? (feed ?? dashboardFeed(dashboard.id)).exportPath(tabId) : null;
  const backTo = feed ? feed.backTo : '/dashboards';

  const tabName = useViewerStore((s) => s.head?.tabs.find((t) => t.id === tabId)?.name ?? null);
  const onExport = async (all: boolean) => {
    if (!dashboard || !exportPath) return;
    await submit.run(() => (all ? exportAll(dashboard, exportPath, tabName) : exportSeen(dashboard, exportPath, tabId, tabName)), {
      failure: (e) => {
        console.error('CSV export failed', e);
        return 'Failed to export dashboard';
      },
    });
  };

  return (
    <header className="lv-header">
      <div className="lv-row" style={{ maxWidth: 1600, margin: '0 auto' }}>
        {backTo && <Button icon={ArrowLeftOutlined} onClick={() => navigate(backTo)} aria-label="Back" />}
        <div style={{ flex: '1 1 240px', minWidth: 0 }}>
          {dashboard ? (
            <>
              <h1 className="lv-title lv-clamp2" title={dashboard.name}>
                {dashboard.name}
              </h1>
              {dashboard.description && (
                <p className="lv-desc lv-clamp2" title={dashboard.description}>
                  {dashboard.description}
                </p>
              )}
            </>
          ) : (
            // As tall as a title and a description line, so nothing moves when they arrive.
            loading && (
              <div data-testid="viewer-header-skeleton" style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
                <SkeletonBlock style={{ width: 'min(240px, 100%)', height: 30, borderRadius: 8 }} />
                <SkeletonBlock style={{ width: 'min(320px, 100%)', height: 20, borderRadius: 8 }} />
              </div>
            )
          )}
        </div>
        {actions && (
          <div className="lv-row">
            {extra}
            <span data-testid="live-indicator">
              {live ? (
                <Tip title="Updates are pushed live, the moment records arrive; the page also checks every 30 s.">
                  <span className="lv-status">
                    <span className="lv-dot lv-dot-live" style={{ color: 'var(--lv-success)' }} />
                    <span>Live • Updates every 30s</span>
                  </span>
                </Tip>
              ) : (
                <span className="lv-status">
                  <span className="lv-dot" style={{ color: 'var(--lv-warning)' }} />
                  <span>Reconnecting…</span>
                </span>
              )}
            </span>
            {(!dashboard || exportPath) && (
              <span className="lv-compact" data-testid="export-csv">
                <Button icon={DownloadOutlined} onClick={() => void onExport(false)} loading={busy} disabled={!dashboard}>
                  Export CSV
                </Button>
                <MenuButton
                  label="More export options"
                  icon={DownOutlined}
                  disabled={!dashboard || busy}
                  items={[{ key: 'all', label: 'Export all records', icon: DownloadOutlined, onClick: () => void onExport(true) }]}
                />
              </span>
            )}
          </div>
        )}
      </div>
      {failed && <Alert type="warning" title="Failed to export dashboard" style={{ maxWidth: 1600, margin: '12px auto 0' }} />}
    </header>
  );
}
