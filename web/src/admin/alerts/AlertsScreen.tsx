import { BellOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Drawer, Dropdown, Flex, Popconfirm, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { AlertDto, AlertHistoryDto } from '@common/schemas/alert';
import { api, errorText } from '../../api/client';
import { OutboundHint } from '../ui/OutboundHint';
import { useSubmit } from '../../api/useSubmit';
import { useDataSources } from '../stores/dataSources';
import { LoadError } from '../ui/States';
import { useToast } from '../ui/toast';
import { AlertForm } from './AlertForm';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const MUTES = [{ key: '60', label: 'Mute for 1 hour' }, { key: '1440', label: 'Mute for 24 hours' }, { key: '10080', label: 'Mute for 7 days' }, { key: 'off', label: 'Unmute' }];

/** Alerts: every rule with its state, last value and last change; create, edit, mute, test, delete; history. */
export default function AlertsScreen() {
  const [alerts, setAlerts] = useState<AlertDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<{ editing?: AlertDto } | null>(null);
  const [history, setHistory] = useState<{ alert: AlertDto; data: AlertHistoryDto | null } | null>(null);
  const sources = useDataSources((s) => s.items);
  const toast = useToast();
  const load = useCallback(async () => {
    try {
      setAlerts(await api.get<AlertDto[]>('/api/admin/alerts'));
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => {
    if (!useDataSources.getState().items.length) void useDataSources.getState().load();
    void load();
    // States change as data arrives: the list follows every few seconds.
    const t = window.setInterval(() => void load(), 5_000);
    return () => window.clearInterval(t);
  }, [load]);

  const submit = useSubmit(toast);
  const act = async (what: string, fn: () => Promise<unknown>) => {
    if (await submit.run(fn, { success: what, failure: `${what} failed` })) await load();
  };
  const openHistory = async (alert: AlertDto) => {
    setHistory({ alert, data: null });
    const data = await api.get<AlertHistoryDto>(`/api/admin/alerts/${alert.id}/history`).catch(() => ({ changes: [], deliveries: [] }));
    setHistory({ alert, data });
  };
  const mute = (a: AlertDto, key: string) =>
    act(key === 'off' ? 'Alert unmuted' : 'Alert muted', () => api.patch(`/api/admin/alerts/${a.id}`, { mutedUntil: key === 'off' ? null : new Date(Date.now() + Number(key) * 60_000).toISOString() }));

  if (error && !alerts) return <LoadError title="Failed to fetch alerts" detail={error} onRetry={() => void load()} />;
  return (
    <Flex vertical gap={16} data-testid="alerts-screen">
      <Flex gap={8} align="center">
        <Typography.Text type="secondary" style={{ flex: 1 }}>Rules on a data source's live number, checked as each record arrives; their messages go to webhooks, Slack, Teams or email.</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({})}>New alert</Button>
      </Flex>
      <Table<AlertDto>
        size="small"
        rowKey="id"
        loading={alerts === null}
        dataSource={alerts ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        onRow={(a) => ({ 'data-alert-row': a.name } as React.HTMLAttributes<HTMLElement>)}
        columns={[
          {
            title: 'Name',
            render: (_, a) => (
              <Flex vertical>
                {a.name}
                {a.problem && <Typography.Text type="warning" data-testid="alert-problem">{a.problem}</Typography.Text>}
              </Flex>
            ),
          },
          { title: 'State', render: (_, a) => <Tag color={a.state === 'firing' ? 'red' : 'green'} icon={a.state === 'firing' ? <BellOutlined /> : undefined} data-testid="alert-state">{a.state === 'firing' ? 'Firing' : 'OK'}</Tag> },
          { title: 'Last value', render: (_, a) => (a.lastValue ?? '—') },
          { title: 'Last change', render: (_, a) => when(a.stateSince) },
          { title: 'Data source', render: (_, a) => sources.find((s) => s.id === a.dataSourceId)?.name ?? a.dataSourceId },
          { title: 'Muted until', render: (_, a) => (a.mutedUntil && Date.parse(a.mutedUntil) > Date.now() ? when(a.mutedUntil) : '—') },
          {
            title: '',
            render: (_, a) => (
              <Flex gap={4} wrap>
                <Button size="small" onClick={() => setForm({ editing: a })}>Edit</Button>
                <Dropdown menu={{ items: MUTES, onClick: ({ key }) => void mute(a, key) }}><Button size="small">Mute…</Button></Dropdown>
                <Button size="small" onClick={() => void act('Test message sent', () => api.post(`/api/admin/alerts/${a.id}/test`))} disabled={!a.channels.length}>Send test</Button>
                <Button size="small" onClick={() => void openHistory(a)}>History</Button>
                <Popconfirm title={`Delete alert ${a.name}?`} onConfirm={() => void act('Alert deleted', () => api.delete(`/api/admin/alerts/${a.id}`))}>
                  <Button size="small" danger>Delete</Button>
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
      {form && <AlertForm editing={form.editing} onClose={() => setForm(null)} onSaved={() => void load()} />}
      <Drawer open={Boolean(history)} data-testid="alert-history" onClose={() => setHistory(null)} title={history ? `History of ${history.alert.name}` : ''} size="min(720px, 100vw)">
        {history && (
          <>
            <Typography.Title level={5}>State changes</Typography.Title>
            <Table size="small" rowKey="at" pagination={false} loading={!history.data} dataSource={history.data?.changes ?? []}
              columns={[{ title: 'At', render: (_, c) => when(c.at) }, { title: 'Change', render: (_, c) => `${c.from} → ${c.to}` }, { title: 'Value', render: (_, c) => c.value ?? '—' }]} />
            <Typography.Title level={5} style={{ marginTop: 16 }}>Deliveries</Typography.Title>
            <Table size="small" rowKey="id" pagination={false} loading={!history.data} dataSource={history.data?.deliveries ?? []}
              columns={[
                { title: 'At', render: (_, d) => when(d.createdAt) },
                { title: 'Message', render: (_, d) => `${d.kind} → ${d.channelType}` },
                { title: 'Status', render: (_, d) => <Tag color={d.status === 'delivered' ? 'green' : d.status === 'pending' ? 'blue' : 'red'}>{d.status}</Tag> },
                // Each attempt: status, what happened, its time; what the receiver answered comes only to admins.
                { title: 'Attempts', render: (_, d) => (d.attempts.length ? <OutboundHint text={d.attempts.map((t) => `${t.status ?? '—'} ${t.message}${t.durationMs !== null ? ` (${t.durationMs} ms)` : ''}${t.answer ? ` — “${t.answer}”` : ''}`).join('; ')} /> : '—') },
              ]} />
          </>
        )}
      </Drawer>
    </Flex>
  );
}
