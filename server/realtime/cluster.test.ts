import { describe, expect, it } from 'vitest';
import { eventually } from '../test/eventually';
import { viewCacheOf } from '../publicView/viewCache';
import { ADMIN_TOKEN } from '../test/harness';
import { useCluster } from '../test/cluster';
import { freePort, startRedis, startServerProcess } from '../test/processes';
import { join, openSocket } from '../test/sockets';

const cluster = useCluster();

type View = { dashboard: { name: string }; records: { recordId: string; data: Record<string, unknown> }[]; revision: number };

const call = (base: string, method: string, path: string, body?: unknown) =>
  fetch(base + path, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: body === undefined ? undefined : JSON.stringify(body) });
const view = async (base: string, id: string): Promise<View> => (await fetch(`${base}/api/dashboards/${id}`)).json() as Promise<View>;

/** Polls `base`'s public view until `ok` holds (fails after `ms`). */
async function seenWithin(base: string, id: string, ok: (v: View) => boolean, ms: number): Promise<void> {
  await eventually(async () => {
    const v = await view(base, id);
    if (!ok(v)) throw new Error(`not seen on ${base} within ${ms} ms: revision ${v.revision}`);
  }, { timeout: ms, interval: 5 });
}

async function publishedDashboard(base: string, name: string) {
  const ds = (await (await call(base, 'POST', '/api/admin/data-sources', { name })).json()) as { id: string; sourceId: string };
  await call(base, 'POST', '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: 0 }] });
  const d = (await (await call(base, 'POST', '/api/admin/dashboards', { name, dataSourceId: ds.id, isPublished: true })).json()) as { id: string };
  return { ds, d };
}

describe('view caches of two processes sharing Redis and MongoDB', () => {
  it('a share link revoked on one process answers 404 on the other at once, though its view was held there', async () => {
    const { d } = await publishedDashboard(cluster.a.url, 'Shared');
    const made = (await (await call(cluster.a.url, 'POST', `/api/admin/dashboards/${d.id}/links`, { label: 'Partner' })).json()) as { token: string; link: { id: string } };
    const share = `${cluster.b.url}/api/share/${made.token}`;
    expect((await fetch(share)).status).toBe(200);
    expect((await fetch(share)).status).toBe(200);
    expect((await call(cluster.a.url, 'DELETE', `/api/admin/dashboards/${d.id}/links/${made.link.id}`)).status).toBe(200);
    // How soon (the goal: within a second) is measured by `npm run bench:cluster`; here, that it holds.
    await eventually(async () => expect((await fetch(share)).status).toBe(404), { timeout: 10_000, interval: 5 });
  });

  it('a GET on one process reflects a write on the other, every time, over 100 rounds (how soon: npm run bench:cluster)', async () => {
    const { ds, d } = await publishedDashboard(cluster.a.url, 'Coherent');
    // Both caches hold the view before the writes start.
    await seenWithin(cluster.a.url, d.id, (v) => v.records.length === 1, 5_000);
    await seenWithin(cluster.b.url, d.id, (v) => v.records.length === 1, 5_000);
    const builds = viewCacheOf(cluster.a.app.ctx).stats.sourceBuilds;
    for (let round = 1; round <= 100; round++) {
      const [writer, reader] = round % 2 ? [cluster.a.url, cluster.b.url] : [cluster.b.url, cluster.a.url];
      if (round % 10 === 0) {
        const name = `Coherent ${round}`;
        expect((await call(writer, 'PATCH', `/api/admin/dashboards/${d.id}`, { name })).status).toBe(200);
        await seenWithin(reader, d.id, (v) => v.dashboard.name === name, 10_000);
      } else {
        const res = await call(writer, 'POST', '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: round % 7, round }] });
        expect(res.status).toBe(200);
        await seenWithin(reader, d.id, (v) => v.records.some((r) => r.data.round === round), 10_000);
      }
    }
    // Process A answered from its cache all along: no rebuild from the database.
    expect(viewCacheOf(cluster.a.app.ctx).stats.sourceBuilds).toBe(builds);
  });

  it('exits at once with a clear message when REDIS_URL is unreachable at start', async () => {
    const port = await freePort();
    const started = Date.now();
    const failure = await startServerProcess({ MONGODB_URI: cluster.db.uri, REDIS_URL: `redis://127.0.0.1:${port}`, ADMIN_TOKEN, SEED_DEMO: 'false' }).then(
      (p) => p.stop().then(() => null),
      (e: Error) => e.message,
    );
    expect(failure).toMatch(/exited with 1/);
    expect(failure).toContain(`REDIS_URL is unreachable (127.0.0.1:${port})`);
    expect(failure).not.toMatch(/listening on/);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('keeps serving while Redis is lost, and resynchronises viewers when it returns', async () => {
    const { ds, d } = await publishedDashboard(cluster.a.url, 'Blip');
    await seenWithin(cluster.b.url, d.id, (v) => v.records.length === 1, 5_000);
    const viewer = await openSocket(cluster.b.url);
    try {
      expect(await join(viewer, 'dashboard:join', d.id)).toMatchObject({ ok: true });
      const resyncs: unknown[] = [];
      viewer.on('view:resync', (e) => resyncs.push(e));
      await cluster.redis.stop();
      // Lost: both processes still answer, and a write on A shows on B (read from the database).
      expect((await call(cluster.a.url, 'POST', '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: 1, during: 'outage' }] })).status).toBe(200);
      await seenWithin(cluster.b.url, d.id, (v) => v.records.some((r) => r.data.during === 'outage'), 10_000);
      expect((await fetch(`${cluster.b.url}/api/health`)).status).toBe(200);

      cluster.redis = await startRedis(cluster.redis.port);
      await eventually(() => expect(resyncs[0]).toEqual({ reason: 'redis' }), { timeout: 20_000, interval: 50 });
      // Back: caches are on and coherent again.
      await eventually(() => expect(viewCacheOf(cluster.a.app.ctx).isEnabled).toBe(true), { timeout: 10_000, interval: 50 });
      await seenWithin(cluster.b.url, d.id, (v) => v.records.length === 2, 5_000);
      expect((await call(cluster.a.url, 'POST', '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: 2, during: 'after' }] })).status).toBe(200);
      await seenWithin(cluster.b.url, d.id, (v) => v.records.some((r) => r.data.during === 'after'), 10_000);
    } finally {
      viewer.disconnect();
    }
  });
});
