import { BellOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Divider, Drawer, Flex, Form, Input, InputNumber, Segmented, Select, Switch, Typography } from 'antd';
import type { TabConfiguration, Widget } from '@common/schemas/dashboard';
import { isChartWidgetType, MAX_SCATTER_POINTS, METRIC_LABELS, METRIC_ORDER, MAX_SERIES, migrateChartConfig, migrateLineConfig, THRESHOLD_COLORS, type WidgetType } from '@common/schemas/widgets/widget';
import { previousLabel, type TimeRange } from '@common/time/timeRanges';
import { fieldTypeOf } from '@common/types/fieldTyping';
import { unitBefore } from '@common/widgets/format';
import { isNumberAxisField } from '@common/widgets/charts/numberAxis';
import { useWidgetEnv } from '../../public/viewer/widgets/widgetContext';
import { FieldSelect } from '../ui/FieldSelect';
import { RecordsWidgetFields } from './RecordsWidgetFields';
import { BucketPicker, RangePicker } from './TimeSettings';
import { WidgetFilters } from './WidgetFilters';
import { startConfiguration, TYPE_LABELS, widgetProblems } from './widgetDrafts';

type Config = Record<string, unknown>;
type Filter = { field?: string; operator?: string; value?: string; values?: string[] };
const METRICS = METRIC_ORDER.map((m) => ({ value: m, label: METRIC_LABELS[m] }));
const RATES = new Set(['perMinute', 'perHour']);
const NO_FIELD_METRICS = new Set(['count', 'perMinute', 'perHour']);

/** Which comparison a KPI's "Compare" makes, in the builder's words (common/widgets/drawn/kpiComparison). */
function comparisonWords(range: TimeRange | undefined, bucket: string | undefined, sparkline: boolean): string {
  const by = sparkline && bucket && bucket !== 'auto' ? bucket : null;
  const latest = `the latest ${by ?? 'bucket (day, month… as the records are spaced)'} in the data with the one before it`;
  if (!range || range.kind === 'all') return `All time has no period before it: compares ${latest} ("▲ 0.2% vs Nov 2015").`;
  if (range.kind === 'fixed') return `Compares with ${previousLabel(range)}; when that holds no record (history that starts here), ${latest}.`;
  return `Compares with ${previousLabel(range)} ("—" when nothing was there).`;
}

