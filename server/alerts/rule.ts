import { ALERT_OPERATOR_WORDS, type AlertCondition, type AlertState } from '@common/schemas/alert';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { KpiConfig } from '@common/schemas/widgets/widget';
import type { FieldTyping } from '@common/types/fieldTyping';
import { Aggregator, aggregateSpec, type DataHolder } from '@common/widgets/aggregate';
import { compileFilters } from '@common/widgets/filters';
import type { AlertDoc } from './models';

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

/** The rule's totals (the aggregator a KPI with its settings gets) over the records, and its filter test. */
function count(doc: AlertDoc, source: DataSourceDto, records: Iterable<DataHolder>, now: number): [Aggregator, (data: Data) => boolean] {
  const typing = typingOf(source);
  const config = {
    metric: doc.metric, valueField: doc.valueField ?? undefined, filters: doc.filters, range: doc.range, dateField: doc.dateField ?? undefined,
    compare: false, sparkline: false,
  } as unknown as KpiConfig;
  const agg = new Aggregator(aggregateSpec('kpi', config, typing, source.timeField), () => [], now);
  agg.reset(records);
  return [agg, compileFilters(doc.filters, typing)];
}

/**
 * One rule as the evaluating process holds it: its number kept up to date record by record with
 * the widgets' own aggregator (the same spec a KPI with these settings gets), and the timing of
 * its state: since when it breaks (forSeconds), when data last came (no data).
 */
export class RuleRun {
  agg: Aggregator;
  passes: (data: Data) => boolean;
  /** The source's types and time field the totals were counted under. */
  private countedUnder: string;
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
    records: Iterable<DataHolder>,
    now: number,
  ) {
    this.countedUnder = countingKey(source);
    [this.agg, this.passes] = count(doc, source, records, now);
    this.state = doc.state;
    this.stateSince = new Date(doc.stateSince).getTime();
    this.lastNotifiedAt = doc.lastNotifiedAt ? new Date(doc.lastNotifiedAt).getTime() : null;
    this.lastValue = doc.lastValue;
    this.lastDataAt = now;
  }

  /** Counts again when the source's types or time field changed; false when they did not. */
  recount(source: DataSourceDto, records: Iterable<DataHolder>, now: number): boolean {
    const key = countingKey(source);
    if (key === this.countedUnder) return false;
    this.countedUnder = key;
    [this.agg, this.passes] = count(this.doc, source, records, now);
    return true;
  }

  /** The rule's number now (a sliding range moved to `now` first). */
  value(now: number): number | null {
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
