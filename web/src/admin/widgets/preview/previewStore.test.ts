import { describe, expect, it } from 'vitest';
import type { RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { RecordDto } from '@common/schemas/records/record';
import { Aggregator } from '@common/widgets/aggregate';
import { orderedRecords } from '../../../public/viewer/recordStore';
import { syncAggregator } from '../../../public/viewer/widgets/widgetContext';
import { PreviewRecords } from './previewStore';

const SOURCE = 'ds1';
const record = (id: number, status: string, revision: number): RecordDto => ({
  id: `o${id}`, recordId: String(id), data: { status }, keyOrder: ['status'], createdAt: '', lastUpdated: `t${revision}.${id}`, revision,
});
const upserted = (revision: number, records: RecordDto[], part = 0, parts = 1, dataSourceId = SOURCE): { kind: 'upserted'; e: RecordsUpserted } => ({
  kind: 'upserted', e: { dataSourceId, revision, total: 0, part, parts, records },
});
const removed = (revision: number, recordIds: string[], all = false): { kind: 'removed'; e: RecordsRemoved } => ({
  kind: 'removed', e: { dataSourceId: SOURCE, revision, total: 0, part: 0, parts: 1, recordIds, all },
});
const ids = (p: PreviewRecords) => orderedRecords(p.store.getState()).map((r) => r.recordId);

/** A preview loaded with records 1–3 at revision 5. */
function loaded(): PreviewRecords {
  const p = new PreviewRecords(SOURCE);
  p.fetching();
  p.loaded({ records: [record(1, 'open', 5), record(2, 'closed', 4), record(3, 'open', 5)], total: 3, revision: 5 });
  return p;
}

describe('the widget builder\'s live preview store', () => {
  it('applies the next revision (new records added, changed ones swapped), its other parts, and drops repeats and older ones', () => {
    const p = loaded();
    expect(p.store.getState()).toMatchObject({ status: 'ready', total: 3, revision: 5, stale: false });
    const before = p.store.getState().records.get('1');
    const first = upserted(6, [record(4, 'open', 6), record(1, 'closed', 6)], 0, 2);
    first.e.total = 4;
    expect(p.receive(first)).toBe('applied');
    const s = p.store.getState();
    expect(ids(p)).toEqual(['1', '2', '3', '4']);
    expect(s).toMatchObject({ revision: 6, total: 4 });
    expect(s.records.get('1')?.data.status).toBe('closed');
    expect(s.change).toMatchObject({ version: s.version, upserted: ['4', '1'], removed: [] });
    expect(s.change?.previous.get('1')).toBe(before);
    expect(p.receive(upserted(6, [record(5, 'open', 6)], 1, 2))).toBe('applied');
    expect(p.receive(upserted(6, [record(5, 'open', 6)], 1, 2))).toBe('dropped');
    expect(p.receive(upserted(5, [record(9, 'open', 5)]))).toBe('dropped');
    expect(p.receive(upserted(7, [record(9, 'open', 7)], 0, 1, 'another source'))).toBe('dropped');
    expect(ids(p)).toEqual(['1', '2', '3', '4', '5']);
    // The revision the first page came at is already held.
    expect(loaded().receive(upserted(5, [record(9, 'open', 5)]))).toBe('dropped');
  });

  it('marks itself stale on a missed revision and takes a new page as the truth', () => {
    const p = loaded();
    const version = p.store.getState().version;
    expect(p.receive(upserted(8, [record(4, 'open', 8)]))).toBe('stale');
    expect(p.store.getState()).toMatchObject({ stale: true, version, revision: 5 });
    expect(ids(p)).toEqual(['1', '2', '3']);
    p.fetching();
    p.loaded({ records: [record(1, 'open', 5), record(4, 'open', 8)], total: 2, revision: 8 });
    expect(p.store.getState()).toMatchObject({ stale: false, revision: 8, total: 2 });
    expect(ids(p)).toEqual(['1', '4']);
    // Unchanged records keep their objects; the change names what moved.
    expect(p.store.getState().change).toMatchObject({ upserted: ['4'], removed: ['2', '3'] });
  });

  it('holds deltas that arrive during a fetch and applies those after the page\'s revision', () => {
    const p = loaded();
    p.fetching();
    expect(p.receive(upserted(6, [record(4, 'open', 6)]))).toBe('waiting');
    expect(p.receive(upserted(7, [record(5, 'open', 7)]))).toBe('waiting');
    // The page already holds revision 6.
    p.loaded({ records: [record(1, 'open', 5), record(4, 'open', 6)], total: 2, revision: 6 });
    expect(ids(p)).toEqual(['1', '4', '5']);
    expect(p.store.getState()).toMatchObject({ revision: 7, stale: false });
  });

  it('removes records by id and all of them with `all` (widgets then recount)', () => {
    const p = loaded();
    expect(p.receive(removed(6, ['2', 'unknown']))).toBe('applied');
    expect(ids(p)).toEqual(['1', '3']);
    expect(p.store.getState().change).toMatchObject({ upserted: [], removed: ['2'] });
    expect(p.store.getState().change?.previous.get('2')?.data.status).toBe('closed');
    expect(p.receive(removed(7, [], true))).toBe('applied');
    expect(ids(p)).toEqual([]);
    expect(p.store.getState()).toMatchObject({ revision: 7, change: null });
  });

  it('keeps widget totals in step through its changes without recounting', () => {
    const p = loaded();
    const aggregator = new Aggregator({ metric: 'count', groupField: 'status' });
    let resets = 0;
    const reset = aggregator.reset.bind(aggregator);
    aggregator.reset = (records) => {
      resets++;
      reset(records);
    };
    let seen: number | null = null;
    const step = () => {
      syncAggregator(aggregator, p.store.getState(), seen);
      seen = p.store.getState().version;
      const recount = new Aggregator({ metric: 'count', groupField: 'status' });
      recount.reset(orderedRecords(p.store.getState()));
      expect(aggregator.top()).toEqual(recount.top());
    };
    step();
    p.receive(upserted(6, [record(4, 'open', 6), record(1, 'closed', 6)]));
    step();
    p.receive(removed(7, ['3']));
    step();
    expect(resets).toBe(1);
    p.receive(removed(8, [], true));
    step();
    expect(resets).toBe(2);
  });
});

describe('the preview reads every page', () => {
  it('adds a later page\'s records, keeping a newer version a pushed change brought, and says when the last page is in', () => {
    const p = new PreviewRecords(SOURCE);
    p.fetching();
    p.loaded({ records: [record(1, 'open', 5), record(2, 'closed', 5)], total: 4, revision: 5 });
    expect(p.store.getState().loadingMore).toBe(true);
    expect(p.receive(upserted(6, [record(3, 'closed', 6)]))).toBe('applied');
    p.more([record(3, 'open', 4), record(4, 'open', 5)], true);
    const s = p.store.getState();
    expect(ids(p)).toEqual(['1', '2', '3', '4']);
    expect(s.records.get('3')?.data.status).toBe('closed');
    expect(s).toMatchObject({ revision: 6, loadingMore: false });
  });
});
