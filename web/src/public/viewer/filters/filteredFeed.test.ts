import { afterEach, describe, expect, it, vi } from 'vitest';
import { agingOf, compileChoices } from '@common/filterBar';
import type { DashboardFilter } from '@common/schemas/widgets/dashboardFilter';
import { createStore } from 'zustand';
import type { RecordDto } from '@common/schemas/records/record';
import { emptyRecords, recordKeeper, type RecordsState } from '../recordStore';
import { SLICE_FROM } from '../widgets/slicedRecount';
import { storeFeed } from '../widgets/widgetContext';
import { FilteredFeed } from './filteredFeed';
import { readChoices, writeChoice } from './filterUrl';

const record = (id: number, team: string, revision = 1): RecordDto => ({ id: `o${id}`, recordId: String(id), data: { team }, keyOrder: ['team'], createdAt: '', lastUpdated: `t${revision}`, revision });
const blue = (d: Record<string, unknown>) => d.team === 'blue';

function source(records: RecordDto[]) {
  const store = createStore<RecordsState>(() => ({ ...emptyRecords(), version: 0 }));
  const keeper = recordKeeper(store);
  keeper.load(records, 1);
  return { store, keeper, feed: storeFeed(store) };
}

describe('the filtered feed of the filter bar', () => {
  it('holds the matching records and turns each pushed change into a change of its own (entering, changing, leaving)', () => {
    const s = source([record(1, 'blue'), record(2, 'red'), record(3, 'blue')]);
    const f = new FilteredFeed(s.feed);
    expect(f.get().order).toEqual(['1', '2', '3']);
    f.setTest(blue);
    const first = f.get();
    expect(first.order).toEqual(['1', '3']);
    s.keeper.upserted({ dataSourceId: 'd', revision: 2, total: 4, part: 0, parts: 1, records: [record(4, 'blue', 2), record(1, 'red', 2), record(2, 'red', 2)] });
    const next = f.get();
    expect(next.order).toEqual(['3', '4']);
    expect(next.version).toBe(first.version + 1);
    expect(next.change).toMatchObject({ version: next.version, upserted: ['4'], removed: ['1'] });
    expect(next.change!.previous.get('1')?.data.team).toBe('blue');
    s.keeper.removed({ dataSourceId: 'd', revision: 3, total: 3, part: 0, parts: 1, recordIds: ['3', '2'], all: false });
    expect(f.get().order).toEqual(['4']);
    expect(f.get().change).toMatchObject({ upserted: [], removed: ['3'] });
    // No test: every record again, under a newer version of its own.
    const v = f.get().version;
    f.setTest(null);
    expect(f.get().order).toEqual(['1', '4']);
    expect(f.get().records).toBe(s.store.getState().records);
    expect(f.get().version).toBeGreaterThan(v);
  });

  it('filters a large store again in slices, keeping the previous records until it is done', () => {
    const n = SLICE_FROM + 5_000;
    const s = source(Array.from({ length: n }, (_, i) => record(i, i % 4 === 0 ? 'blue' : 'red')));
    const queue: (() => void)[] = [];
    let clock = 0;
    const f = new FilteredFeed(s.feed, { schedule: (step) => void queue.push(step), sliceMs: 5, now: () => (clock += 1) });
    const all = f.get();
    expect(all.order).toHaveLength(n);
    f.setTest(blue);
    expect(f.get()).toBe(all);
    let tasks = 0;
    while (queue.length) {
      queue.shift()!();
      tasks++;
    }
    expect(tasks).toBeGreaterThan(1);
    expect(f.slicedPasses).toBe(1);
    expect(f.get().order).toHaveLength(n / 4);
    expect(f.get().change).toBeNull();
  });
});

