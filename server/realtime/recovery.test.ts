import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config';
import { startDatabase, type DatabaseHandle } from '../core/db/startDatabase';
import { createLogger } from '../core/log';
import { ADMIN_TOKEN, TEST_ENGINE, startTestServer, type TestServer } from '../test/harness';
import { eventually } from '../test/eventually';
import { freePort, startServerProcess } from '../test/processes';
import { caughtUp, collect, join, next, openSocket, type TestSocket } from '../test/sockets';

let db: DatabaseHandle;
let s: TestServer;

beforeAll(async () => {
  db = await startDatabase(loadConfig({ SEED_DEMO: 'false', ...TEST_ENGINE }), createLogger('silent'));
  s = await startTestServer({ MONGODB_URI: db.uri });
});
afterAll(async () => {
  await s?.close();
  await db?.stop();
});

/** A viewer that reconnects by itself, as the web app's socket does. */
async function reconnectingViewer(url = s.url, token?: string): Promise<TestSocket> {
  const socket: TestSocket = connect(url, { transports: ['websocket'], forceNew: true, reconnectionDelay: 100, reconnectionDelayMax: 300, auth: token ? { token } : {} });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

async function published() {
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
  await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1 }] } });
  const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Live', dataSourceId: ds.id, isPublished: true } })).body;
  return { ds, d };
}

describe('connection state recovery', () => {
  it('replays the deltas a viewer missed while its transport was down, in its rooms, with no refetch', async () => {
    const { ds, d } = await published();
    const v = await reconnectingViewer();
    try {
      const joined = next(v, 'view:joined');
      expect(await join(v, 'dashboard:join', d.id)).toEqual({ ok: true, revision: 1 });
      expect(await joined).toEqual({ dashboardId: d.id, revision: 1 });
      expect(v.recovered).toBe(false);
      const seen: number[] = [];
      v.on('records:upserted', (e) => seen.push(e.revision));
      // The network drops (not a disconnect on purpose); the client holds off until the writes are done.
      v.io.reconnection(false);
      const down = new Promise<void>((resolve) => v.once('disconnect', () => resolve()));
      v.io.engine.close();
      await down;
      await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2 }] } });
      await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 3 }] } });
      expect(seen).toEqual([]);
      const back = new Promise<void>((resolve) => v.once('connect', () => resolve()));
      v.io.reconnection(true);
      v.connect();
      await back;
      expect(v.recovered).toBe(true);
      await eventually(() => expect(seen).toEqual([2, 3]));
      // Still in the source's audience, without joining again.
      const after = next(v, 'records:upserted');
      await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 4 }] } });
      expect((await after).revision).toBe(4);
    } finally {
      v.disconnect();
    }
  });

  it('cannot recover across a restart: the viewer is told (recovered false) and its conditional refetch is a 304', async () => {
    const { d } = await published();
    const env = { MONGODB_URI: db.uri, PORT: String(await freePort()), ADMIN_TOKEN, SEED_DEMO: 'false' };
    let server = await startServerProcess(env);
    const v = await reconnectingViewer(server.url);
    try {
      const first = await fetch(`${server.url}/api/dashboards/${d.id}`);
      const etag = first.headers.get('etag')!;
      const joined = next(v, 'view:joined');
      await join(v, 'dashboard:join', d.id);
      await joined;
      const down = new Promise<void>((resolve) => v.once('disconnect', () => resolve()));
      await server.stop();
      await down;
      const back = new Promise<void>((resolve) => v.once('connect', () => resolve()));
      server = await startServerProcess(env);
      await back;
      expect(v.recovered).toBe(false);
      // Same content after the restart, same ETag: the viewer's conditional refetch costs a 304.
      const again = await fetch(`${server.url}/api/dashboards/${d.id}`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
    } finally {
      v.disconnect();
      await server.stop();
    }
  }, 90_000);
});

