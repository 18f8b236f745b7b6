import { fieldReader, isEmptyValue } from '../cells';
import type { DateOrder } from '../schemas/dataSource';
import { epochMillis, parseTime, timeOf } from '../types/dates';
import { fieldTypeOf, type FieldTyping } from '../types/fieldTyping';
import type { ChartConfigs, GroupOrder, Metric, TimeInterval, WidgetFilter } from '../schemas/widget';
import { STACK_SEPARATOR, stackGroups, topGroups, type GroupRow, type StackedGroups } from './groups';

type Data = Record<string, unknown>;

/** The title of the group of records whose field is empty (as the bucket board says). */
export const EMPTY_GROUP = 'Unassigned';

/** A number from a number or a numeric string; anything else is not a number. */
export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A field's value as a filter compares it as text: trimmed, lower case; empty is "". */
function filterText(raw: unknown): string {
  return isEmptyValue(raw) ? '' : (typeof raw === 'object' ? JSON.stringify(raw) : String(raw)).trim().toLowerCase();
}

/** "Is one of": the field equals one of the values, as text case-insensitively or as a number ("5" is "5.0"). */
function compileOneOf(field: string, values: readonly string[]): (data: Data) => boolean {
  const texts = new Set(values.map((v) => v.trim().toLowerCase()));
  const numbers = new Set(values.map(toNumber).filter((n): n is number => n !== null));
  const read = fieldReader(field);
  return (data) => {
    const raw = read(data);
    if (texts.has(filterText(raw))) return true;
    if (numbers.size === 0) return false;
    const n = toNumber(raw);
    return n !== null && numbers.has(n);
  };
}

/**
 * A widget's filter compiled once: numbers compare as numbers, text case-insensitively; on a
 * date-time field (by the source's types) a value in a date form compares as a point in time.
 */
export function compileFilter(filter: WidgetFilter | undefined, typing?: FieldTyping | null): (data: Data) => boolean {
  if (!filter) return () => true;
  if (filter.operator === 'in') return compileOneOf(filter.field, filter.values ?? []);
  const right = filter.value.trim().toLowerCase();
  const isDate = fieldTypeOf(typing, filter.field) === 'datetime';
  const reading = { dateOrder: typing?.dateOrder, epoch: true };
  const bTime = isDate && filter.operator !== 'contains' ? timeOf(filter.value, reading) : NaN;
  const dates = !Number.isNaN(bTime);
  const b = dates ? bTime : toNumber(filter.value);
  const op = filter.operator;
  const read = fieldReader(filter.field);
  return (data) => {
    const raw = read(data);
    const a = b === null ? null : dates ? numberOrNull(timeOf(raw, reading)) : toNumber(raw);
    // A value that is no date is never before or after one.
    if (dates && a === null) return op === 'neq';
    if (a !== null && b !== null) {
      switch (op) {
        case 'eq': return a === b;
        case 'neq': return a !== b;
        case 'gt': return a > b;
        case 'gte': return a >= b;
        case 'lt': return a < b;
        case 'lte': return a <= b;
      }
    }
    const left = filterText(raw);
    switch (op) {
      case 'eq': return left === right;
      case 'neq': return left !== right;
      case 'contains': return left.includes(right);
    }
    const cmp = left.localeCompare(right);
    return op === 'gt' ? cmp > 0 : op === 'gte' ? cmp >= 0 : op === 'lt' ? cmp < 0 : cmp <= 0;
  };
}

const numberOrNull = (n: number) => (Number.isNaN(n) ? null : n);

/** Whether a record passes a widget's filter. */
export function matchesFilter(data: Data, filter: WidgetFilter | undefined, typing?: FieldTyping | null): boolean {
  return compileFilter(filter, typing)(data);
}

/** Milliseconds of a date text by the one date reader (common/types/dates), NaN when none. */
export { parseTime };

const MINUTE = 60_000;

