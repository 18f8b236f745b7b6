import { fieldReader } from '../cells';
import { timeOf, type DateReading } from '../types/dates';
import { type GroupOrder } from '../schemas/widgets/widget';
import { ALL_TIME, autoBucket, bucketStart, bucketsIn, isSliding, previousWindow, rangeSpanMs, resolveRange, shiftBucket, TIME_BUCKETS, type TimeBucket, type TimeRange } from '../time/timeRanges';
import { binReader } from './charts/bins';
import { compileFilters } from './filters';
import { emptyValueOf, numberReader } from './charts/numberAxis';
import { foldValue, groupName, metricOf, newTotal, unfoldValue, type GroupTotal } from './charts/groupTotal';
import { OTHER_GROUP, rankGroups, SPLIT_SEPARATOR, type GroupRow, type SplitGroups } from './charts/groups';

export { EMPTY_GROUP } from './charts/groupTotal';
export * from './aggregateSpec';
import { Data, MINUTE, AggregateSpec, GroupKey, Slot, isYearValue, LineSeries, LineCache, DataHolder, SlotWindow, staticBucket, slotBucket } from './aggregateSpec';
import { computeLines, patchLines, type LineSource } from './aggregateLines';

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
  private readonly splitOf: ((data: Data) => unknown) | null;
  private readonly valueOf: ((data: Data) => unknown) | null;
  private readonly timeOf: ((data: Data) => unknown) | null;
  /** A date field is read as a date-time: texts in any date form, numbers as years or epochs; a date without a zone on the viewer's clock. */
  private readonly reading: DateReading;
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
  /** Records kept whose date is a whole year (the automatic bucket of a Year column is the year). */
  private yearDated = 0;
  /** The last `lines()` and the (slot → keys) changed since, so a pushed record recomputes one bucket of one series. */
  private lineCache: LineCache | null = null;
  private readonly touched = new Map<number, Set<GroupKey>>();
  /** The slot drawn for a slot (a day's month), cached. */
  private readonly rollups = new Map<number, number>();

  /** `_all` lists the current records (no longer read: every group keeps what a removal needs). */
  constructor(readonly spec: AggregateSpec, _all: () => Iterable<DataHolder> = () => [], now = Date.now()) {
    this.passes = compileFilters(spec.filters, spec.typing);
    this.reading = { epoch: true, dateOrder: spec.typing?.dateOrder ?? 'mdy', local: true };
    this.groupOf = spec.groupField ? (spec.binWidth ? binReader(spec.groupField, spec.binWidth) : spec.numberGroups ? numberReader(spec.groupField) : fieldReader(spec.groupField)) : null;
    this.splitOf = spec.splitField ? fieldReader(spec.splitField) : null;
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
    this.lineCache = null;
    this.slots.clear();
    this.records = 0;
    this.yearDated = 0;
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
    this.lineCache = null;
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
    // The one date reader: numbers are whole years or epoch seconds or milliseconds (common/types/dates).
    return raw instanceof Date ? raw.getTime() : timeOf(raw, this.reading);
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
    if (!g) groups.set(key, (g = newTotal(this.spec.metric)));
    if (this.lineCache) this.touch(slot, key);
    this.records += 1;
    if (this.drawn === null && this.timeOf && isYearValue(this.timeOf(data))) this.yearDated += 1;
    g.count += 1;
    if (this.valueOf) foldValue(g, this.valueOf(data), this.latestTime(data));
  }

  /** The date `latest` orders by (only read for that metric). */
  private latestTime(data: Data): number {
    return this.spec.metric === 'latest' && this.timeOf ? this.timeOfRecord(data) : 0;
  }

  private take(data: Data): void {
    if (!this.passes(data)) return;
    const slot = this.slotOf(data);
    const groups = slot === null ? undefined : this.slots.get(slot);
    const key = groups ? this.keyOf(data) : '';
    const g = groups?.get(key);
    if (!groups || !g) return;
    if (this.lineCache) this.touch(slot!, key);
    this.records -= 1;
    if (this.drawn === null && this.timeOf && isYearValue(this.timeOf(data))) this.yearDated -= 1;
    g.count -= 1;
    if (g.count === 0) {
      groups.delete(key);
      if (groups.size === 0) this.slots.delete(slot!);
      return;
    }
    if (this.valueOf) unfoldValue(g, this.valueOf(data), this.latestTime(data));
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

  /** Records in the period before the range (0 when there is none: all time, or no comparison kept). */
  previousSize(): number {
    let n = 0;
    if (this.before) for (const [, g] of this.groupsIn(this.before)) n += g.count;
    return n;
  }

  /** The starts (epoch ms) of the two newest slots holding records of the range, newest first (fewer when it holds fewer); none when time plays no part. */
  latestSlots(): number[] {
    if (!this.timeOf) return [];
    let [first, second] = [-Infinity, -Infinity];
    for (const slot of this.slots.keys()) {
      if (slot < this.current.from || slot >= this.current.to) continue;
      if (slot > first) [first, second] = [slot, first];
      else if (slot > second) second = slot;
    }
    return [first, second].filter(Number.isFinite).map((s) => s * MINUTE);
  }

  /** The KPI over [from, to) (epoch ms, on slot boundaries) within the range: one bucket of the data, for a comparison. */
  valueBetween(from: number, to: number): number | null {
    const w = { from: Math.max(from / MINUTE, this.current.from), to: Math.min(to / MINUTE, this.current.to) };
    return this.metricOver([...this.groupsIn(w)].map((x) => x[1]), Math.max(0, w.to - w.from));
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
    return metricOf(this.spec.metric, groups, minutes);
  }

  /** Totals by key (group, or group and split value) over the range. */
  private byKey(): Map<GroupKey, GroupTotal[]> {
    const byKey = new Map<GroupKey, GroupTotal[]>();
    for (const [key, g] of this.groupsIn(this.current)) {
      const list = byKey.get(key);
      if (list) list.push(g);
      else byKey.set(key, [g]);
    }
    return byKey;
  }

  /** Keys ranked by the metric over their totals; the rest (beyond `limit`) as one "Other" row, the same metric over their records. */
  private ranked(byKey: Map<string, GroupTotal[]>, limit: number | undefined, order: GroupOrder, minutes: number, ranks?: Map<GroupKey, number | null>): { kept: GroupRow[]; rest: string[]; other: GroupRow | null } {
    const rows = [...byKey].map(([key, gs]) => ({ key, value: this.metricOver(gs, minutes) }));
    if (ranks) for (const r of rows) ranks.set(r.key, r.value);
    const { kept, rest } = rankGroups(rows, limit, order);
    if (!rest.length) return { kept, rest, other: null };
    const restTotals = rest.flatMap((k) => byKey.get(k)!);
    return { kept, rest, other: { key: OTHER_GROUP, value: this.metricOver(restTotals, minutes), others: rest.length } };
  }

  /** The largest `topN` groups in the chosen order (by value: largest first), the rest as "Other" (last; it says how many groups it holds). */
  top(topN?: number, order: GroupOrder = 'value'): GroupRow[] {
    let byKey = this.byKey();
    if (this.groupOf && this.splitOf) {
      // Split bars: a group's total is the metric over all its split values' records.
      const byGroup = new Map<GroupKey, GroupTotal[]>();
      for (const [key, gs] of byKey) {
        const group = key.slice(0, key.indexOf(SPLIT_SEPARATOR));
        byGroup.set(group, [...(byGroup.get(group) ?? []), ...gs]);
      }
      byKey = byGroup;
    }
    const { kept, other } = this.ranked(byKey, topN, order, this.minutesOf(this.current));
    return other ? [...kept, other] : kept;
  }

  /**
   * Bars split by the split field: the top `topN` groups (the rest the category "Other"), and the
   * largest `limit` split values as series (ranked by the metric over all their records); the rest
   * combined as the series "Other" or left out. Every number is the metric over its records.
   */
  split(topN?: number, order: GroupOrder = 'value', limit = 10, otherSeries: 'combine' | 'omit' = 'combine'): SplitGroups {
    const minutes = this.minutesOf(this.current);
    const byGroup = new Map<string, GroupTotal[]>();
    const bySplit = new Map<string, GroupTotal[]>();
    const cells = new Map<string, GroupTotal[]>();
    const push = (m: Map<string, GroupTotal[]>, k: string, g: GroupTotal) => {
      const list = m.get(k);
      if (list) list.push(g);
      else m.set(k, [g]);
    };
    for (const [key, gs] of this.byKey()) {
      const at = key.indexOf(SPLIT_SEPARATOR);
      for (const g of gs) {
        push(byGroup, key.slice(0, at), g);
        push(bySplit, key.slice(at + 1), g);
      }
    }
    const groups = this.ranked(byGroup, topN, order, minutes);
    const splits = this.ranked(bySplit, limit, 'label', minutes);
    const categoryOf = new Map<string, string>();
    for (const r of groups.kept) categoryOf.set(r.key, r.key);
    for (const k of groups.rest) categoryOf.set(k, OTHER_GROUP);
    const seriesOf = new Map<string, string>();
    for (const r of splits.kept) seriesOf.set(r.key, r.key);
    if (otherSeries === 'combine') for (const k of splits.rest) seriesOf.set(k, OTHER_GROUP);
    for (const [key, gs] of this.byKey()) {
      const at = key.indexOf(SPLIT_SEPARATOR);
      const s = seriesOf.get(key.slice(at + 1));
      if (s === undefined) continue;
      for (const g of gs) push(cells, `${categoryOf.get(key.slice(0, at))}${SPLIT_SEPARATOR}${s}`, g);
    }
    const categories = [...groups.kept.map((r) => r.key), ...(groups.other ? [OTHER_GROUP] : [])];
    const seriesKeys = [...splits.kept.map((r) => r.key), ...(splits.other && otherSeries === 'combine' ? [OTHER_GROUP] : [])];
    const empty = this.emptyValue();
    return {
      categories,
      series: seriesKeys.map((key) => ({ key, values: categories.map((c) => {
        const gs = cells.get(`${c}${SPLIT_SEPARATOR}${key}`);
        return gs ? this.metricOver(gs, minutes) : empty;
      }) })),
      leftSeries: splits.rest.length,
      omitted: otherSeries === 'omit',
    };
  }

  /** What an empty bucket or cell shows: 0 for a count or sum, a gap for the others, unless the widget says. */
  private emptyValue(): number | null {
    return emptyValueOf(this.spec.metric, this.spec.emptyAs);
  }

  /** The bucket drawn: the chosen one, else the automatic one for the range (all time: for the records' span). */
  drawnBucket(): TimeBucket {
    if (this.drawn) return this.drawn;
    const keys = [...this.slots.keys()];
    if (!keys.length) return this.slot;
    // Dates that are whole years (a Year column) are drawn by year, however few years they span.
    if (this.yearDated === this.records) return 'year';
    return autoBucket(shiftBucket(Math.max(...keys) * MINUTE, this.slot, 1) - Math.min(...keys) * MINUTE);
  }

  /**
   * The metric per bucket drawn over the range (line charts, sparklines); an empty bucket is 0 or a
   * gap (null, see emptyValue): from the bucket holding the range's start to the one holding its
   * end (all time: the records' first and last). More than MAX_CHART_POINTS buckets (all time, a
   * chosen bucket) keep the latest; `buckets` says how many there were.
   */
  series(): { rows: { start: number; value: number | null }[]; bucket: TimeBucket; buckets: number } {
    const { starts, bucket, buckets, series } = this.lines(Infinity);
    const values = series[0]?.values;
    return { rows: starts.map((start, i) => ({ start, value: values ? values[i] : this.emptyValue() })), bucket, buckets };
  }

  /**
   * One series per value of the split field (a single series '' without one), over the buckets of
   * `series()`: the largest `limit` (ranked by the metric over all their records in the range, ties
   * by label, drawn in label order), the rest combined as "Other" (the metric over their records)
   * or left out; `leftSeries` says how many were not drawn on their own.
   */
  lines(limit = 10, otherSeries: 'combine' | 'omit' = 'combine'): LineSeries {
    const bucket = this.drawnBucket();
    const c = this.lineCache;
    const source = this.lineSource();
    if (c && c.limit === limit && c.otherSeries === otherSeries && c.bucket === bucket) {
      const patched = patchLines(source, c, this.touched);
      this.touched.clear();
      if (patched) return patched;
    }
    this.touched.clear();
    const ranks = new Map<GroupKey, number | null>();
    const result = computeLines(source, limit, otherSeries, bucket, ranks);
    this.lineCache = { limit, otherSeries, bucket, result, ranks, startAt: new Map(result.starts.map((s, i) => [s, i])) };
    return result;
  }

  /** What the line series read of this aggregator's state (aggregateLines.ts). */
  private lineSource(): LineSource {
    return {
      slot: this.slot,
      slots: this.slots,
      current: this.current,
      range: this.range,
      now: this.now,
      split: this.splitOf !== null,
      groupsIn: (w) => this.groupsIn(w),
      rollup: (slot, bucket) => this.rollup(slot, bucket),
      metricOver: (groups, minutes) => this.metricOver(groups, minutes),
      emptyValue: () => this.emptyValue(),
      ranked: (byKey, limit, order, minutes, ranks) => this.ranked(byKey, limit, order, minutes, ranks),
    };
  }

  /** The (slot, key) pairs changed since the last `lines()`; too many, and the next read computes everything again. */
  private touch(slot: number, key: GroupKey): void {
    if (this.touched.size > 256) {
      this.lineCache = null;
      this.touched.clear();
      return;
    }
    let keys = this.touched.get(slot);
    if (!keys) this.touched.set(slot, (keys = new Set()));
    keys.add(key);
  }

  /** The start (epoch ms) of the drawn bucket holding a slot. */
  private rollup(slot: number, bucket: TimeBucket): number {
    if (bucket === this.slot) return slot * MINUTE;
    const key = slot * 8 + TIME_BUCKETS.indexOf(bucket);
    let start = this.rollups.get(key);
    if (start === undefined) this.rollups.set(key, (start = bucketStart(slot * MINUTE, bucket)));
    return start;
  }

  /** The record's key: its group, its split value, both ("group␟split"), or '' (a KPI, a line without split). */
  private keyOf(data: Data): GroupKey {
    const split = this.splitOf ? groupName(this.splitOf(data)) : null;
    if (!this.groupOf) return split ?? '';
    const group = groupName(this.groupOf(data));
    return split === null ? group : `${group}${SPLIT_SEPARATOR}${split}`;
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
