import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startDatabase, type DatabaseHandle } from '../db/startDatabase';
import { createLogger } from '../log';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';
import { freePort, startServerProcess } from '../test/processes';
import { join, next, type TestSocket } from '../test/sockets';

let db: DatabaseHandle;
let s: TestServer;

beforeAll(async () => {
  db = await startDatabase(loadConfig({ SEED_DEMO: 'false' }), createLogger('silent'));
  s = await startTestServer({ MONGODB_URI: db.uri });
});
afterAll(async () => {
  await s?.close();
  await db?.stop();
});

/** A viewer that reconnects by itself, as the web app's socket does. */
async function reconnectingViewer(url = s.url): Promise<TestSocket> {
  const socket: TestSocket = connect(url, { transports: ['websocket'], forceNew: true, reconnectionDelay: 100, reconnectionDelayMax: 300 });
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
      for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(seen).toEqual([2, 3]);
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