/** The network drops (not a disconnect on purpose); the client holds off until `meanwhile` is done, then comes back. */
async function dropWhile(v: TestSocket, meanwhile: () => Promise<void>): Promise<void> {
  v.io.reconnection(false);
  const id = v.id!;
  const down = new Promise<void>((resolve) => v.once('disconnect', () => resolve()));
  v.io.engine.close();
  await down;
  // The server has seen it go too (its session is kept for recovery, its rooms are no longer live).
  await eventually(() => !s.app.realtime.io.of('/').sockets.has(id), { interval: 10 });
  await meanwhile();
  const back = new Promise<void>((resolve, reject) => {
    v.once('connect', () => resolve());
    v.once('connect_error', reject);
  });
  v.io.reconnection(true);
  v.connect();
  await back;
}

const shareJoin = (v: TestSocket, token: string) => new Promise<{ ok: boolean }>((resolve) => v.emit('share:join', token, resolve));

describe('connection state recovery checks access again', () => {
  type Setup = { ds: { id: string; sourceId: string }; d: { id: string } };
  const ingest = (ds: Setup['ds'], id: number) => s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id }] } });

  /**
   * A viewer joins (`enter`), its transport drops, the dashboard is cut off (`revoke`) between two
   * ingests, and it comes back within the recovery window: its session is recovered, it is told
   * `dashboard:removed`, and no delta of the source reaches it — neither those buffered while it
   * was away nor any after — while REST (the path `enter` answers) says 404.
   */
  async function revokedWhileAway(enter: (v: TestSocket, x: Setup) => Promise<string>, revoke: (x: Setup) => Promise<void>) {
    const x = await published();
    const v = await reconnectingViewer();
    try {
      const restPath = await enter(v, x);
      // Live: a delta arrives (and gives the client its recovery offset).
      const live = next(v, 'records:upserted');
      await ingest(x.ds, 10);
      expect((await live).revision).toBe(2);
      const deltas = collect(v, 'records:upserted');
      const removed = collect(v, 'dashboard:removed');
      await dropWhile(v, async () => {
        await ingest(x.ds, 2);
        await revoke(x);
        await ingest(x.ds, 3);
      });
      expect(v.recovered).toBe(true);
      await eventually(() => expect(removed.items).toContainEqual({ dashboardId: x.d.id }));
      // An admin following the source hears the next ingest: a delta to v would have gone with it.
      const witness = await openSocket(s.url, ADMIN_TOKEN);
      expect(await join(witness, 'datasource:join', x.ds.id)).toMatchObject({ ok: true });
      const heard = next(witness, 'records:upserted');
      await ingest(x.ds, 4);
      await heard;
      witness.disconnect();
      await caughtUp(v);
      expect(deltas.items).toEqual([]);
      // REST agrees: the view is gone.
      expect((await s.http('GET', restPath, { token: null })).status).toBe(404);
    } finally {
      v.disconnect();
    }
  }
  const joinPublic = async (v: TestSocket, x: Setup) => {
    expect(await join(v, 'dashboard:join', x.d.id)).toMatchObject({ ok: true });
    return `/api/dashboards/${x.d.id}`;
  };
  const joinShared = async (v: TestSocket, token: string) => {
    expect(await shareJoin(v, token)).toMatchObject({ ok: true });
    return `/api/share/${token}`;
  };
  const link = async (x: Setup) => (await s.http('POST', `/api/admin/dashboards/${x.d.id}/links`, { body: { label: 'Partner', allowCsv: false } })).body as { token: string; link: { id: string } };

  it('unpublished while a public viewer was away: its stream ends when it comes back', () =>
    revokedWhileAway(joinPublic, async (x) => void (await s.http('PATCH', `/api/admin/dashboards/${x.d.id}`, { body: { isPublished: false } }))));

  it('deleted while a public viewer was away: its stream ends when it comes back', () =>
    revokedWhileAway(joinPublic, async (x) => void (await s.http('DELETE', `/api/admin/dashboards/${x.d.id}`))));

  it('share link revoked while its viewer was away: its stream ends when it comes back', async () => {
    let made: { token: string; link: { id: string } } | null = null;
    await revokedWhileAway(
      async (v, x) => {
        made = await link(x);
        return joinShared(v, made.token);
      },
      async (x) => void (await s.http('DELETE', `/api/admin/dashboards/${x.d.id}/links/${made!.link.id}`)),
    );
  });

  it('dashboard deleted while a share-link viewer was away: its stream ends when it comes back', () =>
    revokedWhileAway(
      async (v, x) => joinShared(v, (await link(x)).token),
      async (x) => void (await s.http('DELETE', `/api/admin/dashboards/${x.d.id}`)),
    ));

  it('keeps what still passes: a viewer of two dashboards on one source, one unpublished, gets the missed deltas of the other', async () => {
    const { ds, d } = await published();
    const other = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Other', dataSourceId: ds.id, isPublished: true } })).body;
    const v = await reconnectingViewer();
    try {
      await join(v, 'dashboard:join', d.id);
      await join(v, 'dashboard:join', other.id);
      const deltas = collect(v, 'records:upserted');
      const removed = collect(v, 'dashboard:removed');
      await dropWhile(v, async () => {
        await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { isPublished: false } });
        await ingest(ds, 2);
      });
      expect(v.recovered).toBe(true);
      await eventually(() => {
        expect(deltas.items.map((e) => e.revision)).toEqual([2]);
        expect(removed.items).toEqual([{ dashboardId: d.id }]);
      });
      const after = next(v, 'dashboard:changed');
      await s.http('PATCH', `/api/admin/dashboards/${other.id}`, { body: { name: 'Renamed' } });
      expect((await after).dashboardId).toBe(other.id);
    } finally {
      v.disconnect();
    }
  });

  it('an admin session is recovered only with the admin token: another credential gets no rooms and no missed packets', async () => {
    const { ds } = await published();
    const v = await reconnectingViewer(s.url, ADMIN_TOKEN);
    try {
      expect(await join(v, 'datasource:join', ds.id)).toEqual({ ok: true });
      const live = next(v, 'records:upserted');
      await ingest(ds, 10);
      await live;
      const deltas = collect(v, 'records:upserted');
      v.io.reconnection(false);
      const down = new Promise<void>((resolve) => v.once('disconnect', () => resolve()));
      v.io.engine.close();
      await down;
      await ingest(ds, 2);
      v.auth = { token: 'not-the-admin-token-0000' };
      const refused = new Promise<Error>((resolve) => v.once('connect_error', resolve));
      v.connect();
      expect(((await refused) as Error & { data?: { code?: string } }).data?.code).toBe('invalid_admin_token');
      // Refused, it does not try again (reconnection is off): no packet can reach it.
      expect(v.connected).toBe(false);
      expect(deltas.items).toEqual([]);
    } finally {
      v.disconnect();
    }
  });
  it('keeps nothing for recovery of writes to a source nobody watches (the packets would be held for minutes)', async () => {
    // Socket.IO's recovery buffer (the in-memory adapter's packets): every push to a room is held there for the window.
    const held = () => (s.app.realtime.io.of('/').adapter as unknown as { packets: { data: unknown[] }[] }).packets.filter((p) => p.data[0] === 'records:upserted').length;
    const { ds, d } = await published();
    const before = held();
    for (let n = 10; n < 15; n++) await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: n }] } });
    expect(held()).toBe(before);
    // A viewer comes: the same writes are pushed (and held for it).
    const v = await reconnectingViewer();
    try {
      await join(v, 'dashboard:join', d.id);
      const pushed = next(v, 'records:upserted');
      await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 20 }] } });
      expect((await pushed).records).toHaveLength(1);
      expect(held()).toBeGreaterThan(before);
    } finally {
      v.disconnect();
    }
  });
});
