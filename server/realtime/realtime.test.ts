import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';
import { eventually } from '../test/eventually';
import { buildDashboard, buildSource } from '../test/factories';
import { caughtUp, collect, join, next, openSocket, socketsPerTest } from '../test/sockets';

let s: TestServer;
const sockets = socketsPerTest(() => s.url);
let ds: { id: string; sourceId: string };
let dash: { id: string };

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.reset();
  ds = await buildSource(s, { records: [{ id: 1, status: 'open' }] });
  dash = await buildDashboard(s, { source: ds, published: true });
});
const viewer = () => sockets.open();
const admin = () => sockets.open(ADMIN_TOKEN);
const ingest = (records: unknown[]) => s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records } });

describe('rooms and auth', () => {
  it('lets anyone join a published dashboard, with the current revision', async () => {
    expect(await join(await viewer(), 'dashboard:join', dash.id)).toEqual({ ok: true, revision: 1 });
  });

  it('refuses drafts and unknown dashboards', async () => {
    await s.http('PATCH', `/api/admin/dashboards/${dash.id}`, { body: { isPublished: false } });
    const v = await viewer();
    expect(await join(v, 'dashboard:join', dash.id)).toEqual({ ok: false, reason: 'Dashboard Not Found' });
    expect(await join(v, 'dashboard:join', 'nope')).toEqual({ ok: false, reason: 'Dashboard Not Found' });
  });

  it('keeps admin rooms for the admin token only', async () => {
    const v = await viewer();
    expect(await join(v, 'datasource:join', ds.id)).toEqual({ ok: false, reason: 'Sign in as an editor or admin' });
    expect(await join(v, 'integration:join', 'x')).toEqual({ ok: false, reason: 'Sign in as an admin' });
    const heard = collect(v, 'admin:datasource:changed');
    const a = await admin();
    const adminHeard = next(a, 'admin:datasource:changed');
    await ingest([{ id: 2 }]);
    // The admin's copy arrived: the viewer's would have been sent with it.
    await adminHeard;
    await caughtUp(v);
    expect(heard.items).toEqual([]);
    await expect(openSocket(s.url, 'wrong-token')).rejects.toThrow('Invalid admin token');
    expect(await join(a, 'datasource:join', ds.id)).toEqual({ ok: true });
  });
});

