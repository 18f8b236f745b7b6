import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';

/** How many database commands a write costs (never how long): the offline engine pays each one in time growing with the square of the collection. */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(() => s.reset());
afterEach(() => vi.restoreAllMocks());

const newSource = async (body: Record<string, unknown>) => (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Commands', ...body } })).body as { id: string; sourceId: string };

describe('the commands one write costs', () => {
  it('inserts 3,000 new records of one request with one insertMany (not one per 1,000)', async () => {
    const ds = await newSource({ primaryKey: 'id' });
    const inserts = vi.spyOn(s.app.ctx.models.Record, 'insertMany');
    const res = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: Array.from({ length: 3000 }, (_, id) => ({ id })) });
    expect(res.body).toMatchObject({ inserted: 3000 });
    expect(inserts).toHaveBeenCalledTimes(1);
  }, 60_000);

  it('removes a flush\'s excess over maxRecords inside the flush; the count moves by what was written, without a recount', async () => {
    const ds = await newSource({ appendOnly: true, retention: { maxRecords: 5 } });
    expect((await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: Array.from({ length: 5 }, (_, n) => ({ n })) })).status).toBe(200);
    const counts = vi.spyOn(s.app.ctx.models.Record, 'countDocuments');
    const removed: { recordIds: string[]; revision: number }[] = [];
    const upserted: number[] = [];
    const offRemoved = s.app.ctx.events.on('records.removed', (e) => void removed.push(e));
    const offUpserted = s.app.ctx.events.on('records.upserted', (e) => void upserted.push(e.revision));
    const res = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: [{ n: 5 }, { n: 6 }, { n: 7 }] });
    offRemoved();
    offUpserted();
    expect(res.body).toMatchObject({ inserted: 3 });
    expect(counts).not.toHaveBeenCalled();
    // Viewers apply the removal of the three oldest first (its own revision), then the write right
    // after it: no viewer ever holds more than maxRecords.
    expect(removed).toHaveLength(1);
    expect(removed[0].recordIds).toHaveLength(3);
    expect(removed[0].revision).toBe(upserted[0] - 1);
    const raw = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=10`)).body as { total: number; records: { data: { n: number } }[] };
    expect(raw.total).toBe(5);
    expect(raw.records.map((r) => r.data.n).sort()).toEqual([3, 4, 5, 6, 7]);
    const listed = ((await s.http('GET', '/api/data/sources')).body as { id: string; recordCount: number }[]).find((d) => d.id === ds.id)!;
    expect(listed.recordCount).toBe(5);
  });

  it('plans keys that keep coming new without reading them first; a stored key among them still lands as an update', async () => {
    const ds = await newSource({ primaryKey: 'id' });
    const finds = vi.spyOn(s.app.ctx.models.Record, 'find');
    const keyReads = () => finds.mock.calls.filter(([filter]) => filter && 'recordId' in (filter as object)).length;
    const post = async (body: unknown[]) => (await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body })).body;

    expect(await post([{ id: 1 }, { id: 2 }, { id: 3 }])).toMatchObject({ inserted: 3, updated: 0 });
    expect(await post([{ id: 4 }, { id: 5 }])).toMatchObject({ inserted: 2, updated: 0 });
    expect(keyReads()).toBe(0);
    // Key 5 is stored: the insert meets it, what landed is undone, and the write is planned again with the reads.
    expect(await post([{ id: 6 }, { id: 5, note: 'again' }, { id: 7 }])).toMatchObject({ inserted: 2, updated: 1 });
    expect(keyReads()).toBe(1);
    // After a flush that updated, the next one reads first.
    expect(await post([{ id: 8 }])).toMatchObject({ inserted: 1, updated: 0 });
    expect(keyReads()).toBe(2);

    const raw = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=20`)).body as { total: number; records: { data: { id: number; note?: string } }[] };
    expect(raw.total).toBe(8);
    expect(raw.records.map((r) => r.data.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(raw.records.find((r) => r.data.id === 5)!.data.note).toBe('again');
    const listed = ((await s.http('GET', '/api/data/sources')).body as { id: string; recordCount: number }[]).find((d) => d.id === ds.id)!;
    expect(listed.recordCount).toBe(8);
  });
});
