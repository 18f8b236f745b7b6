import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { activityHandle } from '../activity';
import { SOURCE_CACHE_MS } from './sourceCache';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_INGEST: '100000', RATE_LIMIT_AUTH_FAILURES: '100000' });
});
afterAll(() => s?.close());
beforeEach(() => s.reset());
afterEach(() => vi.restoreAllMocks());

const newSource = async (body: Record<string, unknown> = {}) => (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Hooks', ...body } })).body as { id: string; sourceId: string; ingestKey: string };
const total = async (id: string) => (await s.http('GET', `/api/data/raw?dataSourceId=${id}&limit=1`)).body.total as number;

describe('the write path reads no data source per request (sourceCache)', () => {
  it('looks a source up by ingest key or by name once for a run of single-record POSTs, not once a request', async () => {
    // Append-only from the start: a first ingest choosing the keying would change the source (and drop its cached look-ups).
    const ds = await newSource({ appendOnly: true });
    const { DataSource } = s.app.ctx.models;
    const reads: unknown[] = [];
    const findOne = DataSource.findOne.bind(DataSource);
    vi.spyOn(DataSource, 'findOne').mockImplementation(((filter: Record<string, unknown>, ...rest: unknown[]) => {
      // The look-ups by credential or by the URL's name (the flush's read by _id is one per flush, not per request).
      if (filter && ('ingestKeyHash' in filter || 'sourceId' in filter)) reads.push(filter);
      return findOne(filter, ...(rest as []));
    }) as typeof DataSource.findOne);
    const started = performance.now();
    for (let n = 0; n < 10; n++) {
      expect((await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: { n }, token: ds.ingestKey })).status).toBe(200);
      expect((await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: { n } })).status).toBe(200);
    }
    await activityHandle.of(s.app.ctx).flush();
    expect(await total(ds.id)).toBe(20);
    // One read by the key's hash and one by the sourceId, cached for the other 18 requests (and the
    // activity log's entries) — and again each time the cache's time ran out, on a machine slow enough
    // for that (a busy CI run took longer than SOURCE_CACHE_MS for the 20 requests; one window more
    // because the two look-ups' windows start at different requests, so a run can straddle both ends).
    const windows = Math.ceil((performance.now() - started) / SOURCE_CACHE_MS) + 1;
    expect(reads.length).toBeLessThanOrEqual(2 * windows);
  });

  it('writes nothing with a key another process replaced, though this process still has it cached', async () => {
    const ds = await newSource({ primaryKey: 'id' });
    expect((await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: { id: 1 }, token: ds.ingestKey })).status).toBe(200);
    // Another process rotates the key: no event reaches this one.
    await s.app.ctx.models.DataSource.updateOne({ _id: ds.id }, { $set: { ingestKeyHash: 'replaced-elsewhere' } });
    const post = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: { id: 2 }, token: ds.ingestKey });
    expect(post.status).toBe(401);
    expect(post.body.error.code).toBe('invalid_ingest_credential');
    const del = await s.http('DELETE', `/api/data/sources/${ds.sourceId}/records/1`, { token: ds.ingestKey });
    expect(del.status).toBe(401);
    expect(await total(ds.id)).toBe(1);
  });

  it('lets a key rotated in this process go at once', async () => {
    const ds = await newSource();
    expect((await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: { a: 1 }, token: ds.ingestKey })).status).toBe(200);
    expect((await s.http('POST', `/api/admin/data-sources/${ds.id}/ingest-key`)).status).toBe(200);
    expect((await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: { a: 2 }, token: ds.ingestKey })).status).toBe(401);
  });
});