/** The side panel that edits one widget: its name, type and the settings of that type, with each problem under its field. */
export function WidgetEditor({ widget, fields, label, onChange, onClose, onAlert }: {
  widget: Widget | null; fields: string[]; label(field: string): string; onChange(widget: Widget): void; onClose(): void;
  /** "Alert on this number": a rule on this KPI's number, tied to its tile. */
  onAlert?: (widget: Widget) => void;
}) {
  const { feed, typing, timeField } = useWidgetEnv();
  if (!widget) return <Drawer open={false} onClose={onClose} />;
  // A line chart saved with interval + points is edited as the range and bucket it is drawn with (and saved so).
  // One saved `filter` is edited as the first of `filters`, a bar's `stackField` as a stacked split (and saved so).
  const c = (isChartWidgetType(widget.type) ? migrateChartConfig(widget.type === 'line' ? migrateLineConfig(widget.configuration) : widget.configuration) : widget.configuration) as Config;
  const problems = widgetProblems(widget, { records: feed.get().records.values(), dateOrder: typing.dateOrder });
  const set = (patch: Config) => onChange({ ...widget, configuration: { ...c, ...patch } as Widget['configuration'] });
  const item = (path: string, title: string, control: React.ReactNode, extra?: string) => (
    <Form.Item label={title} validateStatus={problems[`configuration.${path}`] ? 'error' : undefined} help={problems[`configuration.${path}`]} extra={extra}>
      {control}
    </Form.Item>
  );
  // A numeric picker offers the fields typed as numbers (and the untyped ones, which may hold numbers).
  const numericFields = fields.filter((f) => (fieldTypeOf(typing, f) ?? 'number') === 'number');
  const fieldSelect = (key: string, title: string, placeholder = 'Select a field', numeric = false) =>
    item(key, title, <FieldSelect aria-label={title} allowClear placeholder={placeholder} value={(c[key] as string) || undefined} onChange={(v) => set({ [key]: v ?? undefined })} fields={numeric ? numericFields : fields} typing={typing} label={label} />);
  const metric = (all: boolean) => (
    <>
      {item('metric', 'Value', <Select aria-label="Value" value={(c.metric as string) ?? 'count'} onChange={(v) => set({ metric: v })} options={all ? METRICS : METRICS.filter((m) => !RATES.has(m.value))} listHeight={13 * 32} />)}
      {typeof c.metric === 'string' && !NO_FIELD_METRICS.has(c.metric) && fieldSelect('valueField', c.metric === 'distinct' || c.metric === 'latest' ? 'Field' : 'Numeric field', 'Select a field')}
    </>
  );
  const range = c.range as TimeRange | undefined;
  // Where the widget reads time: its range, over its date field (by default the source's time field).
  const timeSettings = () => (
    <>
      {fieldSelect('dateField', 'Date field', timeField ? `The source's time field (${label(timeField)})` : 'Select a date field')}
      {item('range', 'Time range', <RangePicker value={range} onChange={(r) => set({ range: r })} />, 'Only records dated in the range count.')}
    </>
  );
  const bucket = () => item('bucket', 'Bucket', <BucketPicker value={c.bucket as string | undefined} range={range} dateField={c.dateField as string | undefined} onChange={(b) => set({ bucket: b })} />);
  // One series per value of a field: how many are drawn, and what happens to the rest.
  const split = (bars: boolean) => (
    <>
      {fieldSelect('splitField', 'Split by (optional)', 'One series')}
      {Boolean(c.splitField) && (
        <Flex gap={12} wrap>
          {item('seriesLimit', 'Series drawn', <InputNumber aria-label="Series drawn" min={1} max={MAX_SERIES} value={(c.seriesLimit as number) ?? 10} onChange={(v) => set({ seriesLimit: v ?? undefined })} />, `The largest, 1 to ${MAX_SERIES}`)}
          {item('otherSeries', 'The rest', <Segmented aria-label="The rest" value={(c.otherSeries as string) ?? 'combine'} onChange={(v) => set({ otherSeries: v })} options={[{ value: 'combine', label: 'Combined as "Other"' }, { value: 'omit', label: 'Left out' }]} />)}
          {bars && item('stack', 'Bars', <Segmented aria-label="Bars" value={c.stack === false ? 'side' : 'stack'} onChange={(v) => set({ stack: v === 'stack' })} options={[{ value: 'stack', label: 'Stacked' }, { value: 'side', label: 'Side by side' }]} />)}
        </Flex>
      )}
    </>
  );
  // A number field grouped into ranges ("10–20"), or not (`off`: each value its bar or point).
  const numberRanges = (off: string) => item('bins', 'Number ranges', (
    <Flex gap={8} align="center">
      <Segmented aria-label="Number ranges" value={c.bins === undefined ? 'off' : c.bins === 'auto' ? 'auto' : 'width'} onChange={(v) => set({ bins: v === 'off' ? undefined : v === 'auto' ? 'auto' : typeof c.bins === 'number' ? c.bins : 10 })} options={[{ value: 'off', label: off }, { value: 'auto', label: 'Automatic' }, { value: 'width', label: 'Width' }]} />
      {typeof c.bins === 'number' && <InputNumber aria-label="Range width" min={0} value={c.bins} onChange={(v) => set({ bins: v ?? undefined })} />}
    </Flex>
  ), 'Groups a number field into ranges ("10–20"), drawn in order with empty ranges, like a histogram.');
  const thresholds = (c.thresholds as { value: number; color: string }[] | undefined) ?? [];
  const type = widget.type as WidgetType;

  return (
    <Drawer open title={`Edit ${widget.name || widget.id}`} onClose={onClose} size="min(736px, 100vw)" data-testid="widget-editor" extra={<Button type="primary" onClick={onClose}>Done</Button>}>
      <Form layout="vertical" requiredMark={false}>
        <Form.Item label="Title" validateStatus={problems.name ? 'error' : undefined} help={problems.name}>
          <Input aria-label="Title" value={widget.name} maxLength={200} onChange={(e) => onChange({ ...widget, name: e.target.value })} />
        </Form.Item>
        <Form.Item label="Type">
          <Select aria-label="Type" value={type} onChange={(t) => onChange({ ...widget, type: t, configuration: startConfiguration(t, timeField) })} options={Object.entries(TYPE_LABELS).map(([value, l]) => ({ value, label: l }))} />
        </Form.Item>
        <Form.Item label="Visible"><Switch aria-label="Visible" checked={widget.visible !== false} onChange={(v) => onChange({ ...widget, visible: v })} /></Form.Item>
        <Form.Item
          label="Dashboard filters"
          extra={widget.ignoreDashboardFilters ? 'Off: this widget counts every record, whatever the viewer picks in the filter bar.' : 'On: this widget counts the records the viewer keeps with the filter bar.'}
        >
          <Switch aria-label="Follows the dashboard filters" checkedChildren="On" unCheckedChildren="Off" checked={!widget.ignoreDashboardFilters} onChange={(v) => onChange({ ...widget, ignoreDashboardFilters: v ? undefined : true })} />
        </Form.Item>
        <Divider />
        {type === 'kpi' && (
          <>
            {onAlert && <Button icon={<BellOutlined />} onClick={() => onAlert(widget)} style={{ marginBottom: 16 }}>Alert on this number</Button>}
            {metric(true)}
            <Flex gap={12}>
              {item('unit', 'Unit', <Input aria-label="Unit" placeholder="e.g. $ or h" value={(c.unit as string) ?? ''} maxLength={20} onChange={(e) => set({ unit: e.target.value })} />)}
              {item('unitPosition', 'Unit position', <Segmented value={unitBefore({ unit: String(c.unit ?? ''), unitPosition: c.unitPosition as 'prefix' | 'suffix' | undefined }) ? 'prefix' : 'suffix'} onChange={(v) => set({ unitPosition: v })} options={[{ value: 'prefix', label: 'Before' }, { value: 'suffix', label: 'After' }]} />)}
              {item('decimals', 'Decimals', <InputNumber aria-label="Decimals" value={(c.decimals as number) ?? 0} onChange={(v) => set({ decimals: v ?? 0 })} />)}
            </Flex>
            {timeSettings()}
            <Flex gap={24} wrap>
              {item('compare', 'Compare', <Switch aria-label="Compare" checked={Boolean(c.compare)} onChange={(v) => set({ compare: v })} />, comparisonWords(range, c.bucket as string | undefined, Boolean(c.sparkline)))}
              {item('sparkline', 'Sparkline', <Switch aria-label="Sparkline" checked={Boolean(c.sparkline)} onChange={(v) => set({ sparkline: v })} />)}
            </Flex>
            {Boolean(c.compare) &&
              item('better', 'Good news is', <Segmented aria-label="Good news is" value={(c.better as string) ?? 'higher'} onChange={(v) => set({ better: v })} options={[{ value: 'higher', label: 'Higher is better' }, { value: 'lower', label: 'Lower is better' }]} />)}
            {Boolean(c.sparkline) && bucket()}
            <Typography.Text strong>Threshold colours</Typography.Text>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>The number takes the colour of the highest threshold it reaches.</Typography.Paragraph>
            {thresholds.map((t, i) => (
              <Flex key={i} gap={8} style={{ marginBottom: 8 }}>
                <InputNumber aria-label={`Threshold ${i + 1} value`} value={t.value} onChange={(v) => set({ thresholds: thresholds.map((x, j) => (j === i ? { ...x, value: v ?? 0 } : x)) })} />
                <Select aria-label={`Threshold ${i + 1} colour`} style={{ width: 140 }} value={t.color} onChange={(v) => set({ thresholds: thresholds.map((x, j) => (j === i ? { ...x, color: v } : x)) })} options={THRESHOLD_COLORS.map((v) => ({ value: v, label: v }))} />
                <Button aria-label={`Remove threshold ${i + 1}`} icon={<DeleteOutlined />} onClick={() => set({ thresholds: thresholds.filter((_, j) => j !== i) })} />
              </Flex>
            ))}
            {thresholds.length < 6 && <Button icon={<PlusOutlined />} onClick={() => set({ thresholds: [...thresholds, { value: 0, color: 'green' }] })}>Add threshold</Button>}
          </>
        )}
        {(type === 'bar' || type === 'donut') && (
          <>
            {fieldSelect('groupField', 'Group by')}
            {metric(false)}
            {item('topN', type === 'bar' ? 'Bars shown (the rest is "Other")' : 'Slices shown (the rest is "Other")', <InputNumber aria-label="Groups shown" value={(c.topN as number) ?? (type === 'bar' ? 8 : 6)} onChange={(v) => set({ topN: v ?? undefined })} />, type === 'bar' ? '1 to 50' : '1 to 20')}
            {item('order', 'Order', <Segmented aria-label="Order" value={(c.order as string) ?? 'value'} onChange={(v) => set({ order: v })} options={[{ value: 'value', label: 'Largest first' }, { value: 'label', label: 'By label (A–Z)' }]} />, '"Other" comes last either way.')}
            {type === 'bar' && numberRanges('Off')}
            {type === 'bar' && c.bins === undefined && split(true)}
            {timeSettings()}
            {type === 'bar' && item('horizontal', 'Horizontal bars', <Switch aria-label="Horizontal bars" checked={Boolean(c.horizontal)} onChange={(v) => set({ horizontal: v })} />, 'Long labels read best across. Upright bars turn their labels when they are many; a label shortened with "…" shows in full on hover.')}
          </>
        )}
        {type === 'line' && (
          <>
            {item(c.xField ? 'xField' : 'dateField', 'Horizontal axis', (
              <FieldSelect
                aria-label="Horizontal axis" allowClear placeholder="Select a date or number field" value={((c.xField ?? c.dateField) as string) || undefined} fields={fields} typing={typing} label={label}
                // A number field (not whole years) is drawn on a number axis; a date, a Year column or an epoch over time.
                onChange={(v) => set(v && isNumberAxisField(feed.get().records.values(), v, typing) ? { xField: v, dateField: undefined } : { dateField: v ?? undefined, xField: undefined, bins: undefined })}
              />
            ), c.xField ? 'A number field: a continuous number axis, one point per value (or per range).' : 'A date field: over time, by bucket. A number field draws a number axis.')}
            {c.xField ? (
              <>
                {numberRanges('Each value')}
                {item('range', 'Time range', <RangePicker value={range} onChange={(r) => set({ range: r })} />, timeField ? `Only records whose ${label(timeField)} lies in the range count.` : undefined)}
              </>
            ) : (
              <>
                {item('range', 'Time range', <RangePicker value={range} onChange={(r) => set({ range: r })} />)}
                {bucket()}
              </>
            )}
            {metric(false)}
            {split(false)}
            {item('emptyAs', 'Empty buckets', <Segmented aria-label="Empty buckets" value={(c.emptyAs as string) ?? (c.metric === 'count' || c.metric === 'sum' || !c.metric ? 'zero' : 'gap')} onChange={(v) => set({ emptyAs: v })} options={[{ value: 'gap', label: 'A gap' }, { value: 'zero', label: 'Zero' }]} />, 'By default a count or sum draws 0, the other values a gap.')}
            <Flex gap={24} wrap>
              {item('area', 'Fill the area', <Switch aria-label="Fill the area" checked={Boolean(c.area)} onChange={(v) => set({ area: v })} />)}
              {item('startAtZero', 'Vertical axis from 0', <Switch aria-label="Vertical axis from 0" checked={Boolean(c.startAtZero)} onChange={(v) => set({ startAtZero: v })} />, c.startAtZero ? 'From 0, whatever the values.' : 'Off: it fits the values, so their changes show.')}
            </Flex>
          </>
        )}
        {type === 'gauge' && (
          <>
            {metric(false)}
            <Flex gap={12} wrap>
              {item('goal', 'Goal', <InputNumber aria-label="Goal" value={c.goal as number | undefined} onChange={(v) => set({ goal: v ?? undefined })} />)}
              {item('min', 'Start', <InputNumber aria-label="Start" value={(c.min as number) ?? 0} onChange={(v) => set({ min: v ?? 0 })} />, 'The empty gauge; 0 by default')}
              {item('style', 'Shown as', <Segmented aria-label="Shown as" value={(c.style as string) ?? 'gauge'} onChange={(v) => set({ style: v })} options={[{ value: 'gauge', label: 'Gauge' }, { value: 'bar', label: 'Progress bar' }]} />)}
            </Flex>
            <Flex gap={12}>
              {item('unit', 'Unit', <Input aria-label="Unit" placeholder="e.g. $ or h" value={(c.unit as string) ?? ''} maxLength={20} onChange={(e) => set({ unit: e.target.value })} />)}
              {item('decimals', 'Decimals', <InputNumber aria-label="Decimals" value={(c.decimals as number) ?? 0} onChange={(v) => set({ decimals: v ?? 0 })} />)}
            </Flex>
            {timeSettings()}
          </>
        )}
        {type === 'scatter' && (
          <>
            {fieldSelect('xField', 'Horizontal axis (x)', 'Select a numeric field', true)}
            {fieldSelect('yField', 'Vertical axis (y)', 'Select a numeric field', true)}
            {fieldSelect('splitField', 'Split by (optional)', 'One series')}
            {fieldSelect('sizeField', 'Point size (optional)', 'All points one size', true)}
            <Typography.Paragraph type="secondary">One point per record, the newest {MAX_SCATTER_POINTS.toLocaleString('en-US')} at most.</Typography.Paragraph>
          </>
        )}
        {(type === 'table' || type === 'bucket') && (
          <RecordsWidgetFields type={type} configuration={c as TabConfiguration} fields={fields} typing={typing} label={label} problems={problems} onChange={(next) => onChange({ ...widget, configuration: next })} />
        )}
        {isChartWidgetType(type) && (
          <>
            <Divider />
            <WidgetFilters filters={(c.filters as Filter[] | undefined) ?? []} fields={fields} typing={typing} label={label} problems={problems} onChange={(filters) => set({ filters })} />
          </>
        )}
      </Form>
    </Drawer>
  );
}
