import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ OFFLINE_ENGINE_WARN_RECORDS: '3' });
});
afterAll(() => s?.close());

describe('GET /api/admin/engine', () => {
  it('names the engine and, on the offline engine, says when the records collection passes the slow-write size', async () => {
    expect((await s.http('GET', '/api/admin/engine', { token: null })).status).toBe(401);
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'E' } })).body;
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1 }, { id: 2 }] } });
    const before = (await s.http('GET', '/api/admin/engine')).body;
    const offline = s.app.ctx.db.mode === 'embedded-jongodb';
    expect(before).toMatchObject({ engine: offline ? 'jongodb' : 'mongod', mode: s.app.ctx.db.mode, recordsCount: 2, nearSlowWrites: false });
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 3 }] } });
    const after = (await s.http('GET', '/api/admin/engine')).body;
    expect(after.recordsCount).toBe(3);
    if (offline) {
      expect(after).toMatchObject({ slowWriteRecords: 3, nearSlowWrites: true, appendOnlyDefaultMaxRecords: 5000 });
      expect(after.advice).toContain('MONGODB_URI');
    } else {
      expect(after).toMatchObject({ slowWriteRecords: null, nearSlowWrites: false, advice: null, appendOnlyDefaultMaxRecords: 100_000 });
    }
  });
});
