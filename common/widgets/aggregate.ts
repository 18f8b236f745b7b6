import { fieldReader, isEmptyValue } from '../cells';
import type { DateOrder } from '../schemas/dataSource';
import { epochMillis, parseTime } from '../types/dates';
import type { FieldTyping } from '../types/fieldTyping';
import type { BucketChoice, ChartConfigs, GroupOrder, Metric, WidgetFilter } from '../schemas/widget';
import { ALL_TIME, autoBucket, bucketStart, bucketsIn, isSliding, MAX_CHART_POINTS, previousWindow, rangeSpanMs, resolveRange, shiftBucket, TIME_BUCKETS, type TimeBucket, type TimeRange } from '../timeRanges';
import { compileFilter, toNumber } from './filters';
import { STACK_SEPARATOR, stackGroups, topGroups, type GroupRow, type StackedGroups } from './groups';

type Data = Record<string, unknown>;

/** The title of the group of records whose field is empty (as the bucket board says). */
export const EMPTY_GROUP = 'Unassigned';

const MINUTE = 60_000;

/** A field's value as the title of its group ("Unassigned" when empty). */
const groupName = (raw: unknown): string => (isEmptyValue(raw) ? EMPTY_GROUP : typeof raw === 'object' ? JSON.stringify(raw) : String(raw));