/** The start (local time) of the minute, hour, day or week (from Monday) holding `t`. */
export function bucketStart(t: number, interval: TimeInterval): number {
  if (interval === 'minute') return Math.floor(t / MINUTE) * MINUTE;
  const d = new Date(t);
  if (interval === 'hour') d.setMinutes(0, 0, 0);
  else {
    d.setHours(0, 0, 0, 0);
    if (interval === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  }
  return d.getTime();
}

/** The start of the interval before the one starting at `start`. */
export function previousBucket(start: number, interval: TimeInterval): number {
  if (interval === 'minute') return start - MINUTE;
  const d = new Date(start);
  if (interval === 'hour') d.setHours(d.getHours() - 1);
  else d.setDate(d.getDate() - (interval === 'week' ? 7 : 1));
  return d.getTime();
}

/** A field's value as the title of its group ("Unassigned" when empty). */
const groupName = (raw: unknown): string => (isEmptyValue(raw) ? EMPTY_GROUP : typeof raw === 'object' ? JSON.stringify(raw) : String(raw));

/** What one widget adds up, whatever its type. */
export interface AggregateSpec {
  /** Group records by this field's value; by the date field's interval with `interval`; none for a KPI. */
  groupField?: string;
  /** Bars split by this field's value too (a stacked bar chart). */
  stackField?: string;
  interval?: TimeInterval;
  metric: Metric;
  valueField?: string;
  filter?: WidgetFilter;
  /** The source's types (filters on date-time fields) and its day/month order (dates of a chart over time). */
  typing?: FieldTyping;
}

export function aggregateSpec<T extends keyof ChartConfigs>(type: T, c: ChartConfigs[T], typing?: FieldTyping): AggregateSpec {
  const base = { metric: c.metric, valueField: c.valueField, filter: c.filter, ...(typing ? { typing } : {}) };
  if ('stackField' in c && c.stackField) return { ...base, groupField: c.groupField, stackField: c.stackField };
  if ('groupField' in c) return { ...base, groupField: c.groupField };
  if ('dateField' in c) return { ...base, groupField: c.dateField, interval: c.interval };
  return base;
}

export interface GroupTotal {
  /** Records in the group. */
  count: number;
  /** Records with a number in the value field, and their sum. */
  numbers: number;
  sum: number;
}

/**
 * A group: the field's value as text, or for a chart over time the start of the record's interval
 * in minutes since 1970 (a small integer, which Maps hash fastest).
 */
type GroupKey = string | number;

/** A record as the aggregator reads it (the viewer's RecordDto is one). */
export interface DataHolder {
  data: Data;
}

/**
 * Totals of one widget kept up to date record by record: a change takes the record's old part out
 * of its group and puts the new one in, so a pushed change costs O(1) instead of a pass over every
 * record. Nothing is stored per record (the caller knows the record before and after a change), so
 * a full recount is one pass that allocates nothing per record and only touches the few group
 * totals. Minimum and maximum are recomputed from `all()` (once, lazily) only when the record
 * holding them changes.
 */
export class Aggregator {
  private groups = new Map<GroupKey, GroupTotal>();
  private records = 0;
  private extremes: { min: number; max: number } | null = null;
  private extremesStale = true;
  private readonly passes: (data: Data) => boolean;
  private readonly groupOf: ((data: Data) => unknown) | null;
  private readonly stackOf: ((data: Data) => unknown) | null;
  private readonly numberOf: ((data: Data) => unknown) | null;
  private readonly dateOrder: DateOrder;
  /** Interval starts by quarter hour: every time zone's hours and days begin on one, so records share the Date work. */
  private readonly starts = new Map<number, number>();
  /** The last quarter hour looked up, and its interval start: records usually come in date order. */
  private lastQuarter = NaN;
  private lastStart = NaN;
  /** The last group added to, for the same reason (forgotten when its group goes). */
  private lastKey: GroupKey | null = null;
  private lastGroup: GroupTotal | null = null;

  /** `all` lists the current records, for the rare min / max recomputation. */
  constructor(readonly spec: AggregateSpec, private readonly all: () => Iterable<DataHolder> = () => []) {
    this.passes = compileFilter(spec.filter, spec.typing);
    this.dateOrder = spec.typing?.dateOrder ?? 'mdy';
    this.groupOf = spec.groupField ? fieldReader(spec.groupField) : null;
    this.stackOf = spec.stackField && !spec.interval ? fieldReader(spec.stackField) : null;
    this.numberOf = spec.metric !== 'count' && spec.valueField ? fieldReader(spec.valueField) : null;
  }

  /** Records that count (those passing the filter, with a group). */
  get size(): number {
    return this.records;
  }

  /** Counts every record again (the viewer store's records: `map.values()`). */
  reset(records: Iterable<DataHolder>): void {
    this.groups.clear();
    this.lastKey = this.lastGroup = null;
    this.records = 0;
    // The pass finds the minimum and maximum too.
    this.extremes = null;
    this.extremesStale = false;
    for (const r of records) this.add(r.data);
  }

  /** One record changed: `before` is what it held (undefined: new), `after` what it holds now (undefined: removed). */
  update(before: Data | undefined, after: Data | undefined): void {
    if (before) this.take(before);
    if (after) this.add(after);
  }

  private add(data: Data): void {
    if (!this.passes(data)) return;
    const key = this.keyOf(data);
    if (key === null) return;
    this.records += 1;
    let g = key === this.lastKey ? this.lastGroup : this.groups.get(key);
    if (!g) this.groups.set(key, (g = { count: 0, numbers: 0, sum: 0 }));
    this.lastKey = key;
    this.lastGroup = g;
    g.count += 1;
    const value = this.valueOf(data);
    if (value !== null) {
      g.numbers += 1;
      g.sum += value;
      if (!this.extremesStale) {
        const e = this.extremes;
        if (!e) this.extremes = { min: value, max: value };
        else if (value < e.min) e.min = value;
        else if (value > e.max) e.max = value;
      }
    }
  }

  private take(data: Data): void {
    if (!this.passes(data)) return;
    const key = this.keyOf(data);
    const g = key === null ? undefined : this.groups.get(key);
    if (key === null || !g) return;
    this.records -= 1;
    g.count -= 1;
    const value = this.valueOf(data);
    if (value !== null) {
      g.numbers -= 1;
      g.sum -= value;
      if (this.extremes && (value === this.extremes.min || value === this.extremes.max)) this.extremesStale = true;
    }
    if (g.count === 0) {
      this.groups.delete(key);
      if (this.lastGroup === g) this.lastKey = this.lastGroup = null;
    }
  }

  /** The KPI: a count, or the sum / average / minimum / maximum of the value field (null with no numbers). */
  value(): number | null {
    let count = 0;
    let numbers = 0;
    let sum = 0;
    for (const g of this.groups.values()) {
      count += g.count;
      numbers += g.numbers;
      sum += g.sum;
    }
    switch (this.spec.metric) {
      case 'count': return count;
      case 'sum': return sum;
      case 'avg': return numbers ? sum / numbers : null;
      case 'min': return this.minMax()?.min ?? null;
      case 'max': return this.minMax()?.max ?? null;
    }
  }

  /** The largest `topN` groups in the chosen order (by value: largest first), the rest added up as "Other" (common/widgets/groups.ts). */
  top(topN?: number, order: GroupOrder = 'value'): GroupRow[] {
    return topGroups(this.rows(), topN, order);
  }

  /** With a stack field: the top groups, each split by the stack field's values. */
  stacked(topN?: number, order: GroupOrder = 'value'): StackedGroups {
    return stackGroups(this.rows(), topN, order);
  }

  private rows(): GroupRow[] {
    return [...this.groups].map(([key, g]) => ({ key: String(key), value: this.metricOf(g) }));
  }

  /** The last `points` intervals up to the one holding `now` (or the latest record, if later), zeros included. */
  series(points: number, now: number): { start: number; value: number }[] {
    const interval = this.spec.interval ?? 'day';
    let latest = now;
    for (const key of this.groups.keys()) if (typeof key === 'number' && key * MINUTE > latest) latest = key * MINUTE;
    const out: { start: number; value: number }[] = [];
    for (let start = bucketStart(latest, interval); out.length < points; start = previousBucket(start, interval)) {
      const g = this.groups.get(start / MINUTE);
      out.push({ start, value: g ? this.metricOf(g) : 0 });
    }
    return out.reverse();
  }

  private metricOf(g: GroupTotal): number {
    return this.spec.metric === 'sum' ? g.sum : g.count;
  }

  /** The number a record adds (null: none, or the metric is a count). */
  private valueOf(data: Data): number | null {
    return this.numberOf ? toNumber(this.numberOf(data)) : null;
  }

  /** The record's group; null when it has none (a chart over time and no date). */
  private keyOf(data: Data): GroupKey | null {
    if (!this.groupOf) return '';
    const raw = this.groupOf(data);
    const interval = this.spec.interval;
    if (interval) {
      // The one date reader; numbers are epoch seconds or milliseconds (common/types/dates).
      const t = typeof raw === 'string' ? parseTime(raw, this.dateOrder) : typeof raw === 'number' ? epochMillis(raw) : NaN;
      return Number.isFinite(t) ? this.startOf(t, interval) : null;
    }
    const group = groupName(raw);
    return this.stackOf ? `${group}${STACK_SEPARATOR}${groupName(this.stackOf(data))}` : group;
  }

  /** The start of the record's interval, in minutes since 1970. */
  private startOf(t: number, interval: TimeInterval): number {
    if (interval === 'minute') return Math.floor(t / MINUTE);
    const quarter = Math.floor(t / 900_000);
    if (quarter === this.lastQuarter) return this.lastStart;
    let start = this.starts.get(quarter);
    if (start === undefined) this.starts.set(quarter, (start = bucketStart(t, interval) / MINUTE));
    this.lastQuarter = quarter;
    this.lastStart = start;
    return start;
  }

  private minMax(): { min: number; max: number } | null {
    if (this.extremesStale) {
      let min = Infinity;
      let max = -Infinity;
      for (const { data } of this.all()) {
        if (!this.passes(data) || this.keyOf(data) === null) continue;
        const v = this.valueOf(data);
        if (v === null) continue;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      this.extremes = min <= max ? { min, max } : null;
      this.extremesStale = false;
    }
    return this.extremes;
  }
}
