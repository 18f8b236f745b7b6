import { DatePicker, Flex, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { BUCKET_CHOICES } from '@common/schemas/widgets/widget';
import { autoBucket, BUCKET_LABELS, RANGE_PRESETS, rangeLabel, rangeSpanMs, type TimeBucket, type TimeRange } from '@common/time/timeRanges';
import { recordTimeReader } from '@common/time/recordTime';
import { useWidgetEnv } from '../../public/viewer/widgets/widgetContext';

const FIXED = 'fixed';
const keyOf = (r: TimeRange) => (r.kind === 'fixed' ? FIXED : JSON.stringify(r));

/**
 * A widget's range: all time, a relative or calendar preset, or fixed dates (from the first day to
 * the last, both included: stored with `to` at the next midnight, exclusive).
 */
export function RangePicker({ value, onChange }: { value: TimeRange | undefined; onChange(r: TimeRange): void }) {
  const range = value ?? { kind: 'all' };
  const options = [...RANGE_PRESETS.map((p) => ({ value: keyOf(p.range), label: p.label })), { value: FIXED, label: 'Fixed dates…' }];
  const pick = (key: string) => {
    if (key !== FIXED) return onChange(JSON.parse(key) as TimeRange);
    const to = dayjs().startOf('day').add(1, 'day');
    onChange({ kind: 'fixed', from: to.subtract(30, 'day').toISOString(), to: to.toISOString() });
  };
  const days: [Dayjs, Dayjs] | null = range.kind === 'fixed' ? [dayjs(range.from), dayjs(range.to).subtract(1, 'day')] : null;
  return (
    <Flex gap={8} wrap>
      <Select aria-label="Time range" style={{ minWidth: 180 }} value={keyOf(range)} onChange={pick} options={options} />
      {days && (
        <DatePicker.RangePicker
          aria-label="Fixed dates"
          value={days}
          allowClear={false}
          onChange={(v) => v?.[0] && v[1] && onChange({ kind: 'fixed', from: v[0].startOf('day').toISOString(), to: v[1].startOf('day').add(1, 'day').toISOString() })}
        />
      )}
    </Flex>
  );
}

/** The automatic bucket for a range: by its span; for all time, by the span of the preview records' dates. */
function useAutoBucket(range: TimeRange, dateField: string | undefined): TimeBucket | null {
  const { feed, typing, timeField } = useWidgetEnv();
  const span = rangeSpanMs(range);
  if (span !== null) return autoBucket(span);
  const field = dateField || timeField;
  if (!field) return null;
  const timeOf = recordTimeReader(field, typing.dateOrder);
  let min = Infinity;
  let max = -Infinity;
  for (const r of feed.get().records.values()) {
    const t = timeOf(r.data, NaN);
    if (Number.isNaN(t)) continue;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  return min <= max ? autoBucket(max - min) : null;
}

/** The bucket of a chart over time: automatic (saying which it picked) or chosen. */
export function BucketPicker({ value, range, dateField, onChange }: { value: string | undefined; range: TimeRange | undefined; dateField?: string; onChange(b: string): void }) {
  const auto = useAutoBucket(range ?? { kind: 'all' }, dateField);
  const autoText = auto ? `Automatic (by ${auto} for ${rangeLabel(range ?? { kind: 'all' }).toLowerCase()})` : 'Automatic';
  return (
    <Select
      aria-label="Bucket"
      data-testid="bucket-select"
      style={{ minWidth: 260 }}
      value={value ?? 'auto'}
      onChange={onChange}
      options={BUCKET_CHOICES.map((b) => ({ value: b, label: b === 'auto' ? autoText : `By ${BUCKET_LABELS[b].toLowerCase()}` }))}
    />
  );
}
