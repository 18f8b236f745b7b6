import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Badge, Button, Flex, Skeleton, Typography, theme } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import { api } from '../../api/client';
import { useConnection } from '../../realtime/socket';

/** Downloads the current tab as "<dashboard name>.csv". */
async function exportCsv(dashboard: PublicDashboardResponse['dashboard'], tabId: string | null) {
  const query = tabId ? `?tab=${encodeURIComponent(tabId)}` : '';
  const text = await api.get<string>(`/api/dashboards/${encodeURIComponent(dashboard.id)}/export${query}`);
  // The response decoder drops the BOM; put it back so spreadsheets read UTF-8.
  const body = text.startsWith('\uFEFF') ? text : `\uFEFF${text}`;
  const url = URL.createObjectURL(new Blob([body], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${dashboard.name.replace(/[\\/:*?"<>|]+/g, '_')}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Back, name, description, Export CSV and the live indicator. */
export function ViewerHeader({ dashboard, loading, tabId }: { dashboard: PublicDashboardResponse['dashboard'] | null; loading: boolean; tabId: string | null }) {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const live = useConnection((s) => s.public) === 'live';
  const [busy, setBusy] = useState(false);

  const onExport = async () => {
    if (!dashboard) return;
    setBusy(true);
    try {
      await exportCsv(dashboard, tabId);
    } catch (e) {
      console.error('CSV export failed', e);
      message.error('Failed to export dashboard');
    } finally {
      setBusy(false);
    }
  };

  return (
    <header style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}`, padding: '12px clamp(12px, 3vw, 24px)' }}>
      <Flex gap={12} align="center" wrap style={{ maxWidth: 1600, margin: '0 auto' }}>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/dashboards')} aria-label="Back" />
        <div style={{ flex: '1 1 240px', minWidth: 0 }}>
          {dashboard ? (
            <>
              <Typography.Title level={3} style={{ margin: 0 }} ellipsis={{ tooltip: dashboard.name }}>
                {dashboard.name}
              </Typography.Title>
              {dashboard.description && (
                <Typography.Text type="secondary" ellipsis={{ tooltip: dashboard.description }} style={{ display: 'block' }}>
                  {dashboard.description}
                </Typography.Text>
              )}
            </>
          ) : (
            loading && <Skeleton active title={{ width: 240 }} paragraph={{ rows: 1, width: 320 }} style={{ maxWidth: 400 }} />
          )}
        </div>
        <Flex gap={12} align="center" wrap>
          <span data-testid="live-indicator">
            {live ? <Badge status="processing" color={token.colorSuccess} text="Live • Updates every 30s" /> : <Badge status="warning" text="Reconnecting…" />}
          </span>
          <Button icon={<DownloadOutlined />} onClick={onExport} loading={busy} disabled={!dashboard}>
            Export CSV
          </Button>
        </Flex>
      </Flex>
    </header>
  );
}
