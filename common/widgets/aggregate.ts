import { fieldValue, isEmptyValue } from '../cells';
import type { ChartConfigs, Metric, TimeInterval, WidgetFilter } from '../schemas/widget';

type Data = Record<string, unknown>;

/** The title of the group of records whose field is empty (as the bucket board says). */
export const EMPTY_GROUP = 'Unassigned';
export const OTHER_GROUP = 'Other';

/** A number from a number or a numeric string; anything else is not a number. */
export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A widget's filter compiled once: numbers compare as numbers, text case-insensitively. */
export function compileFilter(filter: WidgetFilter | undefined): (data: Data) => boolean {
  if (!filter) return () => true;
  const right = filter.value.trim().toLowerCase();
  const b = toNumber(filter.value);
  const op = filter.operator;
  return (data) => {
    const raw = fieldValue(data, filter.field);
    const a = b === null ? null : toNumber(raw);
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
    const left = isEmptyValue(raw) ? '' : (typeof raw === 'object' ? JSON.stringify(raw) : String(raw)).trim().toLowerCase();
    switch (op) {
      case 'eq': return left === right;
      case 'neq': return left !== right;
      case 'contains': return left.includes(right);
    }
    const cmp = left.localeCompare(right);
    return op === 'gt' ? cmp > 0 : op === 'gte' ? cmp >= 0 : op === 'lt' ? cmp < 0 : cmp <= 0;
  };
}

/** Whether a record passes a widget's filter. */
export function matchesFilter(data: Data, filter: WidgetFilter | undefined): boolean {
  return compileFilter(filter)(data);
}

/** The start (local time) of the minute, hour, day or week (from Monday) holding `t`. */
export function bucketStart(t: number, interval: TimeInterval): number {
  if (interval === 'minute') return t - (((t % 60_000) + 60_000) % 60_000);
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
  if (interval === 'minute') return start - 60_000;
  const d = new Date(start);
  if (interval === 'hour') d.setHours(d.getHours() - 1);
  else d.setDate(d.getDate() - (interval === 'week' ? 7 : 1));
  return d.getTime();
}

/** What one widget adds up, whatever its type. */
export interface AggregateSpec {
  /** Group records by this field's value; by the date field's interval with `interval`; none for a KPI. */
  groupField?: string;
  interval?: TimeInterval;
  metric: Metric;
  valueField?: string;
  filter?: WidgetFilter;
}

export function aggregateSpec<T extends keyof ChartConfigs>(type: T, c: ChartConfigs[T]): AggregateSpec {
  const base = { metric: c.metric, valueField: c.valueField, filter: c.filter };
  if ('groupField' in c) return { ...base, groupField: c.groupField };
  if ('dateField' in c) return { ...base, groupField: c.dateField, interval: c.interval };
  return base;
}

/** One record's part in the totals: its group and its value (null: no number to add). */
interface Part {
  key: string;
  value: number | null;
}

export interface GroupTotal {
  /** Records in the group. */
  count: number;
  /** Records with a number in the value field, and their sum. */
  numbers: number;
  sum: number;
}

/**
 * Totals of one widget kept up to date record by record: an upsert takes the record's old part out
 * and puts its new one in, so a pushed change costs O(1) instead of a pass over every record.
 * Minimum and maximum are recomputed (once, lazily) only when the record holding them changes.
 */
export class Aggregator {
  private parts = new Map<string, Part>();
  private groups = new Map<string, GroupTotal>();
  private extremes: { min: number; max: number } | null = null;
  private extremesStale = true;
  private readonly passes: (data: Data) => boolean;
  /** Interval starts by quarter hour: every time zone's hours and days begin on one, so records share the Date work. */
  private readonly starts = new Map<number, string>();

  constructor(readonly spec: AggregateSpec) {
    this.passes = compileFilter(spec.filter);
  }

  get size(): number {
    return this.parts.size;
  }

  reset(records: Iterable<{ recordId: string; data: Data }>): void {
    this.parts.clear();
    this.groups.clear();
    this.extremesStale = true;
    for (const r of records) this.add(r.recordId, r.data);
  }

