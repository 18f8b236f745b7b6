import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../test/harness';
import { useCluster } from '../test/cluster';
import { collect, join, next, openSocket } from '../test/sockets';

const cluster = useCluster();

describe('two processes behind Redis', () => {
  it('delivers a record ingested through process A to a viewer connected to process B, and back', async () => {
    expect(cluster.b.log()).toContain('Redis adapter');
    const health = await (await fetch(`${cluster.b.url}/api/admin/health`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
    expect(health.realtime.adapter).toBe('redis');

    const ds = (await cluster.a.http('POST', '/api/admin/data-sources', { body: { name: 'Shared' } })).body;
    await cluster.a.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1 }] } });
    const dash = (await cluster.a.http('POST', '/api/admin/dashboards', { body: { name: 'Shared', dataSourceId: ds.id, isPublished: true } })).body;

    const viewerOnB = await openSocket(cluster.b.url);
    const viewerOnA = await openSocket(cluster.a.url);
    const adminOnA = await openSocket(cluster.a.url, ADMIN_TOKEN);
    try {
      expect(await join(viewerOnB, 'dashboard:join', dash.id)).toEqual({ ok: true, revision: 1 });
      await join(viewerOnA, 'dashboard:join', dash.id);
      const onB = next(viewerOnB, 'records:upserted');
      const firstOnA = next(viewerOnA, 'records:upserted');
      await cluster.a.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2, via: 'A' }] } });
      expect((await onB).records.map((r) => r.data)).toEqual([{ id: 2, via: 'A' }]);
      // A's own viewer hears it too (through the Redis stream, so not necessarily before B's).
      expect((await firstOnA).records.map((r) => r.data)).toEqual([{ id: 2, via: 'A' }]);

      const onA = next(viewerOnA, 'records:upserted');
      const adminHeard = collect(adminOnA, 'admin:datasource:changed');
      const res = await fetch(`${cluster.b.url}/api/data/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ sourceId: ds.sourceId, records: [{ id: 3, via: 'B' }] }),
      });
      expect(res.status).toBe(200);
      expect((await onA).records.map((r) => r.data)).toEqual([{ id: 3, via: 'B' }]);
      // Earlier changes may still be on their way through the stream: wait for the one of B's write.
      await expect.poll(() => adminHeard.items.map((e) => e.dataSource.recordCount), { timeout: 5_000 }).toContain(3);
      adminHeard.stop();
    } finally {
      [viewerOnA, viewerOnB, adminOnA].forEach((s) => s.disconnect());
    }
  });
});