describe('pushed changes', () => {
  it('pushes ingested records to viewers and the source change to admins, with increasing revisions', async () => {
    const v = await viewer();
    await join(v, 'dashboard:join', dash.id);
    const a = await admin();
    const deltas = collect(v, 'records:upserted');
    const adminSeen = next(a, 'admin:datasource:changed');
    await ingest([{ id: 1, status: 'closed' }, { id: 2, status: 'open' }]);
    await ingest([{ id: 3, status: 'open' }]);
    // A third change: once it is in, nothing else came between (no repeat, no gap).
    await ingest([{ id: 4, status: 'open' }]);
    await eventually(() => expect(deltas.items.map((d) => d.revision)).toEqual([2, 3, 4]));
    expect(deltas.items[0]).toMatchObject({ dataSourceId: ds.id, total: 2, part: 0, parts: 1 });
    expect(deltas.items[0].dashboardId).toBeUndefined();
    expect(deltas.items[0].records.map((r) => [r.recordId, r.data.status])).toEqual([['1', 'closed'], ['2', 'open']]);
    expect(deltas.items[1].total).toBe(3);
    expect((await adminSeen).dataSource).toMatchObject({ id: ds.id, recordCount: 2, primaryKey: 'id' });
  });

  it('splits a large ingest into a bounded number of messages', async () => {
    const v = await viewer();
    await join(v, 'dashboard:join', dash.id);
    const deltas = collect(v, 'records:upserted');
    await ingest(Array.from({ length: 1200 }, (_, i) => ({ id: 100 + i, text: 'x'.repeat(50) })));
    await eventually(() => expect(deltas.items.map((d) => [d.part, d.parts, d.records.length])).toEqual([[0, 3, 500], [1, 3, 500], [2, 3, 200]]));
    expect(new Set(deltas.items.map((d) => d.revision)).size).toBe(1);
  });

  it('keeps each message under a byte budget when records are large', async () => {
    const v = await viewer();
    await join(v, 'dashboard:join', dash.id);
    const deltas = collect(v, 'records:upserted');
    await ingest(Array.from({ length: 20 }, (_, i) => ({ id: 500 + i, blob: 'x'.repeat(100_000) })));
    await eventually(() => expect(deltas.items.reduce((n, d) => n + d.records.length, 0)).toBe(20));
    expect(deltas.items.length).toBeGreaterThanOrEqual(8);
    for (const d of deltas.items) expect(JSON.stringify(d).length).toBeLessThan(400_000);
    expect(deltas.items.map((d) => d.part)).toEqual(deltas.items.map((_, i) => i));
  });

  it('pushes dashboard changes, and unpublishing kicks viewers at once', async () => {
    const v = await viewer();
    await join(v, 'dashboard:join', dash.id);
    const list = await viewer();
    await new Promise((r) => list.emit('dashboards:join', r));
    const changed = next(v, 'dashboard:changed');
    const listChanged = next(list, 'dashboards:changed');
    await s.http('PATCH', `/api/admin/dashboards/${dash.id}`, { body: { name: 'Renamed', configuration: { tabs: [{ id: 'tab1', name: 'Board', style: 'bucket' }] } } });
    expect(await changed).toMatchObject({ dashboardId: dash.id, dashboard: { name: 'Renamed' }, tabs: [{ id: 'tab1', name: 'Board', type: 'bucket' }], dataSourceChanged: false });
    expect((await listChanged).dashboard).toMatchObject({ id: dash.id, name: 'Renamed' });

    const removed = next(v, 'dashboard:removed');
    const listRemoved = next(list, 'dashboards:removed');
    await s.http('PATCH', `/api/admin/dashboards/${dash.id}`, { body: { isPublished: false } });
    expect(await removed).toEqual({ dashboardId: dash.id });
    expect(await listRemoved).toEqual({ dashboardId: dash.id });
    const after = collect(v, 'records:upserted');
    // A viewer of another dashboard on the source hears the ingest: the kicked one would have with it.
    const other = await buildDashboard(s, { source: ds, published: true });
    const w = await viewer();
    await join(w, 'dashboard:join', other.id);
    const heard = next(w, 'records:upserted');
    await ingest([{ id: 9 }]);
    await heard;
    await caughtUp(v);
    expect(after.items).toEqual([]);
  });

  it('pushes new field labels of the data source to its viewers, but not on every ingest', async () => {
    const v = await viewer();
    await join(v, 'dashboard:join', dash.id);
    const heads = collect(v, 'dashboard:changed');
    await ingest([{ id: 5 }]);
    await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { keyMappings: { status: 'State' } } });
    await eventually(() => heads.items.length > 0 || null);
    // A later ingest, its field types settled: still the one head.
    const delta = next(v, 'records:upserted');
    await ingest([{ id: 6 }]);
    await delta;
    await s.app.fieldTypes.settle();
    await caughtUp(v);
    expect(heads.items).toHaveLength(1);
    expect(heads.items[0]).toMatchObject({ dashboardId: dash.id, dataSource: { keyMappings: { status: 'State' } }, dataSourceChanged: false });
  });

  it('tells viewers and admins when a dashboard is deleted', async () => {
    const v = await viewer();
    await join(v, 'dashboard:join', dash.id);
    const a = await admin();
    const removed = next(v, 'dashboard:removed');
    const adminRemoved = next(a, 'admin:dashboard:removed');
    await s.http('DELETE', `/api/admin/dashboards/${dash.id}`);
    expect(await removed).toEqual({ dashboardId: dash.id });
    expect(await adminRemoved).toEqual({ dashboardId: dash.id });
  });

  it('pushes record removal when the data source is deleted', async () => {
    const v = await viewer();
    await join(v, 'dashboard:join', dash.id);
    const a = await admin();
    await join(a, 'datasource:join', ds.id);
    const removed = next(v, 'records:removed');
    const adminRemoved = next(a, 'admin:datasource:removed');
    await s.http('DELETE', `/api/admin/data-sources/${ds.id}`);
    expect(await removed).toMatchObject({ dataSourceId: ds.id, all: true, total: 0 });
    expect(await adminRemoved).toEqual({ dataSourceId: ds.id, sourceId: ds.sourceId });
  });

  it('converges after a reconnect: refetch, re-join, then deltas continue from the fetched revision', async () => {
    const v1 = await viewer();
    await join(v1, 'dashboard:join', dash.id);
    v1.disconnect();
    await ingest([{ id: 2 }]);
    await ingest([{ id: 3 }]);
    const v2 = await viewer();
    const fetched = (await s.http('GET', `/api/dashboards/${dash.id}`, { token: null })).body;
    expect(fetched.records.map((r: { recordId: string }) => r.recordId)).toEqual(['1', '2', '3']);
    expect(await join(v2, 'dashboard:join', dash.id)).toEqual({ ok: true, revision: fetched.revision });
    const delta = next(v2, 'records:upserted');
    await ingest([{ id: 4 }]);
    expect((await delta).revision).toBe(fetched.revision + 1);
  });
});
