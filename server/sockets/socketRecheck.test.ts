import { describe, expect, it } from 'vitest';
import { rooms } from '@common/realtime';
import { ADMIN_TOKEN, capturedLog, startTestServer } from '../test/harness';
import { useCluster } from '../test/cluster';
import { addPerson } from '../test/people';
import { startRedis } from '../test/processes';
import { collect, cookieSocket, join, next, type TestSocket } from '../test/sockets';
import { eventually } from '../test/eventually';

/**
 * Revocations travel between processes over Redis; made while it is down, they never arrive. Each
 * process checks its signed-in sockets against the database again when its relay is back, and
 * every SOCKET_RECHECK_MS in any case. A checks only on reconnect here (its period is far off), B
 * every half second. The last test stops B.
 */
const cluster = useCluster({ a: { SOCKET_RECHECK_MS: '3600000' }, b: { SOCKET_RECHECK_MS: '500' } });

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: body === undefined ? undefined : JSON.stringify(body) });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json() as Promise<{ id: string; sourceId: string }>;
};

async function setup(name: string) {
  const ds = await call(cluster.a.url, 'POST', '/api/admin/data-sources', { name });
  const other = await call(cluster.a.url, 'POST', '/api/admin/data-sources', { name: `${name} other` });
  const mine = await call(cluster.a.url, 'POST', '/api/admin/dashboards', { name, dataSourceId: ds.id });
  const elsewhere = await call(cluster.a.url, 'POST', '/api/admin/dashboards', { name: `${name} elsewhere`, dataSourceId: other.id });
  return { ds, mine, elsewhere };
}

const connected = async (base: string, cookie: string, sourceId: string) => {
  const socket = await cookieSocket(base, cookie);
  expect(await join(socket, 'datasource:join', sourceId)).toEqual({ ok: true });
  return socket;
};

/** Resolves once the socket is disconnected by the server; fails after `ms`. */
const closedWithin = (socket: TestSocket, ms: number) =>
  new Promise<void>((resolve, reject) => {
    if (!socket.connected) return resolve();
    const t = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
    socket.once('disconnect', () => {
      clearTimeout(t);
      resolve();
    });
  });

const until = (ok: () => boolean, ms: number, what: string) => eventually(ok, { timeout: ms, interval: 50, what });

/**
 * Two editors following a source on `base`: one whose credential is to end, one limited to the
 * dashboard `mine` (to be moved to `elsewhere`, whose source is another).
 */
async function followers(base: string, name: string) {
  const x = await setup(name);
  const ending = await addPerson(cluster.a, 'editor');
  const limited = await addPerson(cluster.a, 'editor', { dashboardIds: [x.mine.id] });
  const sockets = { ending: await connected(base, ending.cookie, x.ds.id), limited: await connected(base, limited.cookie, x.ds.id) };
  return { ...x, ending, limited, sockets };
}

/** Runs `body` with redis-server stopped; `back()` starts it again (done after `body` if it did not). */
async function whileRedisDown(body: (back: () => Promise<void>) => Promise<void>) {
  let down = true;
  const back = async () => {
    down = false;
    cluster.redis = await startRedis(cluster.redis.port);
  };
  await cluster.redis.stop();
  try {
    await body(back);
  } finally {
    if (down) await back();
  }
}