describe('a relative date range in the filter bar', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const MIN = 60_000;
  const at = (id: number, t: number, revision = 1): RecordDto => ({ id: `o${id}`, recordId: String(id), data: { at: new Date(t).toISOString() }, keyOrder: ['at'], createdAt: '', lastUpdated: `t${revision}`, revision });
  const FILTERS: DashboardFilter[] = [{ id: 'd', kind: 'date', field: 'at', range: { kind: 'relative', last: '15m' } }];

  it('lets each record go the moment it ages out, as a change of its own, and takes records pushed later', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 24, 12, 0) });
    const t0 = Date.now();
    const s = source([at(1, t0 - 14 * MIN), at(2, t0 - 5 * MIN), at(3, t0 - 20 * MIN)]);
    const f = new FilteredFeed(s.feed);
    f.setTest(compileChoices(FILTERS, {}), agingOf(FILTERS, {}));
    expect(f.get().order.sort()).toEqual(['1', '2']);
    const v = f.get().version;

    // A minute and a bit later, record 1 (14 minutes old) has left; record 2 stays; no refilter.
    vi.advanceTimersByTime(MIN + 1);
    expect(f.get().order).toEqual(['2']);
    expect(f.get().version).toBe(v + 1);
    expect(f.get().change).toMatchObject({ upserted: [], removed: ['1'], version: v + 1 });
    expect(f.slicedPasses).toBe(0);

    // Pushed after the test was made, stamped now: it passes (the range has no end).
    s.keeper.upserted({ dataSourceId: 'd', revision: 2, total: 4, part: 0, parts: 1, records: [at(4, Date.now())] });
    expect(f.get().order.sort()).toEqual(['2', '4']);
    // Record 2 is moved on in time by an update: it stays past its first leaving time.
    s.keeper.upserted({ dataSourceId: 'd', revision: 3, total: 4, part: 0, parts: 1, records: [at(2, Date.now(), 3)] });
    vi.advanceTimersByTime(10 * MIN);
    expect(f.get().order.sort()).toEqual(['2', '4']);
    // Fifteen minutes after they were stamped, both go.
    vi.advanceTimersByTime(5 * MIN + 2);
    expect(f.get().order).toEqual([]);
    expect(f.get().change?.removed.sort()).toEqual(['2', '4']);
  });

  it('takes a record out of the middle of the order as well as off its ends', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 24, 12, 0) });
    const t0 = Date.now();
    const s = source([at(1, t0 - 5 * MIN), at(2, t0 - 14 * MIN), at(3, t0 - 6 * MIN)]);
    const f = new FilteredFeed(s.feed);
    f.setTest(compileChoices(FILTERS, {}), agingOf(FILTERS, {}));
    expect(f.get().order).toEqual(['1', '2', '3']);
    vi.advanceTimersByTime(MIN + 1);
    expect(f.get().order).toEqual(['1', '3']);
    // Record 3 (6 minutes old) leaves at 9 minutes from now, record 1 at 10.
    vi.advanceTimersByTime(8.5 * MIN);
    expect(f.get().order).toEqual(['1']);
    vi.advanceTimersByTime(MIN);
    expect(f.get().order).toEqual([]);
  });

  it('keeps no timer once the range is all time again', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 24, 12, 0) });
    const s = source([at(1, Date.now() - MIN)]);
    const f = new FilteredFeed(s.feed);
    f.setTest(compileChoices(FILTERS, {}), agingOf(FILTERS, {}));
    f.get();
    expect(vi.getTimerCount()).toBe(1);
    f.setTest(null);
    f.get();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the filter bar in the URL', () => {
  const filters = [
    { id: 'g', kind: 'category' as const, field: 'genre' },
    { id: 'd', kind: 'date' as const, field: 'released', range: { kind: 'relative' as const, last: '7d' as const } },
    { id: 'n', kind: 'number' as const, field: 'rating' },
  ];
  it('writes each choice and reads it back; a default is left out; other parameters stay', () => {
    let q = new URLSearchParams('tv=1');
    q = writeChoice(q, filters[0], { kind: 'category', values: ['Drama', 'A, B'] });
    q = writeChoice(q, filters[1], { kind: 'date', range: { kind: 'calendar', period: 'month', previous: true } });
    q = writeChoice(q, filters[2], { kind: 'number', min: 5, max: null });
    expect(q.toString()).toBe('tv=1&f.g=Drama&f.g=A%2C+B&f.d=prev%3Amonth&f.n=5..');
    expect(readChoices(filters, q)).toEqual({
      g: { kind: 'category', values: ['Drama', 'A, B'] },
      d: { kind: 'date', range: { kind: 'calendar', period: 'month', previous: true } },
      n: { kind: 'number', min: 5, max: null },
    });
    expect(writeChoice(q, filters[1], { kind: 'date', range: { kind: 'relative', last: '7d' } }).has('f.d')).toBe(false);
    const fixed = writeChoice(q, filters[1], { kind: 'date', range: { kind: 'fixed', from: '2001-01-01T00:00:00.000Z', to: '2002-01-01T00:00:00.000Z' } });
    expect(readChoices(filters, fixed).d).toEqual({ kind: 'date', range: { kind: 'fixed', from: '2001-01-01T00:00:00.000Z', to: '2002-01-01T00:00:00.000Z' } });
  });
  it('ignores what it cannot read (the filter keeps its default)', () => {
    expect(readChoices(filters, new URLSearchParams('f.d=last:3y&f.n=x..y'))).toEqual({
      g: { kind: 'category', values: [] }, d: { kind: 'date', range: { kind: 'relative', last: '7d' } }, n: { kind: 'number', min: null, max: null },
    });
  });
});
