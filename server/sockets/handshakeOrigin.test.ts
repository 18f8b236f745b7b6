import http from 'node:http';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms } from '@common/realtime';
import { startTestServer, type TestServer } from '../test/harness';
import { addPerson, type Person } from '../test/people';
import { collect, join, next, type TestSocket } from '../test/sockets';

/**
 * A page of another origin of the same site (another port here) opening a socket: the browser
 * sends the signed-in person's cookie with it. Raw handshakes with that `Origin`, on both transports.
 */
let s: TestServer;
let admin: Person;
let ds: { id: string; sourceId: string };
let board: { id: string };
const FOREIGN = 'http://127.0.0.1:1';

beforeAll(async () => {
  s = await startTestServer();
  admin = await addPerson(s, 'admin');
  ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
  board = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Wall', dataSourceId: ds.id, isPublished: true } })).body;
});
afterAll(() => s?.close());

type Transport = 'websocket' | 'polling';

async function socketFrom(transport: Transport, headers: Record<string, string>): Promise<TestSocket> {
  const socket: TestSocket = connect(s.url, { transports: [transport], extraHeaders: headers, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

const serverSide = (socket: TestSocket) => s.app.realtime.io.of('/').sockets.get(socket.id!);
const ingest = (id: number) => s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id }] } });

describe.each<Transport>(['websocket', 'polling'])('a %s handshake', (transport) => {
  it('from another origin ignores the session cookie: no admin room, no source room, no activity feed; public rooms still work', async () => {
    const socket = await socketFrom(transport, { cookie: admin.cookie, origin: FOREIGN });
    try {
      expect(serverSide(socket)?.data.role).toBeNull();
      expect(serverSide(socket)?.rooms.has(rooms.admin)).toBe(false);
      expect(await join(socket, 'datasource:join', ds.id)).toMatchObject({ ok: false });
      expect(await join(socket, 'integration:join', ds.id)).toMatchObject({ ok: false });
      const activity = collect(socket, 'admin:activity');
      const changed = collect(socket, 'admin:datasource:changed');
      // A published dashboard's room (embeds on other sites need it) still works, anonymously.
      expect(await join(socket, 'dashboard:join', board.id)).toMatchObject({ ok: true });
      const delta = next(socket, 'records:upserted');
      await ingest(Date.now());
      expect((await delta).dataSourceId).toBe(ds.id);
      // Activity and source changes the admin room hears do not reach it.
      await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { name: `Tickets ${transport}` } });
      await s.http('POST', '/api/admin/users', { body: { email: `invited.${transport}.${Date.now()}@example.com`, role: 'viewer' } });
      // Emits reach a socket in the order of the changes: a later write's delta comes after whatever
      // the two changes above would have sent it.
      const later = next(socket, 'records:upserted');
      await ingest(Date.now() + 1);
      await later;
      expect(activity.items).toEqual([]);
      expect(changed.items).toEqual([]);
    } finally {
      socket.disconnect();
    }
  });

  it('from a sibling page that says so only in Sec-Fetch-Site ignores the session cookie', async () => {
    const socket = await socketFrom(transport, { cookie: admin.cookie, 'sec-fetch-site': 'same-site' });
    try {
      expect(serverSide(socket)?.data.role).toBeNull();
      expect(await join(socket, 'datasource:join', ds.id)).toMatchObject({ ok: false });
    } finally {
      socket.disconnect();
    }
  });

  it('from our own origin signs in by the cookie (admin room, source room, activity feed)', async () => {
    const socket = await socketFrom(transport, { cookie: admin.cookie, origin: s.url });
    try {
      expect(serverSide(socket)?.rooms.has(rooms.admin)).toBe(true);
      expect(await join(socket, 'datasource:join', ds.id)).toEqual({ ok: true });
      const activity = next(socket, 'admin:activity');
      await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { name: `Tickets own ${transport}` } });
      expect((await activity).entry).toBeTruthy();
    } finally {
      socket.disconnect();
    }
  });
});

it('PUBLIC_URL\'s origin signs in by the cookie, another port of its host does not', async () => {
  const other = await startTestServer({ PUBLIC_URL: 'https://dash.example.com' }, undefined);
  try {
    const person = await addPerson(other, 'admin');
    const open = async (origin: string) => {
      const socket: TestSocket = connect(other.url, { transports: ['websocket'], extraHeaders: { cookie: person.cookie, origin }, reconnection: false, forceNew: true });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const role = other.app.realtime.io.of('/').sockets.get(socket.id!)?.data.role;
      socket.disconnect();
      return role;
    };
    expect(await open('https://dash.example.com')).toBe('admin');
    expect(await open('https://dash.example.com:8443')).toBeNull();
    expect(await open('https://evil.dash.example.com')).toBeNull();
  } finally {
    await other.close();
  }
});

it('a signed-in socket recovers its session only from our own origin: from another it comes back signed out, with none of its rooms', async () => {
  const socket: TestSocket = connect(s.url, { transports: ['websocket'], extraHeaders: { cookie: admin.cookie, origin: s.url }, forceNew: true, reconnectionDelay: 50, reconnectionDelayMax: 100 });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await join(socket, 'datasource:join', ds.id)).toEqual({ ok: true });
    // A delta gives the client its recovery offset.
    const live = next(socket, 'records:upserted');
    await ingest(Date.now());
    await live;
    socket.io.reconnection(false);
    const down = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    socket.io.engine.close();
    await down;
    // The same session id and offset, sent by a page of another origin.
    (socket.io.opts.extraHeaders as Record<string, string>).origin = FOREIGN;
    const back = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.io.reconnection(true);
    socket.connect();
    await back;
    expect(socket.recovered).toBe(false);
    expect(serverSide(socket)?.data.role).toBeNull();
    expect(serverSide(socket)?.rooms.has(rooms.dataSource(ds.id))).toBe(false);
    expect(serverSide(socket)?.rooms.has(rooms.admin)).toBe(false);
  } finally {
    socket.disconnect();
  }
});

/** A raw HTTP request to the polling transport; resolves with its status and headers. */
function pollingRequest(method: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${s.url}/socket.io/?EIO=4&transport=polling`, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

it('the polling transport answers no CORS to another origin: no credentialed read of a handshake, no preflight pass', async () => {
  const get = await pollingRequest('GET', { origin: FOREIGN, cookie: admin.cookie });
  expect(get.status).toBe(200);
  expect(get.headers['access-control-allow-origin']).toBeUndefined();
  expect(get.headers['access-control-allow-credentials']).toBeUndefined();
  const preflight = await pollingRequest('OPTIONS', { origin: FOREIGN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
  expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
});
