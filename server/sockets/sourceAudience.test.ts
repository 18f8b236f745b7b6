import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rooms } from '@common/realtime';
import { eventually } from '../test/eventually';
import { buildDashboard, buildSource } from '../test/factories';
import { startTestServer, type TestServer } from '../test/harness';
import { caughtUp, collect, join, next, openSocket, type TestSocket } from '../test/sockets';

let s: TestServer;
let sockets: TestSocket[] = [];
let ds: { id: string; sourceId: string };
let other: { id: string; sourceId: string };
let d1: { id: string };
let d2: { id: string };

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.reset();
  ds = await buildSource(s, { name: 'Tickets', records: [{ id: 1 }] });
  other = await buildSource(s, { name: 'Orders', records: [{ no: 'a' }] });
  d1 = await buildDashboard(s, { source: ds, name: 'One', published: true });
  d2 = await buildDashboard(s, { source: ds, name: 'Two', published: true });
});
afterEach(() => {
  sockets.forEach((x) => x.disconnect());
  sockets = [];
});

const viewer = async (...dashboards: string[]) => {
  const v = await openSocket(s.url);
  sockets.push(v);
  for (const id of dashboards) expect(await join(v, 'dashboard:join', id)).toMatchObject({ ok: true });
  return v;
};
const ingest = (sourceId: string, records: unknown[]) => s.http('POST', '/api/data/ingest', { body: { sourceId, records } });

/** Whether a socket is in the audience of a source on the server. */
const inAudience = (v: TestSocket, sourceId: string) => s.app.realtime.io.sockets.sockets.get(v.id!)?.rooms.has(rooms.source(sourceId));

/** A new viewer of another published dashboard on the source: hearing the next ingest, it witnesses that it went out. */
const witness = async (dataSourceId: string) => {
  const d = await buildDashboard(s, { source: { id: dataSourceId }, name: 'Witness', published: true });
  const v = await viewer(d.id);
  return { heard: next(v, 'records:upserted') };
};

describe("a source's public audience", () => {
  it('gets each record delta once, whatever number of dashboards on the source it views', async () => {
    const both = await viewer(d1.id, d2.id);
    const one = await viewer(d1.id);
    const two = await viewer(d2.id);
    const seen = [both, one, two].map((v) => collect(v, 'records:upserted'));
    await ingest(ds.sourceId, [{ id: 2 }]);
    await ingest(ds.sourceId, [{ id: 3 }]);
    // A third: once it is in, no repeat of the first two can still be on its way.
    await ingest(ds.sourceId, [{ id: 4 }]);
    await eventually(() => {
      for (const c of seen) expect(c.items.map((d) => [d.dataSourceId, d.revision, d.records[0].recordId])).toEqual([[ds.id, 2, '2'], [ds.id, 3, '3'], [ds.id, 4, '4']]);
    });
  });

  it('sends deltas without a database read per event', async () => {
    const v = await viewer(d1.id);
    let calls = 0;
    s.app.ctx.conn.set('debug', () => void calls++);
    try {
      const delta = next(v, 'records:upserted');
      const record = { id: 'x', recordId: '7', data: { id: 7 }, keyOrder: ['id'], createdAt: new Date(0).toISOString(), lastUpdated: new Date(0).toISOString(), revision: 9 };
      s.app.ctx.events.emit('records.upserted', { dataSourceId: ds.id, sourceId: ds.sourceId, revision: 9, total: 2, records: [record] });
      expect((await delta).records).toEqual([record]);
    } finally {
      s.app.ctx.conn.set('debug', false);
    }
    expect(calls).toBe(0);
  });

  it('follows a dashboard to its new data source, and stops at leave', async () => {
    const v = await viewer(d1.id);
    const changed = next(v, 'dashboard:changed');
    await s.http('PATCH', `/api/admin/dashboards/${d1.id}`, { body: { dataSourceId: other.id } });
    expect(await changed).toMatchObject({ dashboardId: d1.id, dataSourceChanged: true });
    const deltas = collect(v, 'records:upserted');
    await ingest(ds.sourceId, [{ id: 5 }]);
    // Deltas go out in the order of the ingests: once Orders' arrived, a Tickets one would have come first.
    await ingest(other.sourceId, [{ no: 'b' }]);
    await eventually(() => expect(deltas.items.map((d) => d.dataSourceId)).toEqual([other.id]));

    v.emit('dashboard:leave', d1.id);
    await eventually(() => inAudience(v, other.id) === false);
    const { heard } = await witness(other.id);
    await ingest(other.sourceId, [{ no: 'c' }]);
    await heard;
    await caughtUp(v);
    expect(deltas.items).toHaveLength(1);
  });

  it('empties at once when a dashboard is unpublished or deleted', async () => {
    const v1 = await viewer(d1.id);
    const v2 = await viewer(d2.id);
    const gone1 = next(v1, 'dashboard:removed');
    const gone2 = next(v2, 'dashboard:removed');
    await s.http('PATCH', `/api/admin/dashboards/${d1.id}`, { body: { isPublished: false } });
    await s.http('DELETE', `/api/admin/dashboards/${d2.id}`);
    await Promise.all([gone1, gone2]);
    const after = [v1, v2].map((v) => collect(v, 'records:upserted'));
    const { heard } = await witness(ds.id);
    await ingest(ds.sourceId, [{ id: 8 }]);
    await heard;
    await Promise.all([v1, v2].map(caughtUp));
    expect(after.map((c) => c.items.length)).toEqual([0, 0]);
  });

  it('keeps the deltas of a socket that still views another dashboard of the source when one is unpublished, and only then', async () => {
    const d3 = await buildDashboard(s, { source: other, name: 'Three', published: true });
    const both = await viewer(d1.id, d2.id);
    const only = await viewer(d1.id, d3.id);
    const gone = [next(both, 'dashboard:removed'), next(only, 'dashboard:removed')];
    await s.http('PATCH', `/api/admin/dashboards/${d1.id}`, { body: { isPublished: false } });
    expect((await Promise.all(gone)).map((e) => e.dashboardId)).toEqual([d1.id, d1.id]);
    const [seenBoth, seenOnly] = [both, only].map((v) => collect(v, 'records:upserted'));
    await ingest(ds.sourceId, [{ id: 9 }]);
    // Deltas go out in the order of the ingests: once Orders' delta reached `only`, Tickets' would have too.
    await ingest(other.sourceId, [{ no: 'z' }]);
    await eventually(() => seenBoth.items.length === 1 && seenOnly.items.length === 1);
    expect(seenBoth.items.map((d) => [d.dataSourceId, d.records[0].recordId])).toEqual([[ds.id, '9']]);
    expect(seenOnly.items.map((d) => d.dataSourceId)).toEqual([other.id]);

    // Leaving the last dashboard of the source ends its deltas.
    expect(inAudience(both, ds.id)).toBe(true);
    both.emit('dashboard:leave', d2.id);
    await eventually(() => inAudience(both, ds.id) === false);
    const marker = await viewer(d2.id);
    const seenMarker = collect(marker, 'records:upserted');
    await ingest(ds.sourceId, [{ id: 10 }]);
    await eventually(() => seenMarker.items.length === 1);
    expect(seenBoth.items).toHaveLength(1);
  });
});
