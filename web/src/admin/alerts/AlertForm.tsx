import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Form, Input, InputNumber, Modal, Segmented, Select, Typography } from 'antd';
import { useState } from 'react';
import { ALERT_OPERATORS, ALERT_OPERATOR_WORDS, CHANNEL_TYPES, type AlertDto, type AlertOperator, type ChannelType, type CreatedAlertDto } from '@common/schemas/alert';
import { METRIC_LABELS, METRIC_ORDER, type Metric, type WidgetFilter } from '@common/schemas/widgets/widget';
import type { TimeRange } from '@common/time/timeRanges';
import { api } from '../../api/client';
import { useSubmit } from '../../api/useSubmit';
import { useDataSources } from '../stores/dataSources';
import { OutboundHint } from '../ui/OutboundHint';

/** What a new rule starts from: a KPI's settings ("Alert on this number") or nothing. */
export interface AlertSeed {
  name?: string;
  dataSourceId?: string;
  metric?: Metric;
  valueField?: string;
  dateField?: string;
  filters?: WidgetFilter[];
  range?: TimeRange;
  widget?: { dashboardId: string; widgetId: string };
}

type ChannelRow = { id?: string; type: ChannelType; url?: string; to?: string; target?: string };

const CHANNEL_LABELS: Record<ChannelType, string> = { webhook: 'Webhook', slack: 'Slack', teams: 'Microsoft Teams', email: 'Email' };
const NO_FIELD = new Set(['count', 'perMinute', 'perHour']);

/**
 * Creates or edits an alert rule: the number (metric over a source, as a KPI takes it), the
 * condition (a value, or no data for N seconds), its timing and its channels. A saved channel's
 * address is shown masked and kept as it is unless removed.
 */
