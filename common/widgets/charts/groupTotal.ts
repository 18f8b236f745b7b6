import { isEmptyValue } from '../../cells';
import type { Metric } from '../../schemas/widgets/widget';
import { toNumber } from '../filters';

/**
 * Running totals of the records of one group in one time slot, and the metric over some of them.
 *
 * Count, sum and average are running sums. Minimum, maximum, median and percentiles keep the
 * group's numbers (a multiset): unsorted while records arrive in bulk (a recount), sorted once when
 * first read, then kept sorted by binary insertion and removal, so a pushed or removed record costs
 * a search and a move of the slot's numbers, never a pass over every record, and a removal can
 * never leave a stale minimum behind. Exact, not a sketch: a sketch's error bound would show as a
 * wrong p95 on a small dashboard, and a slot holds few records (a KPI without time, the worst case,
 * sorts its 100,000 numbers in a few milliseconds). Latest keeps every record's date and value.
 */
export interface GroupTotal {
  /** Records in the group. */
  count: number;
  /** Records with a number in the value field, and their sum. */
  numbers: number;
  sum: number;
  /** The numbers (minimum, maximum, median, percentiles); sorted when `sorted`. */
  values: number[] | null;
  sorted: boolean;
  /** Every record's date and value (latest), and the latest of them unless `stale`. */
  times: number[] | null;
  raws: unknown[] | null;
  latestT: number;
  latest: unknown;
  stale: boolean;
  /** Distinct values of the value field, as text, with how many records hold each (distinct count). */
  distinct: Map<string, number> | null;
}

/** The metrics that need a group's numbers themselves, not only their sum. */
const ORDER_METRICS: ReadonlySet<Metric> = new Set(['min', 'max', 'median', 'p90', 'p95', 'p99']);
/** The rank of a percentile metric (0–1). */
export const PERCENTILES: Partial<Record<Metric, number>> = { median: 0.5, p90: 0.9, p95: 0.95, p99: 0.99 };

export const newTotal = (metric: Metric): GroupTotal => ({
  count: 0, numbers: 0, sum: 0,
  values: ORDER_METRICS.has(metric) ? [] : null, sorted: false,
  times: metric === 'latest' ? [] : null, raws: metric === 'latest' ? [] : null, latestT: -Infinity, latest: undefined, stale: false,
  distinct: metric === 'distinct' ? new Map() : null,
});

/** A value as the title of its group or a distinct value ("Unassigned" when empty). */
export const EMPTY_GROUP = 'Unassigned';
export const groupName = (raw: unknown): string => (isEmptyValue(raw) ? EMPTY_GROUP : typeof raw === 'object' ? JSON.stringify(raw) : String(raw));

