import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms } from '@common/realtime';
import { eventually } from '../test/eventually';
import { buildDashboard, buildPerson, buildSource } from '../test/factories';
import { startTestServer, type TestServer } from '../test/harness';
import { useCluster } from '../test/cluster';
import { collect, cookieSocket, join, next, nextWhere, type TestSocket } from '../test/sockets';

type Http = TestServer['http'];

/** A data source with a draft dashboard on it. */
async function draftOnSource(server: TestServer, name: string) {
  const ds = await buildSource(server, { name });
  const dashboard = await buildDashboard(server, { source: ds, name: `${name} board` });
  return { ds, dashboard };
}

const ingest = (http: Http, sourceId: string, n: number) =>
  http('POST', '/api/data/ingest', { body: { sourceId, records: [{ id: n, value: n }] } });

/** The rooms a socket holds on any process (the Redis adapter answers for the other one). */
async function roomsOf(s: TestServer, socket: TestSocket): Promise<string[]> {
  const [remote] = await s.app.realtime.io.in(socket.id!).fetchSockets();
  return [...(remote?.rooms ?? [])].filter((r) => r !== socket.id).sort();
}

describe('signed-in people in rooms', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: '100000' });
  });
  afterAll(() => s.close());

  it('shows a draft live to a signed-in person who may read it, and to nobody else', async () => {
    const { ds, dashboard } = await draftOnSource(s, 'Drafted');
    const viewer = await buildPerson(s, 'viewer');
    const limited = await buildPerson(s, 'viewer', { dashboardIds: ['0123456789abcdef01234567'] });
    const socket = await cookieSocket(s.url, viewer.cookie);
    const anonymous = await cookieSocket(s.url, 'livedash_session=none');
    const outside = await cookieSocket(s.url, limited.cookie);
    try {
      expect(await join(socket, 'dashboard:join', dashboard.id.toUpperCase())).toEqual({ ok: true, revision: 0 });
      expect(await join(anonymous, 'dashboard:join', dashboard.id)).toEqual({ ok: false, reason: 'Dashboard Not Found' });
      expect(await join(outside, 'dashboard:join', dashboard.id)).toEqual({ ok: false, reason: 'Dashboard Not Found' });
      expect(await roomsOf(s, socket)).toEqual([rooms.draft(dashboard.id), rooms.source(ds.id)]);

      // Records arrive as they are ingested; the draft's new look too.
      const delta = next(socket, 'records:upserted');
      expect((await ingest(s.http, ds.sourceId, 1)).status).toBe(200);
      expect((await delta).records.map((r) => r.data.value)).toEqual([1]);
      const head = next(socket, 'dashboard:changed');
      await s.http('PATCH', `/api/admin/dashboards/${dashboard.id}`, { body: { name: 'Renamed draft' } });
      expect((await head).dashboard.name).toBe('Renamed draft');
      // Its source's labels too (a draft follows its source like a published dashboard does).
      // (A type update of the ingest may come first: the head with the label is waited for.)
      const labelled = nextWhere(socket, 'dashboard:changed', (e) => e.dataSource?.keyMappings?.value === 'Value (EUR)', 10_000);
      expect((await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { keyMappings: { value: 'Value (EUR)' } } })).status).toBe(200);
      expect((await labelled).dashboard.name).toBe('Renamed draft');

      // Published and unpublished again: the signed-in viewer keeps following it; deleted: told.
      await s.http('PATCH', `/api/admin/dashboards/${dashboard.id}`, { body: { isPublished: true } });
      await s.http('PATCH', `/api/admin/dashboards/${dashboard.id}`, { body: { isPublished: false } });
      const again = next(socket, 'records:upserted');
      await ingest(s.http, ds.sourceId, 2);
      expect((await again).records.map((r) => r.data.value)).toEqual([2]);
      const removed = next(socket, 'dashboard:removed');
      await s.http('DELETE', `/api/admin/dashboards/${dashboard.id}`);
      expect(await removed).toEqual({ dashboardId: dashboard.id });
      await eventually(async () => (await roomsOf(s, socket)).length === 0, { timeout: 3_000, what: 'the deleted draft\'s rooms to be left' });
    } finally {
      [socket, anonymous, outside].forEach((x) => x.disconnect());
    }
  });

  it('keeps a signed-in viewer on a dashboard that is unpublished under it (as a draft); anonymous viewers are told it is gone', async () => {
    const { ds, dashboard } = await draftOnSource(s, 'Unpublished');
    await s.http('PATCH', `/api/admin/dashboards/${dashboard.id}`, { body: { isPublished: true } });
    const viewer = await buildPerson(s, 'viewer');
    const signedIn = await cookieSocket(s.url, viewer.cookie);
    const anonymous = await cookieSocket(s.url, 'livedash_session=none');
    try {
      for (const x of [signedIn, anonymous]) expect(await join(x, 'dashboard:join', dashboard.id)).toMatchObject({ ok: true });
      const kept = collect(signedIn, 'dashboard:removed');
      const told = next(anonymous, 'dashboard:removed');
      await s.http('PATCH', `/api/admin/dashboards/${dashboard.id}`, { body: { isPublished: false } });
      expect(await told).toEqual({ dashboardId: dashboard.id });
      await eventually(async () => (await roomsOf(s, anonymous)).length === 0, { timeout: 3_000, what: 'the anonymous viewer to leave' });
      expect(await roomsOf(s, signedIn)).toEqual([rooms.draft(dashboard.id), rooms.source(ds.id)]);
      const delta = next(signedIn, 'records:upserted');
      await ingest(s.http, ds.sourceId, 1);
      await delta;
      expect(kept.items).toEqual([]);
    } finally {
      [signedIn, anonymous].forEach((x) => x.disconnect());
    }
  });

  it('checks a draft again when its viewer recovers after a gap: kept while allowed, left and told once outside the limits', async () => {
    const { ds, dashboard } = await draftOnSource(s, 'Recovered');
    const p = await buildPerson(s, 'viewer', { dashboardIds: [dashboard.id] });
    const socket: TestSocket = connect(s.url, { transports: ['websocket'], extraHeaders: { cookie: p.cookie }, forceNew: true, reconnectionDelay: 100, reconnectionDelayMax: 300 });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    /** The network drops; `meanwhile` runs; the socket comes back (recovered). */
    const gap = async (meanwhile: () => Promise<unknown>) => {
      socket.io.reconnection(false);
      const down = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
      socket.io.engine.close();
      await down;
      await meanwhile();
      const back = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.io.reconnection(true);
      socket.connect();
      await back;
      expect(socket.recovered).toBe(true);
    };
    try {
      const joined = next(socket, 'view:joined'); // a broadcast: it gives the client an offset to recover from
      expect(await join(socket, 'dashboard:join', dashboard.id)).toMatchObject({ ok: true });
      await joined;
      const missed = next(socket, 'records:upserted');
      await gap(() => ingest(s.http, ds.sourceId, 1));
      expect((await missed).records.map((r) => r.data.value)).toEqual([1]);
      expect(await roomsOf(s, socket)).toEqual([rooms.draft(dashboard.id), rooms.source(ds.id)]);

      const told = next(socket, 'dashboard:removed');
      await gap(() => s.http('PATCH', `/api/admin/users/${p.id}`, { body: { dashboardIds: ['0123456789abcdef01234567'] } }));
      expect(await told).toEqual({ dashboardId: dashboard.id });
      expect(await roomsOf(s, socket)).toEqual([]);
    } finally {
      socket.disconnect();
    }
  });

  it('lets editors hear dashboard and data source changes (limited ones only of their dashboards and sources), not the admin-only events', async () => {
    const { ds, dashboard } = await draftOnSource(s, 'Team');
    const other = await draftOnSource(s, 'Elsewhere');
    const editor = await buildPerson(s, 'editor');
    const limitedEditor = await buildPerson(s, 'editor', { dashboardIds: [dashboard.id] });
    const team = await cookieSocket(s.url, editor.cookie);
    const limited = await cookieSocket(s.url, limitedEditor.cookie);
    const activity = collect(team, 'admin:activity');
    const limitedSources = collect(limited, 'admin:datasource:changed');
    const limitedDashboards = collect(limited, 'admin:dashboard:changed');
    try {
      expect(await roomsOf(s, team)).toEqual([rooms.team]);
      expect(await roomsOf(s, limited)).toEqual([rooms.teamDashboard(dashboard.id)]);
      const counted = nextWhere(team, 'admin:datasource:changed', (e) => e.dataSource.id === ds.id && e.dataSource.recordCount === 1);
      await ingest(s.http, ds.sourceId, 1);
      await counted;
      const renamed = next(team, 'admin:dashboard:changed');
      const limitedRenamed = next(limited, 'admin:dashboard:changed');
      await s.http('PATCH', `/api/admin/dashboards/${dashboard.id}`, { body: { name: 'Team board' } });
      expect((await renamed).dashboard.name).toBe('Team board');
      expect((await limitedRenamed).dashboard.name).toBe('Team board');

      // A limited editor hears a source's changes while following one of its own sources.
      expect(await join(limited, 'datasource:join', ds.id)).toEqual({ ok: true });
      const followed = nextWhere(limited, 'admin:datasource:changed', (e) => e.dataSource.id === ds.id && e.dataSource.recordCount === 2);
      await ingest(s.http, ds.sourceId, 2);
      await followed;
      const elsewhere = nextWhere(team, 'admin:dashboard:changed', (e) => e.dashboard.id === other.dashboard.id);
      await ingest(s.http, other.ds.sourceId, 1);
      await s.http('PATCH', `/api/admin/dashboards/${other.dashboard.id}`, { body: { name: 'Not theirs' } });
      await elsewhere;
      expect(limitedSources.items.map((e) => e.dataSource.id)).not.toContain(other.ds.id);
      expect(limitedDashboards.items.map((e) => e.dashboard.id)).toEqual([dashboard.id]);
      expect(activity.items).toEqual([]); // the activity log is the admins' (GET /api/admin/activity too)
    } finally {
      [team, limited].forEach((x) => x.disconnect());
    }
  });
});

