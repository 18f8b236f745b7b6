import { ArrowLeftOutlined, DownOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Badge, Button, Dropdown, Flex, Skeleton, Space, Tooltip, Typography, theme } from 'antd';
import { csvFileName } from '@common/csv';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import { publicApi as api } from '../../api/client';
import { useSubmit } from '../../api/useSubmit';
import { useConnection } from '../../realtime/socket';
import { dashboardFeed, type ViewerFeed } from './feed';
import { tableCsv, tableViewOf } from './viewerExport';
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
  download(await tableCsv(view(), labels), csvFileName(dashboard.name, tabName));
}

/**
 * Back, name, description, Export CSV and the live indicator. `actions` false (not found, load
 * failure) leaves only the back button: there is nothing live to show or export.
 */
export function ViewerHeader({ dashboard, loading, tabId, actions = true, feed, extra }: { dashboard: PublicDashboardResponse['dashboard'] | null; loading: boolean; tabId: string | null; actions?: boolean; feed?: ViewerFeed; extra?: ReactNode }) {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  // Only a lost connection says so: the first connect takes a moment, and the 30 s refetch runs anyway.
  const connection = useConnection((s) => s.public);
  const live = connection === 'live' || connection === 'connecting';
  const submit = useSubmit({ success: (title) => void message.success(title), error: (title) => void message.error(title) });
  const busy = submit.busy;
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
    <header style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}`, padding: '12px clamp(12px, 3vw, 24px)' }}>
      <Flex gap={12} align="center" wrap style={{ maxWidth: 1600, margin: '0 auto' }}>
        {backTo && <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(backTo)} aria-label="Back" />}
        <div style={{ flex: '1 1 240px', minWidth: 0 }}>
          {dashboard ? (
            <>
              <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3, lineHeight: token.lineHeightHeading3 }} ellipsis={{ rows: 2, tooltip: dashboard.name }}>
                {dashboard.name}
              </Typography.Title>
              {dashboard.description && (
                <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, tooltip: dashboard.description }} style={{ margin: 0 }}>
                  {dashboard.description}
                </Typography.Paragraph>
              )}
            </>
          ) : (
            // As tall as a title and a description line, so nothing moves when they arrive.
            loading && (
              <Flex vertical gap={4} data-testid="viewer-header-skeleton">
                <Skeleton.Input active style={{ width: 'min(240px, 100%)', minWidth: 0, height: 30 }} />
                <Skeleton.Input active size="small" style={{ width: 'min(320px, 100%)', minWidth: 0, height: 20 }} />
              </Flex>
            )
          )}
        </div>
        {actions && (
          <Flex gap={12} align="center" wrap>
            {extra}
            <span data-testid="live-indicator">
              {live ? (
                <Tooltip title="Updates are pushed live, the moment records arrive; the page also checks every 30 s.">
                  <Badge status="processing" color={token.colorSuccess} text="Live • Updates every 30s" />
                </Tooltip>
              ) : <Badge status="warning" text="Reconnecting…" />}
            </span>
            {(!dashboard || exportPath) && (
              <Space.Compact data-testid="export-csv">
                <Button icon={<DownloadOutlined />} onClick={() => void onExport(false)} loading={busy} disabled={!dashboard}>
                  Export CSV
                </Button>
                <Dropdown
                  disabled={!dashboard || busy}
                  trigger={['click']}
                  menu={{ items: [{ key: 'all', label: 'Export all records', icon: <DownloadOutlined /> }], onClick: () => void onExport(true) }}
                >
                  <Button icon={<DownOutlined />} aria-label="More export options" />
                </Dropdown>
              </Space.Compact>
            )}
          </Flex>
        )}
      </Flex>
    </header>
  );
}
