import type { GroupOrder } from '../schemas/widgets/widget';
import { bucketStart, bucketsIn, MAX_CHART_POINTS, resolveRange, shiftBucket, type TimeBucket, type TimeRange } from '../time/timeRanges';
import type { GroupTotal } from './charts/groupTotal';
import { OTHER_GROUP, rankGroups, type GroupRow } from './charts/groups';
import { MINUTE, type GroupKey, type LineCache, type LineSeries, type Slot, type SlotWindow } from './aggregateSpec';

/**
 * A line chart's series over its time buckets, from an Aggregator's slots: computed whole
 * (`computeLines`), or the last result brought up to date where a pushed record changed one
 * bucket of one series (`patchLines`). The Aggregator keeps the cache and the changed (slot, key)
 * pairs; these read its state through a LineSource.
 */

/** What the line series read of an Aggregator. */
export interface LineSource {
  /** The slot bucket. */
  slot: TimeBucket;
  slots: ReadonlyMap<number, Slot>;
  /** The range's slots. */
  current: SlotWindow;
  range: TimeRange;
  now: number;
  /** One series per value of a split field (else a single series ''). */
  split: boolean;
  groupsIn(w: SlotWindow): Iterable<[GroupKey, GroupTotal, number]>;
  /** The start (epoch ms) of the drawn bucket holding a slot. */
  rollup(slot: number, bucket: TimeBucket): number;
  metricOver(groups: GroupTotal[], minutes: number): number | null;
  emptyValue(): number | null;
  ranked(byKey: Map<string, GroupTotal[]>, limit: number | undefined, order: GroupOrder, minutes: number, ranks?: Map<GroupKey, number | null>): { kept: GroupRow[]; rest: string[]; other: GroupRow | null };
}

/** Some keys' totals over the range: looked up in each slot, not every group of every slot visited. */
function keyTotals(src: LineSource, only: ReadonlySet<GroupKey>): Map<GroupKey, GroupTotal[]> {
  const byKey = new Map<GroupKey, GroupTotal[]>();
  for (const [slot, groups] of src.slots) {
    if (slot < src.current.from || slot >= src.current.to) continue;
    for (const key of only) {
      const g = groups.get(key);
      if (!g) continue;
      const list = byKey.get(key);
      if (list) list.push(g);
      else byKey.set(key, [g]);
    }
  }
  return byKey;
}

/** The totals of some keys in the drawn bucket starting at `start`. */
function bucketTotals(src: LineSource, start: number, bucket: TimeBucket, keys: Iterable<GroupKey>): GroupTotal[] {
  const out: GroupTotal[] = [];
  const slots = bucket === src.slot ? [start / MINUTE] : [...src.slots.keys()].filter((slot) => src.rollup(slot, bucket) === start);
  for (const slot of slots) {
    const groups = src.slots.get(slot);
    if (!groups) continue;
    for (const k of keys) {
      const g = groups.get(k);
      if (g) out.push(g);
    }
  }
  return out;
}

/**
 * The last `lines()` brought up to date by recomputing only the buckets and series that changed
 * (a pushed record: one bucket of one series, and that series' rank); null when the change reaches
 * further (a new bucket, a series entering or leaving the drawn ones) and everything is computed again.
 */
