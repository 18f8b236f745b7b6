import { DownloadOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { ActivityCategory, ActivityEntryDto } from '@common/schemas/activity';
import { api } from '../../api/client';
import { LoadError, SECONDARY_TEXT } from '../ui/States';
import { useToastSubmit } from '../ui/toast';
import { activityQuery, useActivity, type ActivityFilter } from './useActivity';

const CATEGORIES: { value: ActivityCategory; label: string }[] = [
  { value: 'admin', label: 'Admin actions' },
  { value: 'ingest', label: 'Ingest requests' },
  { value: 'auth', label: 'Sign-in failures' },
  { value: 'sync', label: 'Syncs' },
  { value: 'alert', label: 'Alerts' },
  { value: 'report', label: 'Reports' },
];
const KINDS = [
  'dataSource.created', 'dataSource.updated', 'dataSource.deleted', 'dataSource.keyRotated', 'dashboard.created', 'dashboard.updated', 'dashboard.deleted', 'dashboard.restored', 'dashboard.imported',
  'dashboard.published', 'dashboard.unpublished', 'dashboard.embeddingChanged', 'shareLink.created', 'shareLink.revoked', 'integration.created', 'integration.configured',
  'integration.updated', 'integration.deleted', 'ingest', 'auth.failed', 'sync.started', 'sync.completed', 'sync.failed',
  'alert.created', 'alert.updated', 'alert.deleted', 'alert.firing', 'alert.resolved', 'alert.delivered', 'alert.deliveryFailed',
  'report.created', 'report.updated', 'report.deleted', 'report.sendRequested', 'report.drawn', 'report.delivered', 'report.deliveryFailed',
];
const COLOR: Record<ActivityCategory, string> = { admin: 'blue', ingest: 'green', auth: 'red', sync: 'purple', alert: 'volcano', report: 'cyan' };

async function downloadCsv(filter: ActivityFilter) {
  const text = await api.get<string>(`/api/admin/activity/export${activityQuery(filter)}`);
  const body = text.startsWith('\uFEFF') ? text : `\uFEFF${text}`;
  const url = URL.createObjectURL(new Blob([body], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `activity-log-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Activity Log: who did what, when and from where; live, filterable, exportable. */
export default function ActivityLogScreen() {
  const [filter, setFilter] = useState<ActivityFilter>({});
  const [objectText, setObjectText] = useState('');
  const { entries, error, reload } = useActivity(filter);
  const submit = useToastSubmit();

  const exportCsv = () => submit.run(() => downloadCsv(filter), { failure: 'Failed to export activity log' });

  if (error && !entries) return <LoadError title="Failed to fetch activity log" detail={error} onRetry={() => void reload()} />;
  return (
    <Flex vertical gap={16} data-testid="activity-screen">
      <Flex gap={12} wrap align="center">
        <Select
          allowClear placeholder="All categories" style={{ width: 190 }} aria-label="Category" options={CATEGORIES}
          value={filter.category} onChange={(category) => setFilter((f) => ({ ...f, category }))}
        />
        <Select
          allowClear showSearch placeholder="All kinds" style={{ width: 230 }} aria-label="Kind" options={KINDS.map((k) => ({ value: k, label: k }))}
          value={filter.kind} onChange={(kind) => setFilter((f) => ({ ...f, kind }))}
        />
        <Input.Search
          allowClear placeholder="Object id" style={{ width: 260 }} aria-label="Object id" value={objectText}
          onChange={(e) => setObjectText(e.target.value)} onSearch={(v) => setFilter((f) => ({ ...f, objectId: v.trim() || undefined }))}
        />
        <Button icon={<DownloadOutlined />} onClick={() => void exportCsv()} loading={submit.busy} style={{ marginLeft: 'auto' }}>Export CSV</Button>
      </Flex>
      {/* The region scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it (axe: scrollable-region-focusable). */}
      <div role="region" aria-label="Activity entries" tabIndex={0} style={{ overflowX: 'auto' }}>
      <Table<ActivityEntryDto>
        size="small"
        rowKey="id"
        loading={entries === null}
        dataSource={entries ?? []}
        pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
        locale={{ emptyText: 'No activity yet' }}
        data-testid="activity-table"
        columns={[
          {
            title: 'Time', dataIndex: 'at',
            // A per-minute summary shows its minute.
            render: (at: string, e) => (e.details.perMinute ? `${new Date(at).toLocaleString()} – ${new Date(String(e.details.until)).toLocaleTimeString()}` : new Date(at).toLocaleString()),
          },
          { title: 'Kind', dataIndex: 'kind', render: (kind: string, e) => <Tag color={COLOR[e.category]}>{kind}</Tag> },
          {
            title: 'Object',
            key: 'object',
            render: (_: unknown, e) =>
              e.objectId ? (
                <Flex vertical>
                  <span>{e.objectName ?? e.objectType}</span>
                  <Typography.Link style={{ fontSize: 12 }} onClick={() => { setObjectText(e.objectId!); setFilter((f) => ({ ...f, objectId: e.objectId! })); }}>{e.objectId}</Typography.Link>
                </Flex>
              ) : '-',
          },
          { title: 'Summary', dataIndex: 'summary' },
          { title: 'Address', dataIndex: 'address', render: (a: string | null) => a ?? '-' },
          {
            title: 'Who',
            key: 'credential',
            render: (_: unknown, e) => (e.credential === 'ingestKey' ? `Ingest key ${e.keyHint ?? ''}` : e.credential === 'admin' ? 'Admin token' : e.actor ?? <span style={{ color: SECONDARY_TEXT }}>-</span>),
          },
        ]}
      />
      </div>
    </Flex>
  );
}