/** The first index of a sorted list holding a value at least `v`. */
function lowerBound(list: number[], v: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sorts a group's numbers in place (a typed array sorts numbers natively, several times faster than a compare function). */
function sortValues(g: GroupTotal): number[] {
  const list = g.values!;
  if (!g.sorted) {
    const f = Float64Array.from(list).sort();
    for (let i = 0; i < f.length; i++) list[i] = f[i];
    g.sorted = true;
  }
  return list;
}

/** Adds a record's value (`raw`, dated `t`) to a group's totals. */
export function foldValue(g: GroupTotal, raw: unknown, t: number): void {
  if (g.distinct) {
    if (!isEmptyValue(raw)) {
      const text = groupName(raw);
      g.distinct.set(text, (g.distinct.get(text) ?? 0) + 1);
    }
    return;
  }
  if (g.times) {
    if (isEmptyValue(raw)) return;
    g.times.push(t);
    g.raws!.push(raw);
    if (isLater(t, raw, g)) {
      g.latestT = t;
      g.latest = raw;
    }
    return;
  }
  const value = toNumber(raw);
  if (value === null) return;
  g.numbers += 1;
  g.sum += value;
  if (g.values) {
    if (g.sorted) g.values.splice(lowerBound(g.values, value), 0, value);
    else g.values.push(value);
  }
}

/** Takes a record's value (as it was when added) out of a group's totals. */
export function unfoldValue(g: GroupTotal, raw: unknown, t: number): void {
  if (g.distinct) {
    const text = groupName(raw);
    const n = (g.distinct.get(text) ?? 0) - 1;
    if (n > 0) g.distinct.set(text, n);
    else g.distinct.delete(text);
    return;
  }
  if (g.times) {
    if (isEmptyValue(raw)) return;
    const times = g.times;
    let at = -1;
    for (let i = times.length - 1; i >= 0; i--) {
      if (times[i] === t && (at < 0 || g.raws![i] === raw)) {
        at = i;
        if (g.raws![i] === raw) break;
      }
    }
    if (at < 0) return;
    times[at] = times[times.length - 1];
    times.pop();
    g.raws![at] = g.raws![g.raws!.length - 1];
    g.raws!.pop();
    if (t >= g.latestT) g.stale = true;
    return;
  }
  const value = toNumber(raw);
  if (value === null) return;
  g.numbers -= 1;
  g.sum -= value;
  if (!g.values) return;
  if (g.sorted) {
    const at = lowerBound(g.values, value);
    if (g.values[at] === value) g.values.splice(at, 1);
  } else {
    const at = g.values.lastIndexOf(value);
    if (at >= 0) {
      g.values[at] = g.values[g.values.length - 1];
      g.values.pop();
    }
  }
}

/**
 * Whether a value dated `t` is later than a group's latest. Two records of the same date: the larger
 * value (as a number, else as text), so the latest never depends on the order records arrived in.
 */
function isLater(t: number, raw: unknown, g: { latestT: number; latest: unknown }): boolean {
  if (t !== g.latestT) return t > g.latestT;
  if (g.latest === undefined) return true;
  const a = toNumber(raw);
  const b = toNumber(g.latest);
  return a !== null && b !== null ? a > b : groupName(raw) > groupName(g.latest);
}

/** The latest value of a group, found again among its records when the one holding it went away. */
function freshen(g: GroupTotal): void {
  if (!g.stale) return;
  g.latestT = -Infinity;
  g.latest = undefined;
  const times = g.times!;
  for (let i = 0; i < times.length; i++) {
    if (isLater(times[i], g.raws![i], g)) {
      g.latestT = times[i];
      g.latest = g.raws![i];
    }
  }
  g.stale = false;
}

/**
 * The value at rank p (0–1) of sorted numbers, by linear interpolation between the closest ranks:
 * Excel's PERCENTILE.INC, numpy's default.
 */
export function percentileOf(sorted: ArrayLike<number>, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** The numbers of several groups, sorted. */
function sortedOf(groups: readonly GroupTotal[]): ArrayLike<number> {
  if (groups.length === 1) return sortValues(groups[0]);
  let n = 0;
  for (const g of groups) n += g.values!.length;
  const all = new Float64Array(n);
  let at = 0;
  for (const g of groups) {
    all.set(g.values!, at);
    at += g.values!.length;
  }
  return all.sort();
}

/** A metric over some groups' totals (null: no numbers or values); `minutes` is the span a rate is over. */
export function metricOf(metric: Metric, groups: readonly GroupTotal[], minutes = 0): number | null {
  let count = 0, numbers = 0, sum = 0;
  for (const g of groups) {
    count += g.count;
    numbers += g.numbers;
    sum += g.sum;
  }
  switch (metric) {
    case 'count': return count;
    case 'sum': return sum;
    case 'avg': return numbers ? sum / numbers : null;
    case 'min':
    case 'max': {
      let best: number | null = null;
      for (const g of groups) {
        if (!g.values!.length) continue;
        const list = sortValues(g);
        const v = metric === 'min' ? list[0] : list[list.length - 1];
        if (best === null || (metric === 'min' ? v < best : v > best)) best = v;
      }
      return best;
    }
    case 'median':
    case 'p90':
    case 'p95':
    case 'p99': return percentileOf(sortedOf(groups), PERCENTILES[metric]!);
    case 'distinct': {
      if (groups.length === 1) return groups[0].distinct?.size ?? 0;
      const seen = new Set<string>();
      for (const g of groups) for (const k of g.distinct?.keys() ?? []) seen.add(k);
      return seen.size;
    }
    case 'latest': {
      const best = { latestT: -Infinity, latest: undefined as unknown };
      for (const g of groups) {
        freshen(g);
        if (g.latest !== undefined && isLater(g.latestT, g.latest, best)) {
          best.latestT = g.latestT;
          best.latest = g.latest;
        }
      }
      return best.latest === undefined ? null : toNumber(best.latest);
    }
    case 'perMinute': return minutes > 0 ? count / minutes : null;
    case 'perHour': return minutes > 0 ? (count / minutes) * 60 : null;
  }
}