describe('a narrowed dashboard limit on open sockets, across processes', () => {
  const cluster = useCluster();

  it('leaves the rooms of dashboards and sources no longer allowed at once, and tells the viewer', async () => {
    const { a } = cluster;
    const kept = await draftOnSource(a, 'Kept');
    const lost = await draftOnSource(a, 'Lost');
    const p = await buildPerson(a, 'editor', { dashboardIds: [kept.dashboard.id, lost.dashboard.id] });
    // The person's socket is on the other process (B); the admin changes the limit on A.
    const socket = await cookieSocket(cluster.b.url, p.cookie);
    try {
      for (const d of [kept, lost]) {
        expect(await join(socket, 'dashboard:join', d.dashboard.id)).toMatchObject({ ok: true });
        expect(await join(socket, 'datasource:join', d.ds.id)).toEqual({ ok: true });
      }
      expect(await roomsOf(a, socket)).toEqual([
        rooms.dataSource(kept.ds.id), rooms.dataSource(lost.ds.id), rooms.draft(kept.dashboard.id), rooms.draft(lost.dashboard.id), rooms.source(kept.ds.id), rooms.source(lost.ds.id),
        rooms.teamDashboard(kept.dashboard.id), rooms.teamDashboard(lost.dashboard.id),
      ].sort());
      const told = next(socket, 'dashboard:removed');
      expect((await a.http('PATCH', `/api/admin/users/${p.id}`, { body: { dashboardIds: [kept.dashboard.id] } })).status).toBe(200);
      expect(await told).toEqual({ dashboardId: lost.dashboard.id });
      await eventually(async () => (await roomsOf(a, socket)).length === 4, { timeout: 3_000, what: 'the lost rooms to be left' });
      expect(await roomsOf(a, socket)).toEqual([rooms.dataSource(kept.ds.id), rooms.draft(kept.dashboard.id), rooms.source(kept.ds.id), rooms.teamDashboard(kept.dashboard.id)].sort());
      // Nothing of the lost source reaches it any more; the kept one still does.
      const deltas = collect(socket, 'records:upserted');
      await ingest(a.http, lost.ds.sourceId, 1);
      const keptDelta = nextWhere(socket, 'records:upserted', (e) => e.dataSourceId === kept.ds.id);
      await ingest(a.http, kept.ds.sourceId, 2);
      await keptDelta;
      expect(deltas.items.map((e) => e.dataSourceId)).not.toContain(lost.ds.id);
      // The kept dashboard moves to another source: its old one is no longer theirs, its room is left.
      const moved = await draftOnSource(a, 'Moved to');
      expect((await a.http('PATCH', `/api/admin/dashboards/${kept.dashboard.id}`, { body: { dataSourceId: moved.ds.id } })).status).toBe(200);
      await eventually(async () => !(await roomsOf(a, socket)).includes(rooms.dataSource(kept.ds.id)), { timeout: 3_000, what: 'the former source\'s room to be left' });
      expect(await join(socket, 'datasource:join', kept.ds.id)).toMatchObject({ ok: false });
      expect(await join(socket, 'datasource:join', moved.ds.id)).toEqual({ ok: true });
      // Every dashboard again: the person joins the team room (console events) at once.
      await a.http('PATCH', `/api/admin/users/${p.id}`, { body: { dashboardIds: null } });
      await eventually(async () => (await roomsOf(a, socket)).includes(rooms.team), { timeout: 3_000, what: 'the team room' });
      expect(await roomsOf(a, socket)).not.toContain(rooms.teamDashboard(kept.dashboard.id));
    } finally {
      socket.disconnect();
    }
  });
});
