import { bucketStart, shiftBucket, TIME_BUCKETS, type TimeBucket, type TimeRange } from '../../time/timeRanges';
import { comparison, type Comparison } from '../aggregateSpec';
import type { Aggregator } from '../aggregate';

/**
 * What a KPI's "Compare" compares its number with: the period before its range ("▲ 12% vs the
 * previous 24 hours", "— vs the previous 24 hours" when nothing was there); or, where the range
 * has no period before it of its own — all time, or fixed dates over history whose previous period
 * holds no record — the latest bucket in the data against the one before it ("▲ 0.2% vs Nov 2015").
 * A range counted back from now ("last 24 hours", "this month") keeps its previous period even when
 * empty: a new kind of record is news, not a change between two of its buckets.
 */
export type KpiComparison = Comparison & (
  | { against: 'period' }
  | {
    against: 'bucket'; bucket: TimeBucket;
    /** The latest bucket holding records (epoch ms), and the metric over it (the KPI's own number is over the whole range). */ latest: number; value: number | null;
    /** The bucket before it. */ before: number;
  }
);

/**
 * The bucket the latest data is compared by: `chosen` (a sparkline's own bucket) when given, else
 * the records' own spacing — the smallest bucket whose previous one reaches back to the records
 * before the latest (monthly figures: the month; daily: the day; Mondays to Fridays: the week).
 * Never finer than the slots the aggregator keeps.
 */
function comparisonBucket(newest: number, second: number, slot: TimeBucket, chosen?: TimeBucket): TimeBucket {
  const coarsest = (a: TimeBucket, b: TimeBucket) => (TIME_BUCKETS.indexOf(a) >= TIME_BUCKETS.indexOf(b) ? a : b);
  if (chosen) return coarsest(chosen, slot);
  const spaced = TIME_BUCKETS.find((b) => shiftBucket(bucketStart(newest, b), b, -1) <= second) ?? 'year';
  return coarsest(spaced, slot);
}

/** The comparison a KPI with `compare` shows (see KpiComparison); null when its range holds fewer than two buckets of records, or it reads no time. */
export function kpiComparison(aggregator: Aggregator, range: TimeRange, chosen?: TimeBucket): KpiComparison | null {
  const [newest, second] = aggregator.latestSlots();
  if (newest === undefined) return null;
  if (range.kind !== 'all' && (range.kind !== 'fixed' || aggregator.previousSize() > 0)) return { ...comparison(aggregator.value(), aggregator.previous()), against: 'period' };
  if (second === undefined) return null;
  const bucket = comparisonBucket(newest, second, aggregator.slot, chosen);
  const latest = bucketStart(newest, bucket);
  const before = shiftBucket(latest, bucket, -1);
  const value = aggregator.valueBetween(latest, shiftBucket(latest, bucket, 1));
  return { ...comparison(value, aggregator.valueBetween(before, latest)), against: 'bucket', bucket, latest, value, before };
}