describe('signed-in sockets are checked again after revocations made while Redis was down', () => {
  it('every SOCKET_RECHECK_MS, Redis or not: a demoted person\'s socket closes, a limited one stops hearing the source it lost', async () => {
    const { ds, elsewhere, ending, limited, sockets } = await followers(cluster.b.url, 'Period');
    try {
      await whileRedisDown(async () => {
        await call(cluster.a.url, 'PATCH', `/api/admin/users/${ending.id}`, { role: 'viewer' });
        await call(cluster.a.url, 'PATCH', `/api/admin/users/${limited.id}`, { dashboardIds: [elsewhere.id] });
        // Redis still down: B's period catches both.
        await closedWithin(sockets.ending, 5_000);
        await eventually(async () => {
          // Written through B itself (its own emit, no Redis needed): heard only while the socket holds the source's room.
          const heard = next(sockets.limited, 'records:upserted', 500).then(() => true, () => false);
          await call(cluster.b.url, 'POST', '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: Date.now() }] });
          return !(await heard);
        }, { timeout: 5_000, interval: 100, what: 'the limited editor to stop hearing the source it lost' });
        expect(sockets.limited.connected).toBe(true);
      });
    } finally {
      Object.values(sockets).forEach((x) => x.disconnect());
    }
  }, 60_000);

  it('when the relay reconnects (the writer died meanwhile, its revocations with it): a removed person\'s socket closes, a person whose dashboards changed leaves the source it lost', async () => {
    const { ds, mine, elsewhere, ending, limited, sockets } = await followers(cluster.a.url, 'Reconnect');
    const onA = () => cluster.a.app.realtime.io.of('/').sockets.get(sockets.limited.id!);
    try {
      await whileRedisDown(async (back) => {
        await call(cluster.b.url, 'DELETE', `/api/admin/users/${ending.id}`);
        await call(cluster.b.url, 'PATCH', `/api/admin/users/${limited.id}`, { dashboardIds: [elsewhere.id] });
        // B dies before Redis is back, and the revocations it holds for Redis with it: A can only learn from the database.
        cluster.b.child.kill('SIGKILL');
        // Nothing reached A: Redis is down (and A's period is an hour). A write made through A after
        // the revocations still reaches the removed person's socket there (the later event proves it).
        const later = next(sockets.ending, 'records:upserted');
        await call(cluster.a.url, 'POST', '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: 'after the revocations' }] });
        await later;
        expect(sockets.ending.connected).toBe(true);
        expect(onA()?.rooms.has(rooms.dataSource(ds.id))).toBe(true);
        await back();
      });
      await closedWithin(sockets.ending, 15_000);
      await until(() => !onA()?.rooms.has(rooms.dataSource(ds.id)), 5_000, 'the limited editor left the source');
      // Still signed in, now in the room of its new dashboard and not of the old one.
      expect(sockets.limited.connected).toBe(true);
      expect(onA()?.rooms.has(rooms.teamDashboard(elsewhere.id))).toBe(true);
      expect(onA()?.rooms.has(rooms.teamDashboard(mine.id))).toBe(false);
      const deltas = collect(sockets.limited, 'records:upserted');
      // A's emits go out in the order of the writes: once the later change of its new dashboard
      // arrives, the earlier write's delta would have come before it.
      const later = next(sockets.limited, 'admin:dashboard:changed');
      await call(cluster.a.url, 'POST', '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: 1 }] });
      await call(cluster.a.url, 'PATCH', `/api/admin/dashboards/${elsewhere.id}`, { name: 'Elsewhere, renamed' });
      await later;
      expect(deltas.items).toEqual([]);
    } finally {
      Object.values(sockets).forEach((x) => x.disconnect());
    }
  }, 60_000);
});

it('one pass reads each collection once, however many sockets and people: no read per socket', async () => {
  const { log, lines } = capturedLog();
  const s = await startTestServer({ SOCKET_RECHECK_MS: '200' }, log);
  const sockets: TestSocket[] = [];
  try {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Cheap' } })).body as { id: string };
    const people = [await addPerson(s, 'editor'), await addPerson(s, 'editor'), await addPerson(s, 'admin')];
    for (const p of people) for (let i = 0; i < 3; i++) sockets.push(await connected(s.url, p.cookie, ds.id));
    // Reads per collection, counted between the ends of two passes (nothing else runs meanwhile).
    const reads: string[] = [];
    s.app.ctx.conn.set('debug', (collection: string, method: string) => void reads.push(`${collection}.${method}`));
    const passEnds = () => lines.filter((l) => l.includes(`checked ${sockets.length} signed-in socket(s) again`)).length;
    await until(() => passEnds() >= 1, 5_000, 'a pass');
    const from = reads.length;
    const after = passEnds();
    await until(() => passEnds() > after, 5_000, 'the next pass');
    const pass = reads.slice(from);
    const count = (what: string) => pass.filter((r) => r === what).length;
    expect(count('sessions.find')).toBe(1);
    expect(count('users.find')).toBe(1);
    expect(pass.filter((r) => r.startsWith('sessions.') || r.startsWith('users.') || r.startsWith('apitokens.')).length).toBe(2);
    expect(sockets.every((x) => x.connected)).toBe(true);
  } finally {
    sockets.forEach((x) => x.disconnect());
    await s.close();
  }
});
