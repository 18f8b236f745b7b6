import { ALERT_OPERATOR_WORDS, type AlertCondition, type AlertState } from '@common/schemas/alert';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { KpiConfig } from '@common/schemas/widgets/widget';
import type { FieldTyping } from '@common/types/fieldTyping';
import { Aggregator, aggregateSpec } from '@common/widgets/aggregate';
import { compileFilters } from '@common/widgets/filters';
import type { Slicer } from '../core';
import type { AlertDoc } from './models';
import type { HeldRecord, RecordChange } from './watchedSource';

type Data = Record<string, unknown>;

/** Whether a value breaks a condition. No value (no records) breaks none. */
export function breaks(c: AlertCondition, v: number | null): boolean {
  if (v === null) return false;
  switch (c.operator) {
    case 'gt':
      return v > c.value;
    case 'gte':
      return v >= c.value;
    case 'lt':
      return v < c.value;
    case 'lte':
      return v <= c.value;
  }
}

/** Whether a firing rule's value is back: past `resolveAt` when given (against flapping), else no longer breaking. */
export function recovered(doc: Pick<AlertDoc, 'condition' | 'resolveAt'>, v: number | null): boolean {
  const c = doc.condition!;
  if (doc.resolveAt === null || v === null) return !breaks(c, v);
  return c.operator === 'gt' || c.operator === 'gte' ? v <= doc.resolveAt : v >= doc.resolveAt;
}

/** The condition in words, for messages: "count above 10", "no data for 60 s". */
export function conditionText(doc: Pick<AlertDoc, 'metric' | 'valueField' | 'condition' | 'noDataSeconds'>): string {
  if (doc.noDataSeconds !== null) return `no data for ${doc.noDataSeconds} s`;
  const c = doc.condition!;
  return `${doc.metric}${doc.valueField ? ` of ${doc.valueField}` : ''} ${ALERT_OPERATOR_WORDS[c.operator]} ${c.value}`;
}

/** The source's type model and time field, as widgets read them. */
export const typingOf = (ds: Pick<DataSourceDto, 'fieldTypes' | 'dateOrder'>): FieldTyping => ({ fieldTypes: ds.fieldTypes ?? {}, dateOrder: ds.dateOrder ?? 'mdy' });

const countingKey = (s: DataSourceDto) => JSON.stringify([s.fieldTypes, s.dateOrder, s.timeField]);

/** Empty totals for a rule (the aggregator a KPI with its settings gets), and its filter test. */
function emptyTotals(doc: AlertDoc, source: DataSourceDto, now: number): [Aggregator, (data: Data) => boolean] {
  const typing = typingOf(source);
  const config = {
    metric: doc.metric, valueField: doc.valueField ?? undefined, filters: doc.filters, range: doc.range, dateField: doc.dateField ?? undefined,
    compare: false, sparkline: false,
  } as unknown as KpiConfig;
  return [new Aggregator(aggregateSpec('kpi', config, typing, source.timeField), () => [], now), compileFilters(doc.filters, typing)];
}

/** Changes folded into a rule's totals between two looks at the clock (a large write's changes go in slices). */
const FOLD_BATCH = 64;

/**
 * One rule as the evaluating process holds it: its number kept up to date record by record with
 * the widgets' own aggregator (the same spec a KPI with these settings gets, so the rule's number
 * is the tile's, exact), and the timing of its state: since when it breaks (forSeconds), when data
 * last came (no data).
 *
 * Nothing here holds the event loop however large the source: the records are counted in slices
 * (`countInSlices`, from a snapshot, while the changes that arrive meanwhile wait in `pending`),
 * and a write's changes wait in `pending` until the engine folds them in, in slices, before it
 * evaluates. An evaluation itself reads the totals of the range's time slots (a percentile sorts
 * the numbers of the slots in range, a distinct count joins their values): a few milliseconds at
 * 100,000 records.
 */
