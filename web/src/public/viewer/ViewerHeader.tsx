import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Badge, Button, Flex, Skeleton, Typography, theme } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import { publicApi as api } from '../../api/client';
import { useConnection } from '../../realtime/socket';

/** The download name: "<dashboard name>.csv", or "dashboard.csv" when the name has nothing usable (spec 7). */
export function csvFileName(name: string): string {
  const safe = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim();
  return `${/[^_.\s]/.test(safe) ? safe : 'dashboard'}.csv`;
}

/** Downloads the current tab as "<dashboard name>.csv". */
async function exportCsv(dashboard: PublicDashboardResponse['dashboard'], tabId: string | null) {
  const query = tabId ? `?tab=${encodeURIComponent(tabId)}` : '';
  const text = await api.get<string>(`/api/dashboards/${encodeURIComponent(dashboard.id)}/export${query}`);
  // The response decoder drops the BOM; put it back so spreadsheets read UTF-8.
  const body = text.startsWith('\uFEFF') ? text : `\uFEFF${text}`;
  const url = URL.createObjectURL(new Blob([body], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = csvFileName(dashboard.name);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Back, name, description, Export CSV and the live indicator. `actions` false (not found, load
 * failure) leaves only the back button: there is nothing live to show or export.
 */
export function ViewerHeader({ dashboard, loading, tabId, actions = true }: { dashboard: PublicDashboardResponse['dashboard'] | null; loading: boolean; tabId: string | null; actions?: boolean }) {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  // Only a lost connection says so: the first connect takes a moment, and the 30 s refetch runs anyway.
  const connection = useConnection((s) => s.public);
  const live = connection === 'live' || connection === 'connecting';
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
            <span data-testid="live-indicator">
              {live ? <Badge status="processing" color={token.colorSuccess} text="Live • Updates every 30s" /> : <Badge status="warning" text="Reconnecting…" />}
            </span>
            <Button icon={<DownloadOutlined />} onClick={onExport} loading={busy} disabled={!dashboard}>
              Export CSV
            </Button>
          </Flex>
        )}
      </Flex>
    </header>
  );
}
