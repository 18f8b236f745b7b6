import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { Aggregator, type AggregateSpec } from '@common/widgets/aggregate';
import { SLICE_FROM, recountInSlices, type SlicingOptions } from './slicedRecount';
import { followsChange, syncAggregator, useWidgetEnv, type RecordFeed } from './widgetContext';

/**
 * One widget's totals kept in step with the feed: a change that touched some records moves only
 * those records' parts (common/widgets/aggregate.ts); a missed or unknown change recounts — at once
 * for a store under SLICE_FROM records, in slices for a larger one, with the previous totals kept
 * on screen until the recount is done, so no frame waits for 100,000 records.
 */
export class WidgetTotals {
  aggregator: Aggregator;
  /** The feed version the totals reflect; null until the first count is done. */
  version: number | null = null;
  private cancelRecount: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();

  /** `slicing` sets how a recount is sliced (tests give a clock and a scheduler). */
  constructor(private readonly spec: AggregateSpec, private readonly feed: RecordFeed, private readonly slicing: SlicingOptions = {}) {
    this.aggregator = this.fresh();
  }

  /** For useSyncExternalStore: the feed's changes, and a finished recount. */
  subscribe = (listener: () => void): (() => void) => {
    const off = this.feed.subscribe(listener);
    this.listeners.add(listener);
    return () => {
      off();
      this.listeners.delete(listener);
    };
  };

  /** For useSyncExternalStore: brings the totals up to the feed where that is quick; the version they reflect (-1: none yet). */
  snapshot = (): number => {
    const s = this.feed.get();
    if (this.cancelRecount === null && this.version !== s.version) {
      if (followsChange(s, this.version) || s.records.size < SLICE_FROM) {
        syncAggregator(this.aggregator, s, this.version);
        this.version = s.version;
      } else {
        this.recount();
      }
    }
    return this.version ?? -1;
  };

  /** Abandons a recount under way (the widget went away or changed its settings). */
  stop(): void {
    this.cancelRecount?.();
    this.cancelRecount = null;
  }

  private fresh(): Aggregator {
    return new Aggregator(this.spec, () => this.feed.get().records.values());
  }

  private recount(): void {
    // The version the counted records hold: read with them, in the first slice.
    let version = 0;
    const take = () => {
      const s = this.feed.get();
      version = s.version;
      return s.records.values();
    };
    this.cancelRecount = recountInSlices(this.spec, () => this.feed.get().records.values(), take, (done) => {
      this.cancelRecount = null;
      this.aggregator = done;
      this.version = version;
      // Changes made meanwhile are applied (or recounted) by the snapshot the listeners ask for.
      for (const l of [...this.listeners]) l();
    }, this.slicing);
  }
}

/**
 * An aggregator kept in step with the widget environment's feed. Returns it, the feed version it
 * reflects (a new version re-renders the widget), and whether the first count is still under way.
 */
export function useAggregator(spec: AggregateSpec): { aggregator: Aggregator; version: number; counting: boolean } {
  const { feed } = useWidgetEnv();
  const key = JSON.stringify(spec);
  // The spec's content (key) decides when to start over, not its identity.
  const totals = useMemo(() => new WidgetTotals(JSON.parse(key) as AggregateSpec, feed), [key, feed]);
  const version = useSyncExternalStore(totals.subscribe, totals.snapshot);
  // A recount under way ends with the widget (or its settings); React's subscription asks for a new one when it mounts again.
  useEffect(() => () => totals.stop(), [totals]);
  return { aggregator: totals.aggregator, version, counting: version === -1 };
}
