import { DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Flex, Form, Input, InputNumber, Modal, Segmented, Select, Spin, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { CHANNEL_TYPES, type ChannelType } from '@common/schemas/messaging/channel';
import { REPORT_DEFAULT_WIDTH, REPORT_FORMATS, REPORT_MIN_MINUTES, type CreatedReportDto, type ReportDto, type ReportFormat, type ReportSchedule } from '@common/schemas/report';
import { scheduleText } from '@common/time/reportSchedule';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { api, errorText } from '../../api/client';
import { useSubmit } from '../../api/useSubmit';
import { useDashboards } from '../stores/dashboards';
import { LockedFilterInput, lockedFilters, type LockDraft } from '../ui/LockedFilterInput';

type ChannelRow = { id?: string; type: ChannelType; url?: string; to?: string; target?: string };

const CHANNEL_LABELS: Record<ChannelType, string> = { webhook: 'Webhook', slack: 'Slack', teams: 'Microsoft Teams', email: 'Email' };
const FORMAT_LABELS: Record<ReportFormat, string> = { png: 'Picture (PNG)', pdf: 'PDF', csv: 'CSV' };
const ZONES = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A saved locked filter as the one-filter editor's draft. */
const draftOf = (f: WidgetFilter | undefined): LockDraft =>
  f ? { field: f.field, operator: (['eq', 'in', 'gte', 'lte', 'contains'].includes(f.operator ?? 'eq') ? f.operator : 'eq') as LockDraft['operator'], value: f.operator === 'in' ? (f.values ?? []).join(', ') : (f.value ?? '') } : { operator: 'eq', value: '' };

/** The live picture of the report's settings: drawn by the server a moment after they settle. */
function Preview({ settings }: { settings: { dashboardId?: string; tabId: string | null; filters: WidgetFilter[]; width: number; theme: string; timezone: string } }) {
  const [url, setUrl] = useState<string | null>(null);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [again, setAgain] = useState(0);
  const key = JSON.stringify(settings);
  useEffect(() => {
    if (!settings.dashboardId) return undefined;
    let gone = false;
    let made: string | null = null;
    const t = window.setTimeout(() => {
      setState({ busy: true, error: null });
      api
        .postForBlob('/api/admin/reports/preview', settings)
        .then((blob) => {
          if (gone) return;
          made = URL.createObjectURL(blob);
          setUrl(made);
          setState({ busy: false, error: null });
        })
        .catch((e: unknown) => !gone && setState({ busy: false, error: errorText(e) }));
    }, 500);
    return () => {
      gone = true;
      window.clearTimeout(t);
      if (made) URL.revokeObjectURL(made);
    };
    // The settings are compared by their JSON (`key`): a new object with the same values draws nothing again.
  }, [key, again]);
  return (
    <Flex vertical gap={8} style={{ flex: 1, minWidth: 280 }} data-testid="report-preview">
      <Flex justify="space-between" align="center">
        <Typography.Text strong>Preview</Typography.Text>
        <Button size="small" icon={<ReloadOutlined />} onClick={() => setAgain((n) => n + 1)} disabled={!settings.dashboardId}>Draw again</Button>
      </Flex>
      <Spin spinning={state.busy}>
        <div style={{ border: '1px solid #e5e7eb', borderRadius: 6, minHeight: 180, display: 'grid', placeItems: 'center', background: '#fafafa', overflow: 'hidden' }}>
          {state.error ? <Typography.Text type="danger">{state.error}</Typography.Text>
            : url ? <img src={url} alt="The report's picture as it would be sent now" style={{ width: '100%', display: 'block' }} data-testid="report-preview-image" />
            : <Typography.Text type="secondary">{settings.dashboardId ? 'Drawing…' : 'Pick a dashboard to see its picture'}</Typography.Text>}
        </div>
      </Spin>
    </Flex>
  );
}

/**
 * Creates or edits a report: the dashboard tab drawn (through an optional locked filter), when it
 * goes (every N minutes, or a cron expression in a time zone), its files, and its channels; the
 * picture it would send is previewed live. A saved channel's address is shown masked and kept.
 */
export function ReportForm({ editing, dashboardId: startDashboard, onClose, onSaved }: { editing?: ReportDto; dashboardId?: string; onClose(): void; onSaved(r: ReportDto): void }) {
  const dashboards = useDashboards((s) => s.items);
  useEffect(() => {
    if (!useDashboards.getState().items.length) void useDashboards.getState().load();
  }, []);
  const [name, setName] = useState(editing?.name ?? '');
  const [dashboardId, setDashboardId] = useState<string | undefined>(editing?.dashboardId ?? startDashboard);
  const [tabId, setTabId] = useState<string | null>(editing?.tabId ?? null);
  const [kind, setKind] = useState<'every' | 'cron'>(editing && 'cron' in editing.schedule ? 'cron' : 'every');
  const [everyMinutes, setEveryMinutes] = useState<number | null>(editing && 'everyMinutes' in editing.schedule ? editing.schedule.everyMinutes : 60);
  const [cron, setCron] = useState(editing && 'cron' in editing.schedule ? editing.schedule.cron : '0 8 * * 1-5');
  const [timezone, setTimezone] = useState(editing?.timezone ?? HERE);
  const [formats, setFormats] = useState<ReportFormat[]>(editing?.formats ?? ['png', 'pdf']);
  const [width, setWidth] = useState<number | null>(editing?.width ?? REPORT_DEFAULT_WIDTH);
  const [theme, setTheme] = useState<'light' | 'dark'>(editing?.theme ?? 'light');
  const [paper, setPaper] = useState<'A4' | 'Letter'>(editing?.paper ?? 'A4');
  const manyFilters = (editing?.filters.length ?? 0) > 1;
  const [lock, setLock] = useState<LockDraft>(draftOf(editing?.filters[0]));
  const [channels, setChannels] = useState<ChannelRow[]>(editing?.channels.map((c) => ({ id: c.id, type: c.type, target: c.target })) ?? [{ type: 'email', to: '' }]);
  const submit = useSubmit();
  const [secrets, setSecrets] = useState<CreatedReportDto['secrets'] | null>(null);
  const dashboard = dashboards.find((d) => d.id === dashboardId);
  const tabs = dashboard?.configuration.tabs ?? [];
  const name0 = dashboard ? `${dashboard.name} report` : '';
  const schedule: ReportSchedule = kind === 'cron' ? { cron: cron.trim() } : { everyMinutes: everyMinutes ?? 0 };
  const filters = manyFilters ? editing!.filters : dashboardId ? lockedFilters(lock) : [];
  const filtersKey = JSON.stringify(filters);
  const previewSettings = useMemo(() => ({ dashboardId, tabId, filters: JSON.parse(filtersKey) as WidgetFilter[], width: width ?? REPORT_DEFAULT_WIDTH, theme, timezone }), [dashboardId, tabId, filtersKey, width, theme, timezone]);

  const body = () => ({
    name: name.trim() || name0,
    dashboardId,
    tabId,
    schedule,
    formats,
    width,
    theme,
    paper,
    timezone,
    filters,
    channels: channels.map((c) =>
      c.id ? { id: c.id, keep: true } : c.type === 'email' ? { type: 'email', to: (c.to ?? '').split(',').map((t) => t.trim()).filter(Boolean) } : { type: c.type, url: c.url ?? '' },
    ),
  });
  const save = () =>
    submit.run(async () => {
      if (editing) {
        onSaved(await api.patch<ReportDto>(`/api/admin/reports/${editing.id}`, body()));
        return onClose();
      }
      const made = await api.post<CreatedReportDto>('/api/admin/reports', body());
      onSaved(made);
      if (made.secrets.length) setSecrets(made.secrets);
      else onClose();
    });

  if (secrets) {
    return (
      <Modal open title="Report scheduled" onCancel={onClose} onOk={onClose} okText="Done" cancelButtonProps={{ style: { display: 'none' } }}>
        <Typography.Paragraph>Each webhook channel signs its messages with this secret (header X-LiveDash-Signature). Copy it now: it is not shown again.</Typography.Paragraph>
        {secrets.map((s) => <Typography.Paragraph key={s.channelId} copyable={{ text: s.secret }} code data-testid="webhook-secret">{s.secret}</Typography.Paragraph>)}
      </Modal>
    );
  }
  const setChannel = (i: number, patch: Partial<ChannelRow>) => setChannels((cs) => cs.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <Modal open title={editing ? `Edit report ${editing.name}` : 'Schedule a report'} onCancel={onClose} onOk={() => void save()} okText={editing ? 'Save' : 'Schedule report'} confirmLoading={submit.busy} width={1040} data-testid="report-form">
      <Flex gap={24} wrap>
        <Form layout="vertical" requiredMark={false} style={{ flex: 1, minWidth: 340 }}>
          <Form.Item label="Name"><Input aria-label="Report name" value={name} placeholder={name0 || 'Monday numbers'} maxLength={200} onChange={(e) => setName(e.target.value)} /></Form.Item>
          <Flex gap={12}>
            <Form.Item label="Dashboard" style={{ flex: 2 }}>
              <Select aria-label="Dashboard" value={dashboardId} onChange={(id) => { setDashboardId(id); setTabId(null); setLock({ operator: 'eq', value: '' }); }} options={dashboards.map((d) => ({ value: d.id, label: d.name }))} placeholder="Select a dashboard" showSearch optionFilterProp="label" />
            </Form.Item>
            <Form.Item label="Tab" style={{ flex: 1 }}>
              <Select aria-label="Tab" value={tabId ?? tabs[0]?.id} onChange={setTabId} options={tabs.map((t) => ({ value: t.id, label: t.name }))} disabled={!tabs.length} />
            </Form.Item>
          </Flex>
          <Form.Item label="When" extra={kind === 'cron' ? `Minute hour day month weekday; at least ${REPORT_MIN_MINUTES} minutes between runs.` : `At least ${REPORT_MIN_MINUTES} minutes.`}>
            <Flex gap={8} align="center" wrap>
              <Segmented aria-label="Schedule kind" value={kind} onChange={(v) => setKind(v as 'every' | 'cron')} options={[{ value: 'every', label: 'Every…' }, { value: 'cron', label: 'Cron' }]} />
              {kind === 'every'
                ? <InputNumber aria-label="Every minutes" min={REPORT_MIN_MINUTES} value={everyMinutes} onChange={setEveryMinutes} addonAfter="minutes" style={{ width: 180 }} />
                : <Input aria-label="Cron expression" value={cron} onChange={(e) => setCron(e.target.value)} style={{ width: 180, fontFamily: 'monospace' }} />}
              <Typography.Text type="secondary" data-testid="schedule-words">{scheduleText(schedule, timezone)}</Typography.Text>
            </Flex>
          </Form.Item>
          <Form.Item label="Time zone"><Select aria-label="Time zone" showSearch value={timezone} onChange={setTimezone} options={ZONES.map((z) => ({ value: z, label: z }))} /></Form.Item>
          <Form.Item label="Files"><Checkbox.Group aria-label="Files" value={formats} onChange={(v) => setFormats(v as ReportFormat[])} options={REPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))} /></Form.Item>
          <Flex gap={12}>
            <Form.Item label="Picture width"><InputNumber aria-label="Picture width" min={480} max={3840} step={80} value={width} onChange={setWidth} addonAfter="px" /></Form.Item>
            <Form.Item label="Theme"><Segmented aria-label="Theme" value={theme} onChange={(v) => setTheme(v as 'light' | 'dark')} options={[{ value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }]} /></Form.Item>
            {formats.includes('pdf') && <Form.Item label="PDF paper"><Segmented aria-label="PDF paper" value={paper} onChange={(v) => setPaper(v as 'A4' | 'Letter')} options={['A4', 'Letter']} /></Form.Item>}
          </Flex>
          <Form.Item label="Locked filter (every file holds only the matching records)">
            {manyFilters ? <Flex gap={4} wrap>{editing!.filters.map((f, i) => <Tag key={i}>{f.field} {f.operator} {f.operator === 'in' ? f.values?.join(', ') : f.value}</Tag>)}</Flex>
              : dashboardId ? <LockedFilterInput dashboardId={dashboardId} value={lock} onChange={setLock} />
              : <Typography.Text type="secondary">Pick a dashboard first</Typography.Text>}
          </Form.Item>
          <Typography.Title level={5}>Send to</Typography.Title>
          {channels.map((c, i) => (
            <Flex key={i} gap={8} align="center" style={{ marginBottom: 8 }}>
              <Select aria-label={`Channel ${i + 1} type`} disabled={Boolean(c.id)} value={c.type} onChange={(t) => setChannel(i, { type: t })} options={CHANNEL_TYPES.map((t) => ({ value: t, label: CHANNEL_LABELS[t] }))} style={{ width: 170 }} />
              {c.id ? <Typography.Text code style={{ flex: 1 }}>{c.target}</Typography.Text>
                : c.type === 'email' ? <Input aria-label={`Channel ${i + 1} recipients`} placeholder="team@example.com, boss@example.com" value={c.to} onChange={(e) => setChannel(i, { to: e.target.value })} style={{ flex: 1 }} />
                : <Input aria-label={`Channel ${i + 1} URL`} placeholder="https://…" value={c.url} onChange={(e) => setChannel(i, { url: e.target.value })} style={{ flex: 1 }} />}
              <Button aria-label={`Remove channel ${i + 1}`} icon={<DeleteOutlined />} onClick={() => setChannels((cs) => cs.filter((_, j) => j !== i))} />
            </Flex>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => setChannels((cs) => [...cs, { type: 'slack', url: '' }])}>Add channel</Button>
          {submit.error && <Alert style={{ marginTop: 12 }} type="error" showIcon title="The report was not saved" description={submit.error} data-testid="report-form-error" />}
        </Form>
        <Preview settings={previewSettings} />
      </Flex>
    </Modal>
  );
}