  upsert(recordId: string, data: Data): void {
    this.remove(recordId);
    this.add(recordId, data);
  }

  private add(recordId: string, data: Data): void {
    const part = this.partOf(data);
    if (!part) return;
    this.parts.set(recordId, part);
    let g = this.groups.get(part.key);
    if (!g) this.groups.set(part.key, (g = { count: 0, numbers: 0, sum: 0 }));
    g.count += 1;
    if (part.value !== null) {
      g.numbers += 1;
      g.sum += part.value;
      if (!this.extremesStale) {
        const e = this.extremes;
        this.extremes = e ? { min: Math.min(e.min, part.value), max: Math.max(e.max, part.value) } : { min: part.value, max: part.value };
      }
    }
  }

  remove(recordId: string): void {
    const part = this.parts.get(recordId);
    if (!part) return;
    this.parts.delete(recordId);
    const g = this.groups.get(part.key)!;
    g.count -= 1;
    if (part.value !== null) {
      g.numbers -= 1;
      g.sum -= part.value;
      if (this.extremes && (part.value === this.extremes.min || part.value === this.extremes.max)) this.extremesStale = true;
    }
    if (g.count === 0) this.groups.delete(part.key);
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

  /** Groups by value, largest first; with `topN`, the rest are added up as "Other". */
  top(topN?: number): { key: string; value: number }[] {
    const rows = [...this.groups].map(([key, g]) => ({ key, value: this.metricOf(g) }));
    rows.sort((a, b) => b.value - a.value || a.key.localeCompare(b.key));
    if (topN === undefined || rows.length <= topN) return rows;
    const rest = rows.slice(topN).reduce((s, r) => s + r.value, 0);
    return [...rows.slice(0, topN), { key: OTHER_GROUP, value: rest }];
  }

  /** The last `points` intervals up to the one holding `now` (or the latest record, if later), zeros included. */
  series(points: number, now: number): { start: number; value: number }[] {
    const interval = this.spec.interval ?? 'day';
    let latest = now;
    for (const key of this.groups.keys()) latest = Math.max(latest, Number(key));
    const out: { start: number; value: number }[] = [];
    for (let start = bucketStart(latest, interval); out.length < points; start = previousBucket(start, interval)) {
      const g = this.groups.get(String(start));
      out.push({ start, value: g ? this.metricOf(g) : 0 });
    }
    return out.reverse();
  }

  private metricOf(g: GroupTotal): number {
    return this.spec.metric === 'sum' ? g.sum : g.count;
  }

  private partOf(data: Data): Part | null {
    const { groupField, interval, metric, valueField } = this.spec;
    if (!this.passes(data)) return null;
    const value = metric === 'count' ? null : toNumber(valueField ? fieldValue(data, valueField) : undefined);
    if (!groupField) return { key: '', value };
    const raw = fieldValue(data, groupField);
    if (interval) {
      const t = typeof raw === 'number' ? raw : typeof raw === 'string' ? Date.parse(raw) : NaN;
      return Number.isFinite(t) ? { key: this.startOf(t, interval), value } : null;
    }
    const key = isEmptyValue(raw) ? EMPTY_GROUP : typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
    return { key, value };
  }

  private startOf(t: number, interval: TimeInterval): string {
    if (interval === 'minute') return String(bucketStart(t, interval));
    const quarter = Math.floor(t / 900_000);
    let key = this.starts.get(quarter);
    if (key === undefined) this.starts.set(quarter, (key = String(bucketStart(t, interval))));
    return key;
  }

  private minMax(): { min: number; max: number } | null {
    if (this.extremesStale) {
      let min = Infinity;
      let max = -Infinity;
      for (const p of this.parts.values()) {
        if (p.value === null) continue;
        if (p.value < min) min = p.value;
        if (p.value > max) max = p.value;
      }
      this.extremes = min <= max ? { min, max } : null;
      this.extremesStale = false;
    }
    return this.extremes;
  }
}