export function AlertForm({ seed, editing, onClose, onSaved }: { seed?: AlertSeed; editing?: AlertDto; onClose(): void; onSaved(a: AlertDto): void }) {
  const sources = useDataSources((s) => s.items);
  const start = editing ?? seed ?? {};
  const [name, setName] = useState(start.name ?? '');
  const [dataSourceId, setDataSourceId] = useState<string | undefined>(start.dataSourceId);
  const [metric, setMetric] = useState<Metric>(start.metric ?? 'count');
  const [valueField, setValueField] = useState(start.valueField ?? '');
  const [kind, setKind] = useState<'value' | 'noData'>(editing?.noDataSeconds ? 'noData' : 'value');
  const [operator, setOperator] = useState<AlertOperator>(editing?.condition?.operator ?? 'gt');
  const [value, setValue] = useState<number | null>(editing?.condition?.value ?? null);
  const [noDataSeconds, setNoDataSeconds] = useState<number | null>(editing?.noDataSeconds ?? 300);
  const [forSeconds, setForSeconds] = useState<number | null>(editing?.forSeconds ?? 0);
  const [resolveAt, setResolveAt] = useState<number | null>(editing?.resolveAt ?? null);
  const [repeatMinutes, setRepeatMinutes] = useState<number | null>(editing?.repeatMinutes ?? null);
  const [channels, setChannels] = useState<ChannelRow[]>(editing?.channels.map((c) => ({ id: c.id, type: c.type, target: c.target })) ?? []);
  // The failure is said in the form (`submit.error`), under "The alert was not saved".
  const submit = useSubmit();
  const [secrets, setSecrets] = useState<CreatedAlertDto['secrets'] | null>(null);
  const [created, setCreated] = useState<AlertDto | null>(null);
  const fields = sources.find((s) => s.id === dataSourceId)?.fields ?? [];

  const body = () => ({
    name,
    dataSourceId,
    metric,
    ...(NO_FIELD.has(metric) ? {} : { valueField }),
    ...(seed?.filters ? { filters: seed.filters } : {}),
    ...(seed?.range ? { range: seed.range } : {}),
    ...(seed?.dateField ? { dateField: seed.dateField } : {}),
    condition: kind === 'value' ? { operator, value } : null,
    noDataSeconds: kind === 'noData' ? noDataSeconds : null,
    forSeconds: forSeconds ?? 0,
    resolveAt: kind === 'value' ? resolveAt : null,
    repeatMinutes,
    ...(seed?.widget && !editing ? { widget: seed.widget } : {}),
    channels: channels.map((c) =>
      c.id ? { id: c.id, keep: true } : c.type === 'email' ? { type: 'email', to: (c.to ?? '').split(',').map((t) => t.trim()).filter(Boolean) } : { type: c.type, url: c.url ?? '' },
    ),
  });

  const save = async () => {
    await submit.run(async () => {
      if (editing) {
        onSaved(await api.patch<AlertDto>(`/api/admin/alerts/${editing.id}`, body()));
        onClose();
      } else {
        const made = await api.post<CreatedAlertDto>('/api/admin/alerts', body());
        onSaved(made);
        if (made.secrets.length) {
          setCreated(made);
          setSecrets(made.secrets);
        } else onClose();
      }
    });
  };

  if (secrets && created) {
    return (
      <Modal open title="Alert created" onCancel={onClose} onOk={onClose} okText="Done" cancelButtonProps={{ style: { display: 'none' } }}>
        <Typography.Paragraph>Each webhook channel signs its messages with this secret (header X-LiveDash-Signature). Copy it now: it is not shown again.</Typography.Paragraph>
        {secrets.map((s) => (
          <Typography.Paragraph key={s.channelId} copyable={{ text: s.secret }} code data-testid="webhook-secret">{s.secret}</Typography.Paragraph>
        ))}
      </Modal>
    );
  }

  const setChannel = (i: number, patch: Partial<ChannelRow>) => setChannels((cs) => cs.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <Modal open title={editing ? `Edit alert ${editing.name}` : 'New alert'} onCancel={onClose} onOk={() => void save()} okText={editing ? 'Save' : 'Create alert'} confirmLoading={submit.busy} width={640} data-testid="alert-form">
      <Form layout="vertical" requiredMark={false}>
        <Form.Item label="Name"><Input aria-label="Alert name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} /></Form.Item>
        {!seed?.widget && (
          <Form.Item label="Data source">
            <Select aria-label="Data source" value={dataSourceId} onChange={setDataSourceId} options={sources.map((s) => ({ value: s.id, label: s.name }))} placeholder="Select a data source" />
          </Form.Item>
        )}
        <Flex gap={12}>
          <Form.Item label="Value" style={{ flex: 1 }}>
            <Select aria-label="Metric" value={metric} onChange={setMetric} options={METRIC_ORDER.map((m) => ({ value: m, label: METRIC_LABELS[m] }))} listHeight={13 * 32} />
          </Form.Item>
          {!NO_FIELD.has(metric) && (
            <Form.Item label="Field" style={{ flex: 1 }}>
              <Select aria-label="Value field" value={valueField || undefined} onChange={setValueField} options={fields.map((f) => ({ value: f, label: f }))} showSearch placeholder="Select a field" />
            </Form.Item>
          )}
        </Flex>
        <Form.Item label="Condition">
          <Segmented aria-label="Condition kind" value={kind} onChange={(v) => setKind(v as 'value' | 'noData')} options={[{ value: 'value', label: 'The value is…' }, { value: 'noData', label: 'No data for…' }]} />
        </Form.Item>
        {kind === 'value' ? (
          <Flex gap={12}>
            <Form.Item label="Is" style={{ flex: 1 }}>
              <Select aria-label="Operator" value={operator} onChange={setOperator} options={ALERT_OPERATORS.map((o) => ({ value: o, label: ALERT_OPERATOR_WORDS[o] }))} />
            </Form.Item>
            <Form.Item label="Threshold" style={{ flex: 1 }}><InputNumber aria-label="Threshold" value={value} onChange={setValue} style={{ width: '100%' }} /></Form.Item>
            <Form.Item label="Resolve at (optional)" style={{ flex: 1 }}><InputNumber aria-label="Resolve at" value={resolveAt} onChange={setResolveAt} style={{ width: '100%' }} /></Form.Item>
          </Flex>
        ) : (
          <Form.Item label="Seconds without a record"><InputNumber aria-label="Seconds without data" min={1} value={noDataSeconds} onChange={setNoDataSeconds} /></Form.Item>
        )}
        <Flex gap={12}>
          <Form.Item label="Hold for (seconds)" extra="Fire only when it lasts this long."><InputNumber aria-label="Hold for seconds" min={0} value={forSeconds} onChange={setForSeconds} /></Form.Item>
          <Form.Item label="Repeat every (minutes)" extra="While firing; empty: never."><InputNumber aria-label="Repeat minutes" min={1} value={repeatMinutes} onChange={setRepeatMinutes} /></Form.Item>
        </Flex>
        <Typography.Title level={5}>Channels</Typography.Title>
        {channels.map((c, i) => (
          <Flex key={i} gap={8} align="center" style={{ marginBottom: 8 }}>
            <Select aria-label={`Channel ${i + 1} type`} disabled={Boolean(c.id)} value={c.type} onChange={(t) => setChannel(i, { type: t })} options={CHANNEL_TYPES.map((t) => ({ value: t, label: CHANNEL_LABELS[t] }))} style={{ width: 170 }} />
            {c.id ? (
              <Typography.Text code style={{ flex: 1 }}>{c.target}</Typography.Text>
            ) : c.type === 'email' ? (
              <Input aria-label={`Channel ${i + 1} recipients`} placeholder="ops@example.com, oncall@example.com" value={c.to} onChange={(e) => setChannel(i, { to: e.target.value })} style={{ flex: 1 }} />
            ) : (
              <Input aria-label={`Channel ${i + 1} URL`} placeholder="https://…" value={c.url} onChange={(e) => setChannel(i, { url: e.target.value })} style={{ flex: 1 }} />
            )}
            <Button aria-label={`Remove channel ${i + 1}`} icon={<DeleteOutlined />} onClick={() => setChannels((cs) => cs.filter((_, j) => j !== i))} />
          </Flex>
        ))}
        <Button icon={<PlusOutlined />} onClick={() => setChannels((cs) => [...cs, { type: 'webhook', url: '' }])}>Add channel</Button>
        {submit.error && <Alert style={{ marginTop: 12 }} type="error" showIcon title="The alert was not saved" description={<OutboundHint text={submit.error} />} data-testid="alert-form-error" />}
      </Form>
    </Modal>
  );
}