/** What one widget adds up, whatever its type. */
export interface AggregateSpec {
  /** Group records by this field's value; none for a KPI or a line chart. */
  groupField?: string;
  /** Bars split by this field's value too (a stacked bar chart). */
  stackField?: string;
  metric: Metric;
  valueField?: string;
  filter?: WidgetFilter;
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
type TimeConfig = { dateField?: string; range?: TimeRange; bucket?: BucketChoice; compare?: boolean; sparkline?: boolean; metric: Metric };

/** Whether a widget reads time at all: a line chart, a range, a comparison, a sparkline, the latest value or a rate. */
export function readsTime(type: keyof ChartConfigs, c: TimeConfig): boolean {
  return type === 'line' || (c.range ?? ALL_TIME).kind !== 'all' || Boolean(c.compare || c.sparkline) || ['latest', 'perMinute', 'perHour'].includes(c.metric);
}

/** The widget's numbers as the Aggregator computes them; `timeField` is the source's time field (the default date field). */
export function aggregateSpec<T extends keyof ChartConfigs>(type: T, c: ChartConfigs[T], typing?: FieldTyping, timeField?: string | null): AggregateSpec {
  const base: AggregateSpec = { metric: c.metric, valueField: c.valueField, filter: c.filter, ...(typing ? { typing } : {}) };
  const time = c as TimeConfig;
  const dateField = time.dateField || timeField || undefined;
  if (readsTime(type, time) && dateField) {
    Object.assign(base, { dateField, range: time.range ?? ALL_TIME });
    if (type === 'line' || time.sparkline) base.bucket = time.bucket ?? 'auto';
    if (type === 'line') base.wholeBuckets = true;
    if (time.compare) base.compare = true;
  }
  if ('stackField' in c && c.stackField) return { ...base, groupField: c.groupField, stackField: c.stackField };
  if ('groupField' in c) return { ...base, groupField: c.groupField };
  return base;
}

/** Totals of the records of one group in one time slot. */
export interface GroupTotal {
  /** Records in the group. */
  count: number;
  /** Records with a number in the value field, their sum, minimum and maximum. */
  numbers: number;
  sum: number;
  min: number;
  max: number;
  /** The value field of the record with the latest date, and that date (latest value). */
  latestT: number;
  latest: unknown;
  /** Distinct values of the value field, as text, with how many records hold each (distinct count). */
  distinct: Map<string, number> | null;
  /** A record holding the minimum, maximum or latest went away: recomputed from `all()` when asked. */
  stale: boolean;
}

const newTotal = (distinct: boolean): GroupTotal => ({ count: 0, numbers: 0, sum: 0, min: Infinity, max: -Infinity, latestT: -Infinity, latest: undefined, distinct: distinct ? new Map() : null, stale: false });

/**
 * A group: the field's value as text ('' for a KPI or a line chart). Records are also placed in a
 * time slot: the start of their slot bucket in minutes since 1970 (0 when time plays no part).
 */
type GroupKey = string;
type Slot = Map<GroupKey, GroupTotal>;

/** A record as the aggregator reads it (the viewer's RecordDto is one). */
export interface DataHolder {
  data: Data;
}

/** A window of slots [from, to), in minutes since 1970. */
interface SlotWindow {
  from: number;
  to: number;
}

const FINE_BUCKETS = ['minute', 'hour', 'day'] as const;
/** A sliding range keeps at most about this many slots (minutes up to 24 hours, hours up to 30 days, days beyond). */
const MAX_SLOTS = 1500;
const smaller = (a: TimeBucket, b: TimeBucket | null): TimeBucket => (b !== null && TIME_BUCKETS.indexOf(b) < TIME_BUCKETS.indexOf(a) ? b : a);

/**
 * The bucket drawn, when it is known before counting: the chosen one, or the automatic one for the
 * range's span (all time's automatic bucket depends on the records: null).
 */
function staticBucket(spec: AggregateSpec): TimeBucket | null {
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

/**
 * Totals of one widget kept up to date record by record: a change takes the record's old part out
 * of its group and puts the new one in, so a pushed change costs O(1) instead of a pass over every
 * record. Nothing is stored per record (the caller knows the record before and after a change), so
 * a full recount is one pass that allocates nothing per record and only touches the few group
 * totals. Minimum, maximum and latest are recomputed from `all()` (once, lazily) only when a record
 * holding them changes.
 *
 * With a date field, totals are kept per time slot (slotBucket): a range counts the slots inside
 * it, so a sliding range moves by dropping the slots that left it (`advance(now)` at each slot
 * boundary) with no pass over the records. A relative range covers as many slots as it is long, the
 * current one last (a line chart: as many buckets drawn); a calendar one its whole periods; a fixed
 * one [from, to) exactly.
 */
export class Aggregator {
  private slots = new Map<number, Slot>();
  private records = 0;
  private readonly passes: (data: Data) => boolean;
  private readonly groupOf: ((data: Data) => unknown) | null;
  private readonly stackOf: ((data: Data) => unknown) | null;
  private readonly valueOf: ((data: Data) => unknown) | null;
  private readonly timeOf: ((data: Data) => unknown) | null;
  private readonly dateOrder: DateOrder;
  private readonly range: TimeRange;
  /** The slot bucket, and the bucket drawn when known before counting. */
  readonly slot: TimeBucket;
  private readonly drawn: TimeBucket | null;
  /** Records outside [keepFrom, keepTo) (epoch ms) are not kept: before the range (and the previous period), after a fixed range. */
  private keepFrom = -Infinity;
  private keepTo = Infinity;
  private current: SlotWindow = { from: -Infinity, to: Infinity };
  private before: SlotWindow | null = null;
  /** The moment the window was computed for. */
  now: number;
  /** Slot starts by quarter hour: every time zone's hours and days begin on one, so records share the Date work. */
  private readonly starts = new Map<number, number>();
  /** The last quarter hour looked up, and its slot start: records usually come in date order. */
  private lastQuarter = NaN;
  private lastStart = NaN;
  /** The slot drawn for a slot (a day's month), cached. */
  private readonly rollups = new Map<number, number>();

  /** `all` lists the current records, for the rare min / max / latest recomputation. */
  constructor(readonly spec: AggregateSpec, private readonly all: () => Iterable<DataHolder> = () => [], now = Date.now()) {
    this.passes = compileFilter(spec.filter, spec.typing);
    this.dateOrder = spec.typing?.dateOrder ?? 'mdy';
    this.groupOf = spec.groupField ? fieldReader(spec.groupField) : null;
    this.stackOf = spec.stackField && spec.groupField ? fieldReader(spec.stackField) : null;
    this.valueOf = spec.metric !== 'count' && spec.valueField ? fieldReader(spec.valueField) : null;
    this.timeOf = spec.dateField ? fieldReader(spec.dateField) : null;
    this.range = spec.range ?? ALL_TIME;
    this.slot = slotBucket(spec);
    this.drawn = staticBucket(spec);
    this.now = now;
    this.window(now);
  }

  /** Records kept (passing the filter, with a date in the range or the previous period when time plays a part). */
  get size(): number {
    return this.records;
  }

  /** Counts every record again (the viewer store's records: `map.values()`). */
  reset(records: Iterable<DataHolder>): void {
    this.slots.clear();
    this.records = 0;
    for (const r of records) this.add(r.data);
  }

  /** One record changed: `before` is what it held (undefined: new), `after` what it holds now (undefined: removed). */
  update(before: Data | undefined, after: Data | undefined): void {
    if (before) this.take(before);
    if (after) this.add(after);
  }

  /** Whether the range moves by itself as time passes (relative and calendar ranges of a widget reading time). */
  get sliding(): boolean {
    return this.timeOf !== null && isSliding(this.range);
  }

  /** When the window next moves (the next slot boundary), or null when it never does. */
  nextChange(): number | null {
    return this.sliding ? shiftBucket(bucketStart(this.now, this.slot), this.slot, 1) : null;
  }

  /**
   * Moves a sliding range to `now`: the slots that left it (and its previous period) are dropped.
   * Costs the number of slots kept, never a pass over the records. Returns whether the window moved.
   */
  advance(now: number): boolean {
    this.now = now;
    if (!this.sliding) return false;
    const was = this.current;
    this.window(now);
    const keep = Math.floor(this.keepFrom / MINUTE);
    for (const [slot, groups] of this.slots) {
      if (slot >= keep) continue;
      for (const g of groups.values()) this.records -= g.count;
      this.slots.delete(slot);
    }
    return was.from !== this.current.from || was.to !== this.current.to;
  }

  /** The slot windows of the range and of the period before it, at `now`. */
  private window(now: number): void {
    if (!this.timeOf || this.range.kind === 'all') return;
    const slot = this.slot;
    const key = (t: number) => Math.floor(bucketStart(t, slot) / MINUTE);
    const w = resolveRange(this.range, now);
    if (this.range.kind === 'fixed') {
      const prev = this.spec.compare ? previousWindow(this.range, now) : null;
      this.keepFrom = prev?.from ?? w.from!;
      this.keepTo = w.to!;
      this.current = { from: prev ? key(w.from!) : -Infinity, to: Infinity };
      this.before = prev ? { from: -Infinity, to: this.current.from } : null;
      return;
    }
    if (this.range.kind === 'relative') {
      // The last n units, the current one included (records dated later wait in theirs), and the n before.
      const unit = (this.spec.wholeBuckets && this.drawn) || slot;
      const n = bucketsIn(rangeSpanMs(this.range)!, unit);
      const current = bucketStart(now, unit);
      const from = shiftBucket(current, unit, 1 - n);
      this.current = { from: key(from), to: key(shiftBucket(current, unit, 1)) };
      this.before = this.spec.compare ? { from: key(shiftBucket(from, unit, -n)), to: key(from) } : null;
    } else {
      // Calendar: the whole period, and the one before.
      const prev = this.spec.compare ? previousWindow(this.range, now) : null;
      this.current = { from: key(w.from!), to: key(w.to!) };
      this.before = prev ? { from: key(prev.from!), to: this.current.from } : null;
    }
    this.keepFrom = (this.before?.from ?? this.current.from) * MINUTE;
  }

  /** The record's time (epoch ms), NaN without one. */
  private timeOfRecord(data: Data): number {
    const raw = this.timeOf!(data);
    // The one date reader; numbers are epoch seconds or milliseconds (common/types/dates).
    return typeof raw === 'string' ? parseTime(raw, this.dateOrder) : typeof raw === 'number' ? epochMillis(raw) : raw instanceof Date ? raw.getTime() : NaN;
  }

  /** The record's slot and time; null when it has no date or lies outside what is kept. */
  private slotOf(data: Data): number | null {
    if (!this.timeOf) return 0;
    const t = this.timeOfRecord(data);
    if (!Number.isFinite(t) || t < this.keepFrom || t >= this.keepTo) return null;
    return this.startOf(t);
  }

  private add(data: Data): void {
    if (!this.passes(data)) return;
    const slot = this.slotOf(data);
    if (slot === null) return;
    const key = this.keyOf(data);
    let groups = this.slots.get(slot);
    if (!groups) this.slots.set(slot, (groups = new Map()));
    let g = groups.get(key);
    if (!g) groups.set(key, (g = newTotal(this.spec.metric === 'distinct')));
    this.records += 1;
    g.count += 1;
    this.fold(g, data);
  }

  /** Adds a record's value to a total: its distinct value, its latest, its number. */
  private fold(g: GroupTotal, data: Data): void {
    if (!this.valueOf) return;
    const raw = this.valueOf(data);
    if (g.distinct) {
      if (!isEmptyValue(raw)) {
        const text = groupName(raw);
        g.distinct.set(text, (g.distinct.get(text) ?? 0) + 1);
      }
      return;
    }
    if (this.spec.metric === 'latest') {
      const t = this.timeOf ? this.timeOfRecord(data) : 0;
      if (!isEmptyValue(raw) && t >= g.latestT) {
        g.latestT = t;
        g.latest = raw;
      }
      return;
    }
    const value = toNumber(raw);
    if (value === null) return;
    g.numbers += 1;
    g.sum += value;
    if (value < g.min) g.min = value;
    if (value > g.max) g.max = value;
  }

  private take(data: Data): void {
    if (!this.passes(data)) return;
    const slot = this.slotOf(data);
    const groups = slot === null ? undefined : this.slots.get(slot);
    const key = groups ? this.keyOf(data) : '';
    const g = groups?.get(key);
    if (!groups || !g) return;
    this.records -= 1;
    g.count -= 1;
    if (g.count === 0) {
      groups.delete(key);
      if (groups.size === 0) this.slots.delete(slot!);
      return;
    }
    if (!this.valueOf) return;
    const raw = this.valueOf(data);
    if (g.distinct) {
      const text = groupName(raw);
      const n = (g.distinct.get(text) ?? 0) - 1;
      if (n > 0) g.distinct.set(text, n);
      else g.distinct.delete(text);
      return;
    }
    if (this.spec.metric === 'latest') {
      if (!isEmptyValue(raw) && (this.timeOf ? this.timeOfRecord(data) : 0) >= g.latestT) g.stale = true;
      return;
    }
    const value = toNumber(raw);
    if (value === null) return;
    g.numbers -= 1;
    g.sum -= value;
    if (value <= g.min || value >= g.max) g.stale = true;
  }

  /** The groups of the slots in a window. */
  private *groupsIn(w: SlotWindow): Iterable<[GroupKey, GroupTotal, number]> {
    for (const [slot, groups] of this.slots) {
      if (slot < w.from || slot >= w.to) continue;
      for (const [key, g] of groups) yield [key, g, slot];
    }
  }

  /** The KPI over the range: see Metric (null with no numbers or values). */
  value(): number | null {
    return this.metricOver([...this.groupsIn(this.current)].map((x) => x[1]), this.minutesOf(this.current));
  }

  /** The KPI over the period before the range; null when there is none (all time) or no comparison is kept. */
  previous(): number | null {
    return this.before ? this.metricOver([...this.groupsIn(this.before)].map((x) => x[1]), this.minutesOf(this.before)) : null;
  }

  /** Minutes a window covers, for a rate: the range so far (all time: the records' span). */
  private minutesOf(w: SlotWindow): number {
    const w2 = this.range.kind === 'fixed' ? resolveRange(this.range, this.now) : null;
    let from = w2 && w === this.current ? w2.from! : w.from * MINUTE;
    let to = w2 && w === this.current ? w2.to! : Math.min(w.to * MINUTE, w === this.current ? this.now : Infinity);
    if (!Number.isFinite(from) || !Number.isFinite(to)) {
      const keys = [...this.slots.keys()];
      if (!keys.length) return 0;
      if (!Number.isFinite(from)) from = Math.min(...keys) * MINUTE;
      if (!Number.isFinite(to)) to = shiftBucket(Math.max(...keys) * MINUTE, this.slot, 1);
    }
    return Math.max(0, to - from) / MINUTE;
  }

  /** A metric over some groups' totals. */
  private metricOver(groups: GroupTotal[], minutes: number): number | null {
    const m = this.spec.metric;
    if (m === 'min' || m === 'max' || m === 'latest') this.freshen(groups);
    let count = 0, numbers = 0, sum = 0, min = Infinity, max = -Infinity, latestT = -Infinity;
    let latest: unknown;
    for (const g of groups) {
      count += g.count;
      numbers += g.numbers;
      sum += g.sum;
      if (g.min < min) min = g.min;
      if (g.max > max) max = g.max;
      if (g.latestT >= latestT && g.latest !== undefined) {
        latestT = g.latestT;
        latest = g.latest;
      }
    }
    switch (m) {
      case 'count': return count;
      case 'sum': return sum;
      case 'avg': return numbers ? sum / numbers : null;
      case 'min': return numbers ? min : null;
      case 'max': return numbers ? max : null;
      case 'distinct': {
        if (groups.length === 1) return groups[0].distinct?.size ?? 0;
        const seen = new Set<string>();
        for (const g of groups) for (const k of g.distinct?.keys() ?? []) seen.add(k);
        return seen.size;
      }
      case 'latest': return latest === undefined ? null : toNumber(latest);
      case 'perMinute': return minutes > 0 ? count / minutes : null;
      case 'perHour': return minutes > 0 ? (count / minutes) * 60 : null;
    }
  }

  /** Recomputes the minimum, maximum and latest of groups whose record holding them went away: one pass over `all()`. */
  private freshen(groups: GroupTotal[]): void {
    if (!groups.some((g) => g.stale)) return;
    const stale = new Set<GroupTotal>();
    for (const groupsOf of this.slots.values()) for (const g of groupsOf.values()) if (g.stale) stale.add(g);
    for (const g of stale) Object.assign(g, { numbers: 0, sum: 0, min: Infinity, max: -Infinity, latestT: -Infinity, latest: undefined, stale: false });
    for (const { data } of this.all()) {
      if (!this.passes(data)) continue;
      const slot = this.slotOf(data);
      const g = slot === null ? undefined : this.slots.get(slot)?.get(this.keyOf(data));
      if (g && stale.has(g)) this.fold(g, data);
    }
  }

  /** Totals by group over the range, for bars and donuts. */
  private rows(): GroupRow[] {
    const byKey = new Map<GroupKey, GroupTotal[]>();
    for (const [key, g] of this.groupsIn(this.current)) {
      const list = byKey.get(key);
      if (list) list.push(g);
      else byKey.set(key, [g]);
    }
    const minutes = this.minutesOf(this.current);
    return [...byKey].map(([key, gs]) => ({ key, value: this.metricOver(gs, minutes) ?? 0 }));
  }

  /** The largest `topN` groups in the chosen order (by value: largest first), the rest added up as "Other" (common/widgets/groups.ts). */
  top(topN?: number, order: GroupOrder = 'value'): GroupRow[] {
    return topGroups(this.rows(), topN, order);
  }

  /** With a stack field: the top groups, each split by the stack field's values. */
  stacked(topN?: number, order: GroupOrder = 'value'): StackedGroups {
    return stackGroups(this.rows(), topN, order);
  }

  /** The bucket drawn: the chosen one, else the automatic one for the range (all time: for the records' span). */
  drawnBucket(): TimeBucket {
    if (this.drawn) return this.drawn;
    const keys = [...this.slots.keys()];
    if (!keys.length) return this.slot;
    return autoBucket(shiftBucket(Math.max(...keys) * MINUTE, this.slot, 1) - Math.min(...keys) * MINUTE);
  }

  /**
   * The metric per bucket drawn over the range, empty buckets as 0 (line charts, sparklines): from
   * the bucket holding the range's start to the one holding its end (all time: the records' first
   * and last). More than MAX_CHART_POINTS buckets (all time, a chosen bucket) keep the latest;
   * `buckets` says how many there were.
   */
  series(): { rows: { start: number; value: number }[]; bucket: TimeBucket; buckets: number } {
    const bucket = this.drawnBucket();
    const byStart = new Map<number, GroupTotal[]>();
    for (const [, g, slot] of this.groupsIn(this.current)) {
      const start = this.rollup(slot, bucket);
      const list = byStart.get(start);
      if (list) list.push(g);
      else byStart.set(start, [g]);
    }
    let first: number;
    let last: number;
    const w = resolveRange(this.range, this.now);
    if (this.range.kind === 'all') {
      if (!byStart.size) return { rows: [], bucket, buckets: 0 };
      first = Math.min(...byStart.keys());
      last = Math.max(...byStart.keys());
    } else {
      first = bucketStart(this.range.kind === 'fixed' ? w.from! : this.current.from * MINUTE, bucket);
      last = bucketStart(this.range.kind === 'relative' ? this.now : w.to! - 1, bucket);
    }
    const starts: number[] = [];
    for (let s = last; s >= first && starts.length < MAX_CHART_POINTS; s = shiftBucket(s, bucket, -1)) starts.push(s);
    const buckets = starts.length < MAX_CHART_POINTS ? starts.length : Math.max(MAX_CHART_POINTS, bucketsIn(last - first, bucket) + 1);
    const minutes = (s: number) => (shiftBucket(s, bucket, 1) - s) / MINUTE;
    const rows = starts.reverse().map((start) => {
      const gs = byStart.get(start);
      return { start, value: gs ? (this.metricOver(gs, minutes(start)) ?? 0) : 0 };
    });
    return { rows, bucket, buckets };
  }

  /** The start (epoch ms) of the drawn bucket holding a slot. */
  private rollup(slot: number, bucket: TimeBucket): number {
    if (bucket === this.slot) return slot * MINUTE;
    const key = slot * 8 + TIME_BUCKETS.indexOf(bucket);
    let start = this.rollups.get(key);
    if (start === undefined) this.rollups.set(key, (start = bucketStart(slot * MINUTE, bucket)));
    return start;
  }

  /** The record's group ('' for a KPI or a line chart). */
  private keyOf(data: Data): GroupKey {
    if (!this.groupOf) return '';
    const group = groupName(this.groupOf(data));
    return this.stackOf ? `${group}${STACK_SEPARATOR}${groupName(this.stackOf(data))}` : group;
  }

  /** The start of the record's slot, in minutes since 1970. */
  private startOf(t: number): number {
    if (this.slot === 'minute') return Math.floor(t / MINUTE);
    const quarter = Math.floor(t / 900_000);
    if (quarter === this.lastQuarter) return this.lastStart;
    let start = this.starts.get(quarter);
    if (start === undefined) this.starts.set(quarter, (start = bucketStart(t, this.slot) / MINUTE));
    this.lastQuarter = quarter;
    this.lastStart = start;
    return start;
  }
}
