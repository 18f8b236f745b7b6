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

/** A field's value as a filter compares it as text: trimmed, lower case; empty is "". */
function filterText(raw: unknown): string {
  return isEmptyValue(raw) ? '' : (typeof raw === 'object' ? JSON.stringify(raw) : String(raw)).trim().toLowerCase();
}

/** "Is one of": the field equals one of the values, as text case-insensitively or as a number ("5" is "5.0"). */
function compileOneOf(field: string, values: readonly string[]): (data: Data) => boolean {
  const texts = new Set(values.map((v) => v.trim().toLowerCase()));
  const numbers = new Set(values.map(toNumber).filter((n): n is number => n !== null));
  return (data) => {
    const raw = fieldValue(data, field);
    if (texts.has(filterText(raw))) return true;
    if (numbers.size === 0) return false;
    const n = toNumber(raw);
    return n !== null && numbers.has(n);
  };
}

/** A widget's filter compiled once: numbers compare as numbers, text case-insensitively. */
export function compileFilter(filter: WidgetFilter | undefined): (data: Data) => boolean {
  if (!filter) return () => true;
  if (filter.operator === 'in') return compileOneOf(filter.field, filter.values ?? []);
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

/** Whether a record passes a widget's filter. */
export function matchesFilter(data: Data, filter: WidgetFilter | undefined): boolean {
  return compileFilter(filter)(data);
}

const digits = (s: string, from: number, n: number): number => {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
};

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

// Character codes of "-", ":", "T", "Z" and ".".
const DASH = 45;
const COLON = 58;
const T = 84;
const Z = 90;
const DOT = 46;

/**
 * Milliseconds of a date: the UTC ISO form records usually carry ("2026-01-05T13:45:00Z", with or
 * without milliseconds) is read digit by digit, several times faster than Date.parse; anything
 * else (offsets, other forms, out-of-range fields) goes to Date.parse.
 */
export function parseTime(text: string): number {
  const n = text.length;
  if ((n === 20 || n === 24) && text.charCodeAt(n - 1) === Z && text.charCodeAt(4) === DASH && text.charCodeAt(7) === DASH && text.charCodeAt(10) === T
    && text.charCodeAt(13) === COLON && text.charCodeAt(16) === COLON && (n === 20 || text.charCodeAt(19) === DOT)) {
    const mo = digits(text, 5, 2);
    const d = digits(text, 8, 2);
    const h = digits(text, 11, 2);
    const mi = digits(text, 14, 2);
    const sec = digits(text, 17, 2);
    const ms = n === 24 ? digits(text, 20, 3) : 0;
    // Ranges Date.parse takes as they are; the rest (NaN included) is left to it.
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= 28 && h <= 23 && mi <= 59 && sec <= 59 && ms >= 0) {
      return ((daysFromCivil(digits(text, 0, 4), mo, d) * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms;
    }
  }
  return Date.parse(text);
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
 * Totals of one widget kept up to date record by record: a change takes the record's old part out
 * of its group and puts the new one in, so a pushed change costs O(1) instead of a pass over every
 * record. Nothing is stored per record (the caller knows the record before and after a change), so
 * a full recount is one pass that only touches the few group totals. Minimum and maximum are
 * recomputed from `all()` (once, lazily) only when the record holding them changes.
 */
export class Aggregator {
  private groups = new Map<string, GroupTotal>();
  private records = 0;
  private extremes: { min: number; max: number } | null = null;
  private extremesStale = true;
  private readonly passes: (data: Data) => boolean;
  /** Interval starts by quarter hour: every time zone's hours and days begin on one, so records share the Date work. */
  private readonly starts = new Map<number, string>();

  /** `all` lists the current records' data, for the rare min / max recomputation. */
  constructor(readonly spec: AggregateSpec, private readonly all: () => Iterable<Data> = () => []) {
    this.passes = compileFilter(spec.filter);
  }

  /** Records that count (those passing the filter, with a group). */
  get size(): number {
    return this.records;
  }

  reset(records: Iterable<Data>): void {
    this.groups.clear();
    this.records = 0;
    // The pass finds the minimum and maximum too.
    this.extremes = null;
    this.extremesStale = false;
    for (const data of records) this.add(data);
  }

  /** One record changed: `before` is what it held (undefined: new), `after` what it holds now (undefined: removed). */
  update(before: Data | undefined, after: Data | undefined): void {
    if (before) this.take(before);
    if (after) this.add(after);
  }

  private add(data: Data): void {
    const part = this.partOf(data);
    if (!part) return;
    this.records += 1;
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

  private take(data: Data): void {
    const part = this.partOf(data);
    const g = part && this.groups.get(part.key);
    if (!part || !g) return;
    this.records -= 1;
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
      const t = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseTime(raw) : NaN;
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
      for (const data of this.all()) {
        const v = this.partOf(data)?.value;
        if (v === null || v === undefined) continue;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      this.extremes = min <= max ? { min, max } : null;
      this.extremesStale = false;
    }
    return this.extremes;
  }
}
