import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startDatabase, type DatabaseHandle } from '../db/startDatabase';
import { createLogger } from '../log';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';
import { startRedis, startServerProcess } from '../test/processes';
import { join, next, nextWhere, openSocket } from '../test/sockets';

let redis: Awaited<ReturnType<typeof startRedis>>;
let db: DatabaseHandle;
let a: TestServer;
let b: Awaited<ReturnType<typeof startServerProcess>>;

beforeAll(async () => {
  redis = await startRedis();
  db = await startDatabase(loadConfig({ SEED_DEMO: 'false' }), createLogger('silent'));
  a = await startTestServer({ MONGODB_URI: db.uri, REDIS_URL: redis.url });
  b = await startServerProcess({ MONGODB_URI: db.uri, REDIS_URL: redis.url, ADMIN_TOKEN, SEED_DEMO: 'false' });
});
afterAll(async () => {
  await b?.stop();
  await a?.close();
  await db?.stop();
  await redis?.stop();
});

describe('two processes behind Redis', () => {
  it('delivers a record ingested through process A to a viewer connected to process B, and back', async () => {
    expect(b.log()).toContain('Redis adapter');
    const health = await (await fetch(`${b.url}/api/health`)).json();
    expect(health.realtime.adapter).toBe('redis');

    const ds = (await a.http('POST', '/api/admin/data-sources', { body: { name: 'Shared' } })).body;
    await a.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1 }] } });
    const dash = (await a.http('POST', '/api/admin/dashboards', { body: { name: 'Shared', dataSourceId: ds.id, isPublished: true } })).body;

    const viewerOnB = await openSocket(b.url);
    const viewerOnA = await openSocket(a.url);
    const adminOnA = await openSocket(a.url, ADMIN_TOKEN);
    try {
      expect(await join(viewerOnB, 'dashboard:join', dash.id)).toEqual({ ok: true, revision: 1 });
      await join(viewerOnA, 'dashboard:join', dash.id);
      const onB = next(viewerOnB, 'records:upserted');
      await a.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2, via: 'A' }] } });
      expect((await onB).records.map((r) => r.data)).toEqual([{ id: 2, via: 'A' }]);

      // A's own events of id 2 may still be on their way to its sockets (the Streams adapter
      // delivers local broadcasts once Redis has them): wait for the ones of B's write.
      const onA = nextWhere(viewerOnA, 'records:upserted', (e) => e.records.some((r) => r.data.via === 'B'));
      const adminHeard = nextWhere(adminOnA, 'admin:datasource:changed', (e) => e.dataSource.recordCount === 3);
      const res = await fetch(`${b.url}/api/data/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ sourceId: ds.sourceId, records: [{ id: 3, via: 'B' }] }),
      });
      expect(res.status).toBe(200);
      expect((await onA).records.map((r) => r.data)).toEqual([{ id: 3, via: 'B' }]);
      expect((await adminHeard).dataSource.recordCount).toBe(3);
    } finally {
      [viewerOnA, viewerOnB, adminOnA].forEach((s) => s.disconnect());
    }
  });
});