export function patchLines(src: LineSource, c: LineCache, touched: ReadonlyMap<number, ReadonlySet<GroupKey>>): LineSeries | null {
  if (!touched.size) return c.result;
  const { result, bucket } = c;
  const changed = new Map<number, Set<GroupKey>>();
  const keys = new Set<GroupKey>();
  for (const [slot, ks] of touched) {
    if (slot < src.current.from || slot >= src.current.to) continue;
    const at = c.startAt.get(src.rollup(slot, bucket));
    // All time spans the records' first and last buckets: a change there may move them.
    if (at === undefined || (src.range.kind === 'all' && (at === 0 || at === result.starts.length - 1))) return null;
    let set = changed.get(at);
    if (!set) changed.set(at, (set = new Set()));
    for (const k of ks) {
      set.add(k);
      keys.add(k);
    }
  }
  if (!changed.size) return c.result;
  // The touched series' ranks; the drawn series must stay the same ones.
  const drawn = new Map(result.series.map((x, i) => [x.key, i]));
  let rest: GroupKey[] = [];
  if (src.split) {
    const totals = keyTotals(src, keys);
    for (const k of keys) {
      const gs = totals.get(k);
      if (gs) c.ranks.set(k, src.metricOver(gs, 0));
      else c.ranks.delete(k);
    }
    const ranked = rankGroups([...c.ranks].map(([key, value]) => ({ key, value })), c.limit, 'label');
    const kept = result.series.slice(0, result.series.length - (result.leftSeries > 0 && c.otherSeries === 'combine' ? 1 : 0));
    if (ranked.kept.length !== kept.length || ranked.kept.some((r, i) => r.key !== kept[i].key)) return null;
    if ((ranked.rest.length > 0) !== (result.leftSeries > 0)) return null;
    rest = ranked.rest;
  }
  const series = result.series.map((x) => ({ ...x }));
  const copied = new Set<number>();
  const own = (i: number) => {
    if (!copied.has(i)) series[i].values = [...series[i].values];
    copied.add(i);
  };
  const minutes = (s: number) => (shiftBucket(s, bucket, 1) - s) / MINUTE;
  const empty = src.emptyValue();
  for (const [at, ks] of changed) {
    const start = result.starts[at];
    let other = false;
    for (const k of ks) {
      const i = src.split ? drawn.get(k) : 0;
      if (i === undefined) {
        other = true;
        continue;
      }
      own(i);
      const gs = bucketTotals(src, start, bucket, [k]);
      series[i].values[at] = gs.length ? src.metricOver(gs, minutes(start)) : empty;
    }
    const o = result.leftSeries > 0 && c.otherSeries === 'combine' ? result.series.length - 1 : undefined;
    if (other && o !== undefined && c.otherSeries === 'combine') {
      own(o);
      const gs = bucketTotals(src, start, bucket, rest);
      series[o].values[at] = gs.length ? src.metricOver(gs, minutes(start)) : empty;
    }
  }
  c.result = { ...result, series, leftSeries: src.split ? rest.length : 0 };
  return c.result;
}

/** Computes every bucket of every series (see `lines`). */
export function computeLines(src: LineSource, limit: number, otherSeries: 'combine' | 'omit', bucket: TimeBucket, ranks: Map<GroupKey, number | null>): LineSeries {
  const byStart = new Map<number, Map<GroupKey, GroupTotal[]>>();
  const byKey = new Map<GroupKey, GroupTotal[]>();
  for (const [key, g, slot] of src.groupsIn(src.current)) {
    const start = src.rollup(slot, bucket);
    let keys = byStart.get(start);
    if (!keys) byStart.set(start, (keys = new Map()));
    const list = keys.get(key);
    if (list) list.push(g);
    else keys.set(key, [g]);
    const all = byKey.get(key);
    if (all) all.push(g);
    else byKey.set(key, [g]);
  }
  let first: number;
  let last: number;
  const w = resolveRange(src.range, src.now);
  if (src.range.kind === 'all') {
    if (!byStart.size) return { starts: [], bucket, buckets: 0, series: [], leftSeries: 0, omitted: otherSeries === 'omit' };
    first = Infinity;
    last = -Infinity;
    for (const s of byStart.keys()) {
      if (s < first) first = s;
      if (s > last) last = s;
    }
  } else {
    first = bucketStart(src.range.kind === 'fixed' ? w.from! : src.current.from * MINUTE, bucket);
    last = bucketStart(src.range.kind === 'relative' ? src.now : w.to! - 1, bucket);
  }
  const starts: number[] = [];
  for (let s = last; s >= first && starts.length < MAX_CHART_POINTS; s = shiftBucket(s, bucket, -1)) starts.push(s);
  starts.reverse();
  const buckets = starts.length < MAX_CHART_POINTS ? starts.length : Math.max(MAX_CHART_POINTS, bucketsIn(last - first, bucket) + 1);
  const minutes = (s: number) => (shiftBucket(s, bucket, 1) - s) / MINUTE;
  const empty = src.emptyValue();
  const split = src.split;
  const { kept, rest, other } = split ? src.ranked(byKey, limit, 'label', 0, ranks) : { kept: [{ key: '', value: null }], rest: [], other: null };
  const series = kept.map(({ key }) => ({
    key,
    values: starts.map((s) => {
      const gs = byStart.get(s)?.get(key);
      return gs ? src.metricOver(gs, minutes(s)) : empty;
    }),
  }));
  if (other && otherSeries === 'combine') {
    series.push({
      key: OTHER_GROUP,
      values: starts.map((s) => {
        const keys = byStart.get(s);
        const gs = keys ? rest.flatMap((k) => keys.get(k) ?? []) : [];
        return gs.length ? src.metricOver(gs, minutes(s)) : empty;
      }),
    });
  }
  return { starts, bucket, buckets, series, leftSeries: rest.length, omitted: otherSeries === 'omit' };
}

