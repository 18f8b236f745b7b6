import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms } from '@common/realtime';
import { eventually } from '../test/eventually';
import { startTestServer, type TestServer } from '../test/harness';
import { useCluster } from '../test/cluster';
import { PASSWORD, addPerson, asCookie, cookieOf } from '../test/people';
import { cookieSocket, join, next, type TestSocket } from '../test/sockets';

const disconnected = (socket: TestSocket, ms = 3000) =>
  new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
    socket.once('disconnect', (reason) => {
      clearTimeout(t);
      resolve(reason);
    });
  });

describe('sockets of signed-in people', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: '100000' });
  });
  afterAll(() => s.close());

  it('keeps a person limited to chosen dashboards out of the rooms of other data sources', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Src' } })).body;
    const other = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Other' } })).body;
    const mine = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Mine', dataSourceId: ds.id } })).body;
    const limited = await addPerson(s, 'editor', { dashboardIds: [mine.id] });
    const socket = await cookieSocket(s.url, limited.cookie);
    try {
      expect(await join(socket, 'datasource:join', ds.id.toUpperCase())).toEqual({ ok: true });
      expect(await join(socket, 'datasource:join', other.id)).toMatchObject({ ok: false });
      const held = [...s.app.realtime.io.of('/').sockets.values()].find((x) => x.id === socket.id)?.rooms;
      expect(held?.has(rooms.dataSource(ds.id))).toBe(true);
      expect(held?.has(rooms.dataSource(other.id))).toBe(false);
    } finally {
      socket.disconnect();
    }
  });

  it('joins rooms by role and disconnects every socket of an ended session at once', async () => {
    const admin = await addPerson(s, 'admin');
    const viewer = await addPerson(s, 'viewer');
    const a = await cookieSocket(s.url, admin.cookie);
    const v = await cookieSocket(s.url, viewer.cookie);
    expect(await join(a, 'integration:join', 'x')).toEqual({ ok: true });
    expect(await join(v, 'datasource:join', 'x')).toMatchObject({ ok: false });
    const local = [...s.app.realtime.io.of('/').sockets.values()];
    expect(local.find((x) => x.id === a.id)?.rooms.has(rooms.admin)).toBe(true);
    expect(local.find((x) => x.id === v.id)?.rooms.has(rooms.admin)).toBe(false);

    // An ended session cookie just connects signed out: public viewing never breaks.
    const stale = await cookieSocket(s.url, 'livedash_session=ended');
    expect(await join(stale, 'datasource:join', 'x')).toMatchObject({ ok: false });
    stale.close();

    const gone = disconnected(a);
    expect((await admin.http('POST', '/api/auth/logout')).status).toBe(200);
    expect(await gone).toBe('io server disconnect');
    const demoted = disconnected(v);
    await s.http('DELETE', `/api/admin/users/${viewer.id}`);
    expect(await demoted).toBe('io server disconnect');
  });

  it('checks the role again when a socket recovers after a gap: rooms its credential no longer allows are left', async () => {
    await addPerson(s, 'admin'); // not the last admin
    const admin = await addPerson(s, 'admin');
    const socket: TestSocket = connect(s.url, { transports: ['websocket'], extraHeaders: { cookie: admin.cookie }, forceNew: true, reconnectionDelay: 100, reconnectionDelayMax: 300 });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    try {
      const integrationId = '0123456789abcdef01234567'; // rooms are keyed by canonical ids (common/ids.ts)
      expect(await join(socket, 'integration:join', integrationId)).toEqual({ ok: true });
      const roomsOf = () => [...(s.app.realtime.io.of('/').sockets.get(socket.id!)?.rooms ?? [])].filter((r) => r !== socket.id).sort();
      expect(roomsOf()).toEqual([rooms.admin, rooms.integration(integrationId), rooms.team]);
      // A broadcast gives the client an offset to recover from.
      const heard = next(socket, 'admin:activity');
      await s.http('POST', '/api/admin/data-sources', { body: { name: 'Any' } });
      await heard;
      // The network drops; meanwhile the person is made an editor (their sessions end).
      socket.io.reconnection(false);
      const down = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
      socket.io.engine.close();
      await down;
      expect((await s.http('PATCH', `/api/admin/users/${admin.id}`, { body: { role: 'editor' } })).status).toBe(200);
      const back = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.io.reconnection(true);
      socket.connect();
      await back;
      // The session ended, so the adapter's recovery check (recoveryCheck.ts) refuses to recover it:
      // the handshake is checked anew and the socket comes back signed out, in no private room.
      expect(socket.recovered).toBe(false);
      await eventually(() => expect(roomsOf()).toEqual([]));
    } finally {
      socket.disconnect();
    }
  });
});

describe('revocation across two processes', () => {
  const cluster = useCluster();

  it('ends a session cached by the other process at once, and closes its socket there', async () => {
    const p = await addPerson(cluster.a, 'editor');
    const onB = (method: string, path: string) => fetch(cluster.b.url + path, { method, headers: { cookie: p.cookie } });
    expect((await onB('GET', '/api/admin/dashboards')).status).toBe(200); // B caches the session now
    const socket = await cookieSocket(cluster.b.url, p.cookie);
    expect(await join(socket, 'datasource:join', '0123456789abcdef01234567')).toEqual({ ok: true });
    const closed = disconnected(socket);
    // Sign out everywhere on A.
    expect((await p.http('DELETE', '/api/auth/sessions')).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect((await onB('GET', '/api/admin/dashboards')).status).toBe(401);
    // Signing in again on B works.
    const again = await fetch(`${cluster.b.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: p.email, password: PASSWORD }) });
    expect(again.status).toBe(200);
    expect((await asCookie(cluster.a, cookieOf(again.headers))('GET', '/api/auth/me')).status).toBe(200);
  });
});