export class RuleRun {
  agg: Aggregator;
  passes: (data: Data) => boolean;
  /** The source's types and time field the totals were counted under. */
  private countedUnder: string;
  /** Changes of the source not yet in the totals, in the order they happened. */
  pending: RecordChange[] = [];
  /** The records are being counted anew: no evaluation until that is done. */
  counting = false;
  state: AlertState;
  stateSince: number;
  /** When the value began to break the condition (while holding for forSeconds). */
  breakingSince: number | null = null;
  /** When a record passing the filters last arrived (no-data rules). */
  lastDataAt: number;
  lastNotifiedAt: number | null;
  lastValue: number | null;
  lastEvalAt = 0;
  /** Evaluations made (at most a few a second, whatever the write rate). */
  evaluations = 0;
  /** A value not yet saved to the rule's document (the console's "last value"). */
  dirty = false;
  timers = new Map<string, NodeJS.Timeout>();
  /** A state change being written: evaluations wait for it. */
  busy: Promise<void> | null = null;

  constructor(
    public doc: AlertDoc,
    source: DataSourceDto,
    now: number,
  ) {
    this.countedUnder = countingKey(source);
    [this.agg, this.passes] = emptyTotals(doc, source, now);
    this.state = doc.state;
    this.stateSince = new Date(doc.stateSince).getTime();
    this.lastNotifiedAt = doc.lastNotifiedAt ? new Date(doc.lastNotifiedAt).getTime() : null;
    this.lastValue = doc.lastValue;
    this.lastDataAt = now;
  }

  /** Whether the source's types or time field changed since the totals were counted. */
  needsRecount(source: DataSourceDto): boolean {
    return countingKey(source) !== this.countedUnder;
  }

  /**
   * Counts a snapshot of the source's records into fresh totals, giving the loop a turn at each
   * slice; the changes that happen meanwhile wait in `pending` (the snapshot is taken before them).
   * Answers when the newest record passing the filters was written (0: none), or null when
   * `stillWanted` said to stop (the rule was dropped or changed meanwhile).
   */
  async countInSlices(source: DataSourceDto, snapshot: readonly HeldRecord[], now: number, slicer: Slicer, stillWanted: () => boolean): Promise<number | null> {
    this.counting = true;
    this.pending = [];
    const key = countingKey(source);
    const [agg, passes] = emptyTotals(this.doc, source, now);
    let newest = 0;
    try {
      for (const r of snapshot) {
        agg.update(undefined, r.data);
        if (r.at > newest && passes(r.data)) newest = r.at;
        if (slicer.due()) {
          await slicer.pause();
          if (!stillWanted()) return null;
        }
      }
      [this.agg, this.passes, this.countedUnder] = [agg, passes, key];
      return newest;
    } finally {
      this.counting = false;
    }
  }

  /** Folds the waiting changes into the totals in slices (stopping when a recount begins: its snapshot holds them). */
  async foldInSlices(slicer: Slicer): Promise<void> {
    while (!this.counting && this.pending.length) {
      for (const c of this.pending.splice(0, FOLD_BATCH)) this.agg.update(c.before, c.after);
      await slicer.tick();
    }
  }

  /** Folds what still waits at once (little: the engine folds in slices before it evaluates). */
  private foldNow(): void {
    if (this.counting) return;
    for (const c of this.pending.splice(0)) this.agg.update(c.before, c.after);
  }

  /** The rule's number now (the waiting changes folded in, a sliding range moved to `now` first). */
  value(now: number): number | null {
    this.foldNow();
    if (this.agg.sliding) this.agg.advance(now);
    return this.doc.noDataSeconds !== null ? this.agg.size : this.agg.value();
  }

  timer(name: string, at: number | null, fn: () => void): void {
    const held = this.timers.get(name);
    if (held) clearTimeout(held);
    this.timers.delete(name);
    if (at === null) return;
    const t = setTimeout(() => {
      this.timers.delete(name);
      fn();
    }, Math.max(0, at - Date.now()));
    t.unref();
    this.timers.set(name, t);
  }

  stop(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
