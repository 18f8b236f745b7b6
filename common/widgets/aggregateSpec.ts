import { isYear } from '../types/dates';
import type { FieldTyping } from '../types/fieldTyping';
import { type BucketChoice, type ChartConfigs, type Metric, type WidgetFilter } from '../schemas/widgets/widget';
import { ALL_TIME, autoBucket, bucketsIn, rangeSpanMs, TIME_BUCKETS, type TimeBucket, type TimeRange } from '../time/timeRanges';
import { type GroupTotal } from './charts/groupTotal';

/** What a widget adds up (its spec, read from its configuration) and the small pieces the Aggregator shares with it. */

export type Data = Record<string, unknown>;

export const MINUTE = 60_000;

/** What one widget adds up, whatever its type. */
export interface AggregateSpec {
  /** Group records by this field's value; none for a KPI or a line chart. */
  groupField?: string;
  /** The group field read as a number, grouped into ranges this wide (the group: the range's start). */
  binWidth?: number;
  /** The group field read as a number, one group per value (a line over a number axis). */
  numberGroups?: boolean;
  /** Records split by this field's value too: one series per value (a split line, split bars). */
  splitField?: string;
  metric: Metric;
  valueField?: string;
  /** A record counts when it matches all of them. */
  filters?: WidgetFilter[];
  /** An empty time bucket: a gap (null) or 0; by default 0 for a count or sum, a gap for the others. */
  emptyAs?: 'gap' | 'zero';
  /** The source's types (filters on date-time fields) and its day/month order (dates of a chart over time). */
  typing?: FieldTyping;
  /** Where records are placed in time (a line chart's dates; the source's time field by default). Without it, time plays no part. */
  dateField?: string;
  /** Only records whose date lies in the range count (default: all time). */
  range?: TimeRange;
  /** The bucket drawn by `series()` (a line chart, a KPI's sparkline). */
  bucket?: BucketChoice;
  /** Keep the window before the range too, for `previous()`. */
  compare?: boolean;
  /** A line chart: a relative range is whole buckets drawn, the current one last ("Last 7 days" by day: today and the 6 before). */
  wholeBuckets?: boolean;
}

/** The time settings of a chart widget, and the date field it reads (its own, else the source's time field). */
export type TimeConfig = { dateField?: string; xField?: string; range?: TimeRange; bucket?: BucketChoice; compare?: boolean; sparkline?: boolean; metric: Metric };

/** Whether a line chart is drawn over a number field rather than over time. */
export const overNumbers = (type: keyof ChartConfigs, c: { xField?: string }): boolean => type === 'line' && Boolean(c.xField);

/** Whether a widget reads time at all: a line chart over time, a range, a comparison, a sparkline, the latest value or a rate. */
export function readsTime(type: keyof ChartConfigs, c: TimeConfig): boolean {
  return (type === 'line' && !overNumbers(type, c)) || (c.range ?? ALL_TIME).kind !== 'all' || Boolean(c.compare || c.sparkline) || ['latest', 'perMinute', 'perHour'].includes(c.metric);
}

/** The widget's numbers as the Aggregator computes them; `timeField` is the source's time field (the default date field). */
export function aggregateSpec<T extends Exclude<keyof ChartConfigs, 'scatter'>>(type: T, c: ChartConfigs[T], typing?: FieldTyping, timeField?: string | null): AggregateSpec {
  const base: AggregateSpec = { metric: c.metric, valueField: c.valueField, ...(c.filters.length ? { filters: c.filters } : {}), ...(typing ? { typing } : {}) };
  if ('splitField' in c && c.splitField) base.splitField = c.splitField;
  if ('emptyAs' in c && c.emptyAs) base.emptyAs = c.emptyAs;
  const time = c as TimeConfig;
  const dateField = time.dateField || timeField || undefined;
  const numbers = overNumbers(type, time);
  if (readsTime(type, time) && dateField) {
    Object.assign(base, { dateField, range: time.range ?? ALL_TIME });
    if ((type === 'line' && !numbers) || time.sparkline) base.bucket = time.bucket ?? 'auto';
    if (type === 'line' && !numbers) base.wholeBuckets = true;
    if (time.compare) base.compare = true;
  }
  if (numbers) return { ...base, groupField: time.xField, numberGroups: true };
  if ('groupField' in c) return { ...base, groupField: c.groupField };
  return base;
}

