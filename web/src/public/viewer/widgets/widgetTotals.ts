import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { Aggregator, type AggregateSpec } from '@common/widgets/aggregate';
import { SLICE_FROM, recountInSlices, type SlicingOptions } from './slicedRecount';
import { followsChange, syncAggregator, useWidgetEnv, type RecordFeed } from './widgetContext';

/**
 * One widget's totals kept in step with the feed: a change that touched some records moves only
 * those records' parts (common/widgets/aggregate.ts); a missed or unknown change recounts — at once
 * for a store under SLICE_FROM records, in slices for a larger one, with the previous totals kept
 * on screen until the recount is done, so no frame waits for 100,000 records.
 *
 * A relative or calendar range slides by itself: at each slot boundary a timer moves the window
 * (Aggregator.advance drops the slots that left it), with no push and no recount.
 */
export class WidgetTotals {
  aggregator: Aggregator;
  /** The feed version the totals reflect; null until the first count is done. */
  version: number | null = null;
  private cancelRecount: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();
  /** Moves of the window so far (part of the snapshot, so a move re-renders the widget). */
  moves = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `slicing` sets how a recount is sliced (tests give a clock and a scheduler). */
  constructor(private readonly spec: AggregateSpec, private readonly feed: RecordFeed, private readonly slicing: SlicingOptions = {}) {
    this.aggregator = this.fresh();
  }

  /** For useSyncExternalStore: the feed's changes, and a finished recount. */
  subscribe = (listener: () => void): (() => void) => {
    const off = this.feed.subscribe(listener);
    this.listeners.add(listener);
    this.schedule();
    return () => {
      off();
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.unschedule();
    };
  };

  /** Sets the timer for the window's next move (a sliding range only). */
  private schedule(): void {
    if (this.timer !== null) return;
    const next = this.aggregator.nextChange();
    if (next === null) return;
    // At least 1 s: the slot boundary may be just behind us when the timer is set.
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick();
      if (this.listeners.size) this.schedule();
    }, Math.max(1000, next - Date.now() + 50));
  }

  private unschedule(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The window moves to now: the slots that left it go (no recount), and the widget draws again. */
  tick(now = Date.now()): void {
    this.aggregator.advance(now);
    this.moves += 1;
    for (const l of [...this.listeners]) l();
  }

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

  /** The snapshot and the window's moves, as one value a widget re-renders on. */
  state = (): string => `${this.snapshot()}:${this.moves}`;

  /** Abandons a recount under way (the widget went away or changed its settings). */
  stop(): void {
    this.cancelRecount?.();
    this.cancelRecount = null;
    this.unschedule();
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
      // Counted from records as they were when the recount began, at the window of then: moved to now.
      done.advance(Date.now());
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
export function useAggregator(spec: AggregateSpec): { aggregator: Aggregator; counting: boolean } {
  const { feed } = useWidgetEnv();
  const key = JSON.stringify(spec);
  // The aggregation's content (key) decides when to start over, not its identity.
  const totals = useMemo(() => new WidgetTotals(JSON.parse(key) as AggregateSpec, feed), [key, feed]);
  useSyncExternalStore(totals.subscribe, totals.state);
  // A recount under way ends with the widget (or its settings); React's subscription asks for a new one when it mounts again.
  useEffect(() => () => totals.stop(), [totals]);
  return { aggregator: totals.aggregator, counting: totals.version === null };
}
