import { useEffect, useState } from 'react';
import { Collapse, Table, Tag, Tooltip, Typography } from 'antd';
import type { IntegrationDto, IntegrationRunDto } from '@common/schemas/integration';
import { errorText } from '../../api/client';
import { integrationsApi } from './api';
import { relativeTime } from './relativeTime';
import { OutboundHint } from '../ui/OutboundHint';

const STATUS: Record<IntegrationRunDto['status'], { color: string; text: string }> = {
  running: { color: 'processing', text: 'Running' },
  succeeded: { color: 'success', text: 'Succeeded' },
  failed: { color: 'error', text: 'Failed' },
};

const SHOWN = 10;

/** What a run said beyond its counts: why it failed, its notes, its first rejections. */
function details(r: IntegrationRunDto): string {
  const parts = [r.error, ...r.notes, ...r.rejections.slice(0, 3).map((x) => `${x.page}${x.index >= 0 ? `, record #${x.index}` : ''}: ${x.reason}`)];
  if (r.rejected > 3) parts.push(`…and ${r.rejected - 3} more rejected`);
  return parts.filter(Boolean).join(' · ');
}

/** The last runs of an integration (GET /runs), read when opened and again after each run. */
export function LastRuns({ integration: it }: { integration: IntegrationDto }) {
  const [open, setOpen] = useState(false);
  const [runs, setRuns] = useState<IntegrationRunDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const lastRunKey = `${it.lastRun?.id}:${it.lastRun?.status}`;

  useEffect(() => {
    if (!open) return;
    let live = true;
    integrationsApi.runs(it.id).then((r) => live && setRuns(r.slice(0, SHOWN)), (e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [open, it.id, lastRunKey]);

  if (!it.lastRun) return null;
  return (
    <Collapse
      ghost
      size="small"
      style={{ marginTop: 8 }}
      onChange={(keys) => setOpen(keys.length > 0)}
      data-testid="last-runs"
      items={[{
        key: 'runs',
        label: `Last runs`,
        children: error ? <Typography.Text type="danger">{error}</Typography.Text> : (
          <Table<IntegrationRunDto>
            size="small"
            loading={!runs}
            pagination={false}
            rowKey="id"
            dataSource={runs ?? []}
            scroll={{ x: true }}
            columns={[
              { title: 'Started', dataIndex: 'startedAt', render: (v: string, r) => <Tooltip title={new Date(v).toLocaleString()}>{relativeTime(v)}{r.trigger === 'auto' ? ' (auto)' : ''}</Tooltip> },
              { title: 'Status', dataIndex: 'status', render: (v: IntegrationRunDto['status']) => <Tag color={STATUS[v].color}>{STATUS[v].text}</Tag> },
              { title: 'Records', dataIndex: 'records', align: 'right', render: (v: number) => v.toLocaleString() },
              { title: 'Pages', dataIndex: 'pages', align: 'right' },
              { title: 'Rejected', dataIndex: 'rejected', align: 'right' },
              { title: 'Details', key: 'details', render: (_: unknown, r) => <Typography.Text type={r.status === 'failed' ? 'danger' : 'secondary'}><OutboundHint text={details(r) || (r.mode === 'full' ? 'Full sync' : 'Incremental')} /></Typography.Text> },
            ]}
          />
        ),
      }]}
    />
  );
}
