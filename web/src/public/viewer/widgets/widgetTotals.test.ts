import { describe, expect, it, vi } from 'vitest';
import type { RecordDto } from '@common/schemas/records/record';
import { Aggregator, type AggregateSpec } from '@common/widgets/aggregate';
import type { RecordsChange } from '../viewerStore';
import { SLICE_FROM } from './slicedRecount';
import type { RecordFeed } from './widgetContext';
import { WidgetTotals } from './widgetTotals';

const spec: AggregateSpec = { metric: 'sum', groupField: 'status', valueField: 'n' };
const record = (i: number, status: string, n: number) => ({ recordId: String(i), data: { status, n } }) as unknown as RecordDto;

/**
 * A record store as the viewer's: records by id (changed in place, as the viewer's store does on a
 * pushed upsert), a version per change, and what the last change replaced.
 */
function feedOf(size: number) {
  let state = { records: new Map(Array.from({ length: size }, (_, i) => [String(i), record(i, i % 2 ? 'open' : 'closed', i % 10)])), version: 1, change: null as RecordsChange | null, order: [] as string[] };
  const listeners = new Set<() => void>();
  const feed: RecordFeed = { get: () => state, subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) };
  const upsert = (r: RecordDto) => {
    const previous = new Map(state.records.has(r.recordId) ? [[r.recordId, state.records.get(r.recordId)!]] : []);
    state.records.set(r.recordId, r);
    state = { ...state, version: state.version + 1, change: { version: state.version + 1, upserted: [r.recordId], removed: [], previous } };
    listeners.forEach((l) => l());
  };
  return { feed, upsert, listeners };
}

/** A clock that moves 1 ms each time it is read, and a task queue run by hand: slices of 3 ms are 3 × 1,024 records. */
function slicing() {
  let t = 0;
  const queue: (() => void)[] = [];
  return { now: () => t++, schedule: (step: () => void) => void queue.push(step), sliceMs: 3, runOne: () => queue.shift()?.(), pending: () => queue.length };
}

const recount = (records: Map<string, RecordDto>) => {
  const a = new Aggregator(spec);
  a.reset(records.values());
  return a.top();
};

describe('a widget\'s totals over a large store', () => {
  it('count in slices with nothing shown until the first count is done, then follow changes made meanwhile', () => {
    const { feed, upsert } = feedOf(SLICE_FROM + 5_000);
    const clock = slicing();
    const totals = new WidgetTotals(spec, feed, clock);
    let notified = 0;
    const off = totals.subscribe(() => notified++);
    // Under way: no totals yet (-1), and asking again does not start a second count.
    expect(totals.snapshot()).toBe(-1);
    expect(totals.snapshot()).toBe(-1);
    // A change before the first slice is part of what it counts (the records are read in that slice)...
    upsert(record(1, 'pending', 1000));
    expect(totals.snapshot()).toBe(-1);
    expect(clock.pending()).toBe(1);
    clock.runOne();
    // ...one during the count is not: it is applied record by record when the count is done.
    upsert(record(2, 'pending', 5));
    notified = 0;
    while (clock.pending()) clock.runOne();
    // Done: the listeners hear of it once, and the totals reflect the version the counted records held.
    expect(totals.version).toBe(2);
    expect(notified).toBe(1);
    expect(totals.snapshot()).toBe(3);
    expect(totals.aggregator.top()).toEqual(recount(feed.get().records));
    upsert(record(3, 'pending', 7));
    expect(totals.snapshot()).toBe(4);
    expect(totals.aggregator.top()).toEqual(recount(feed.get().records));
    off();
  });

  it('count a small store at once', () => {
    const { feed } = feedOf(100);
    const totals = new WidgetTotals(spec, feed, { schedule: () => { throw new Error('no slices for 100 records'); } });
    expect(totals.snapshot()).toBe(1);
    expect(totals.aggregator.top()).toEqual(recount(feed.get().records));
  });

  it('stop counting when the widget goes away', () => {
    const { feed } = feedOf(SLICE_FROM + 5_000);
    const clock = slicing();
    const totals = new WidgetTotals(spec, feed, clock);
    expect(totals.snapshot()).toBe(-1);
    totals.stop();
    while (clock.pending()) clock.runOne();
    expect(totals.version).toBeNull();
  });

  it('slides a relative range by itself on a timer at each slot boundary: records age out with no change to the feed and no recount', () => {
    vi.useFakeTimers({ now: new Date(2026, 2, 10, 12, 0, 30) });
    try {
      const now = Date.now();
      const { feed } = feedOf(0);
      // One record a minute over the last 20 minutes: "Last 15 minutes" holds the 15 newest (the current minute included).
      for (let i = 0; i < 20; i++) feed.get().records.set(String(i), { recordId: String(i), data: { at: new Date(now - i * 60_000).toISOString() } } as unknown as RecordDto);
      const sliding: AggregateSpec = { metric: 'count', dateField: 'at', range: { kind: 'relative', last: '15m' } };
      const totals = new WidgetTotals(sliding, feed);
      let notified = 0;
      const off = totals.subscribe(() => notified++);
      totals.snapshot();
      expect(totals.aggregator.value()).toBe(15);
      const counted = totals.aggregator;
      // 12:01:00 (and a few ms): the window moves on by a minute.
      vi.advanceTimersByTime(31_000);
      expect(notified).toBe(1);
      expect(totals.aggregator.value()).toBe(14);
      vi.advanceTimersByTime(60_000);
      expect(totals.aggregator.value()).toBe(13);
      // The same totals, moved: not a recount; the feed never changed.
      expect(totals.aggregator).toBe(counted);
      expect(feed.get().version).toBe(1);
      off();
      vi.advanceTimersByTime(600_000);
      expect(notified).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
