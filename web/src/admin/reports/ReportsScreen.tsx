import { PlusOutlined, SendOutlined } from '@ant-design/icons';
import { Button, Drawer, Flex, Popconfirm, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { ReportDeliveryDto, ReportDeliveryStatus, ReportDto } from '@common/schemas/report';
import { api, errorText } from '../../api/client';
import { useSubmit } from '../../api/useSubmit';
import { LoadError } from '../ui/States';
import { useToast } from '../ui/toast';
import { ReportForm } from './ReportForm';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const STATUS: Record<ReportDeliveryStatus, { color: string; label: string }> = {
  sent: { color: 'green', label: 'Sent' },
  failed: { color: 'red', label: 'Failed' },
  retrying: { color: 'orange', label: 'Retrying' },
  sending: { color: 'blue', label: 'Sending' },
};
const REASON_WORDS: Record<ReportDeliveryDto['reason'], string> = { schedule: 'On schedule', send: 'Send now', retry: 'Retry of a failed drawing' };
const CHANNEL_WORDS: Record<string, string> = { email: 'Email', slack: 'Slack', teams: 'Teams', webhook: 'Webhook' };
const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** The delivery log of one report: per run and channel, with each file's size and why a send failed. */
function DeliveryLog({ report, onClose }: { report: ReportDto | null; onClose(): void }) {
  const [rows, setRows] = useState<ReportDeliveryDto[] | null>(null);
  useEffect(() => {
    if (!report) return undefined;
    setRows(null);
    const load = () => void api.get<ReportDeliveryDto[]>(`/api/admin/reports/${report.id}/deliveries`).then(setRows, () => setRows([]));
    load();
    // A run's deliveries settle within seconds (or retry for minutes): the log follows them.
    const t = window.setInterval(load, 3_000);
    return () => window.clearInterval(t);
  }, [report]);
  return (
    <Drawer open={Boolean(report)} onClose={onClose} title={report ? `Deliveries of ${report.name}` : ''} size="min(860px, 100vw)" data-testid="report-deliveries">
      <Table<ReportDeliveryDto>
        size="small" rowKey="id" pagination={{ pageSize: 25, hideOnSinglePage: true }} loading={rows === null} dataSource={rows ?? []}
        locale={{ emptyText: 'Nothing sent yet: press "Send now", or wait for its next run.' }}
        onRow={(d) => ({ 'data-delivery-status': d.status } as React.HTMLAttributes<HTMLElement>)}
        columns={[
          { title: 'At', render: (_, d) => <Flex vertical>{when(d.at)}<Typography.Text type="secondary" style={{ fontSize: 12 }}>{REASON_WORDS[d.reason]}</Typography.Text></Flex> },
          { title: 'Channel', render: (_, d) => <Flex vertical>{CHANNEL_WORDS[d.channel.type]}<Typography.Text type="secondary" style={{ fontSize: 12 }}>{d.channel.target}</Typography.Text></Flex> },
          { title: 'Status', render: (_, d) => <Tag color={STATUS[d.status].color}>{STATUS[d.status].label}{d.attempts > 1 ? ` (${d.attempts} tries)` : ''}</Tag> },
          { title: 'Files', render: (_, d) => d.files.map((f) => `${f.format.toUpperCase()} ${sizeText(f.bytes)}`).join(', ') || '—' },
          { title: 'Error', render: (_, d) => (d.error ? <Typography.Text type="danger" style={{ fontSize: 12 }}>{d.error}</Typography.Text> : '—') },
        ]}
      />
    </Drawer>
  );
}

/**
 * Reports: dashboards sent on a schedule as a picture, a PDF and a CSV to email, Slack, Teams or a
 * webhook. The list says each schedule in words, the next run and the last delivery; "Send now"
 * sends at once; the delivery log shows every run per channel. `scheduleFor` opens the form for a
 * dashboard ("Schedule a report" on its card).
 */
export default function ReportsScreen({ scheduleFor, onScheduled }: { scheduleFor?: string | null; onScheduled?(): void }) {
  const [reports, setReports] = useState<ReportDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<{ editing?: ReportDto; dashboardId?: string } | null>(scheduleFor ? { dashboardId: scheduleFor } : null);
  const [log, setLog] = useState<ReportDto | null>(null);
  const toast = useToast();
  const load = useCallback(async () => {
    try {
      setReports(await api.get<ReportDto[]>('/api/admin/reports'));
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => {
    void load();
    const t = window.setInterval(() => void load(), 5_000);
    return () => window.clearInterval(t);
  }, [load]);
  useEffect(() => {
    if (scheduleFor) setForm({ dashboardId: scheduleFor });
  }, [scheduleFor]);

  const submit = useSubmit(toast);
  const act = async (what: string, fn: () => Promise<unknown>) => {
    if (await submit.run(fn, { success: what, failure: `${what.split(':')[0]} failed` })) await load();
  };
  const closeForm = () => {
    setForm(null);
    onScheduled?.();
  };

  if (error && !reports) return <LoadError title="Failed to fetch reports" detail={error} onRetry={() => void load()} />;
  return (
    <Flex vertical gap={16} data-testid="reports-screen">
      <Flex gap={8} align="center">
        <Typography.Text type="secondary" style={{ flex: 1 }}>A dashboard tab drawn on the server and sent as a picture, a PDF and a CSV to email, Slack, Teams or a webhook — as often as every 5 minutes.</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({})}>New report</Button>
      </Flex>
      <Table<ReportDto>
        size="small" rowKey="id" loading={reports === null} dataSource={reports ?? []} pagination={{ pageSize: 50, hideOnSinglePage: true }}
        locale={{ emptyText: 'No reports yet: "New report", or "Schedule a report" on a dashboard\'s card.' }}
        onRow={(r) => ({ 'data-report-row': r.name } as React.HTMLAttributes<HTMLElement>)}
        columns={[
          { title: 'Name', dataIndex: 'name' },
          { title: 'Dashboard', render: (_, r) => r.dashboardName ?? r.dashboardId },
          { title: 'Schedule', render: (_, r) => <Flex gap={4} align="center" wrap><span data-testid="report-schedule">{r.scheduleText}</span>{r.paused && <Tag>Paused</Tag>}</Flex> },
          {
            title: 'Next run',
            render: (_, r) => (r.drawRetryAt
              ? <Flex vertical>{when(r.nextRunAt)}<Typography.Text type="warning" style={{ fontSize: 12 }} data-testid="report-retry">Drawing failed: tried again {when(r.drawRetryAt)}</Typography.Text></Flex>
              : when(r.nextRunAt)),
          },
          {
            title: 'Last delivery',
            render: (_, r) => (r.lastDelivery
              ? <Flex vertical><span><Tag color={STATUS[r.lastDelivery.status].color} data-testid="report-last-status">{STATUS[r.lastDelivery.status].label}</Tag>{CHANNEL_WORDS[r.lastDelivery.channelType]}</span><Typography.Text type="secondary" style={{ fontSize: 12 }}>{when(r.lastDelivery.at)}</Typography.Text></Flex>
              : '—'),
          },
          {
            title: '',
            render: (_, r) => (
              <Flex gap={4} wrap>
                <Button size="small" icon={<SendOutlined />} onClick={() => void act('Sending now: the delivery log follows it', () => api.post(`/api/admin/reports/${r.id}/send`))}>Send now</Button>
                <Button size="small" onClick={() => setLog(r)}>Deliveries</Button>
                <Button size="small" onClick={() => setForm({ editing: r })}>Edit</Button>
                <Button size="small" onClick={() => void act(r.paused ? 'Report resumed' : 'Report paused', () => api.patch(`/api/admin/reports/${r.id}`, { paused: !r.paused }))}>{r.paused ? 'Resume' : 'Pause'}</Button>
                <Popconfirm title={`Delete report ${r.name}? Its files' links stop working.`} onConfirm={() => void act('Report deleted', () => api.delete(`/api/admin/reports/${r.id}`))}>
                  <Button size="small" danger>Delete</Button>
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
      {form && <ReportForm editing={form.editing} dashboardId={form.dashboardId} onClose={closeForm} onSaved={() => void load()} />}
      <DeliveryLog report={log} onClose={() => setLog(null)} />
    </Flex>
  );
}