/**
 * A group: the field's value as text ('' for a KPI or a line chart). Records are also placed in a
 * time slot: the start of their slot bucket in minutes since 1970 (0 when time plays no part).
 */
export type GroupKey = string;
export type Slot = Map<GroupKey, GroupTotal>;

/** Whether a date field's value is a whole year (1900, "1900"). */
export const isYearValue = (raw: unknown): boolean => (typeof raw === 'number' ? isYear(raw) : typeof raw === 'string' && raw.length === 4 && isYear(Number(raw)));

/** A line chart's buckets and its series over them (null: a gap). */
export interface LineSeries {
  starts: number[];
  bucket: TimeBucket;
  buckets: number;
  series: { key: string; values: (number | null)[] }[];
  /** Split values not drawn on their own: combined as "Other" or left out (`omitted`). */
  leftSeries: number;
  omitted: boolean;
}

/** The last `lines()` of an aggregator: its arguments, its result, each split value's rank and each bucket's index. */
export interface LineCache {
  limit: number;
  otherSeries: 'combine' | 'omit';
  bucket: TimeBucket;
  result: LineSeries;
  ranks: Map<string, number | null>;
  startAt: Map<number, number>;
}

/** A record as the aggregator reads it (the viewer's RecordDto is one). */
export interface DataHolder {
  data: Data;
}

/** A window of slots [from, to), in minutes since 1970. */
export interface SlotWindow {
  from: number;
  to: number;
}

export const FINE_BUCKETS = ['minute', 'hour', 'day'] as const;
/** A sliding range keeps at most about this many slots (minutes up to 24 hours, hours up to 30 days, days beyond). */
export const MAX_SLOTS = 1500;
export const smaller = (a: TimeBucket, b: TimeBucket | null): TimeBucket => (b !== null && TIME_BUCKETS.indexOf(b) < TIME_BUCKETS.indexOf(a) ? b : a);

/**
 * The bucket drawn, when it is known before counting: the chosen one, or the automatic one for the
 * range's span (all time's automatic bucket depends on the records: null).
 */
export function staticBucket(spec: AggregateSpec): TimeBucket | null {
  if (!spec.bucket) return null;
  if (spec.bucket !== 'auto') return spec.bucket;
  const span = rangeSpanMs(spec.range ?? ALL_TIME);
  return span === null ? null : autoBucket(span);
}

/**
 * The slot bucket records are kept by: fine enough for a sliding range to move by (minutes, hours or
 * days, at most about 1,500 over the range) and never coarser than the bucket drawn, which it nests
 * into (a minute, hour or day lies inside any larger bucket). A fixed range or all time keeps the
 * bucket drawn; all time with an automatic bucket keeps minutes and adds them up when drawn.
 */
export function slotBucket(spec: AggregateSpec): TimeBucket {
  const range = spec.range ?? ALL_TIME;
  const drawn = staticBucket(spec);
  const span = rangeSpanMs(range);
  if (span === null) return drawn ?? 'minute';
  if (range.kind === 'fixed' && !spec.compare && drawn) return drawn;
  const fine = FINE_BUCKETS.find((b) => bucketsIn(span, b) <= MAX_SLOTS) ?? 'day';
  return smaller(fine, drawn);
}

/** A KPI's change against the previous period, for "▲ 12% vs the previous 24 hours". */
export interface Comparison {
  previous: number | null;
  /** The change in percent; null when the previous period has no value or is 0 ("—"). */
  percent: number | null;
}

export function comparison(current: number | null, previous: number | null): Comparison {
  if (current === null || previous === null || previous === 0) return { previous, percent: null };
  return { previous, percent: ((current - previous) / Math.abs(previous)) * 100 };
}
