import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLog, startTestServer, type TestServer } from '../../test/harness';
import { startRedis } from '../../test/processes';
import { buildDashboard, buildPerson, buildSource, type BuiltPerson, type BuiltSource } from '../../test/factories';
import { eventually } from '../../test/eventually';
import { join, next, openSocket, type TestSocket } from '../../test/sockets';

/*
 * A Redis outage is a degradation, not an outage: with Redis hung (SIGSTOP: connections open, no
 * answer) or gone (killed), every kind of request is answered without waiting for it, the rate
 * limits count in each process's memory, /readyz stays 200 saying `"degraded": ["redis"]`, this process's viewers
 * keep getting every change, and when Redis is back they are told to resync. One warning per outage.
 */

const METRICS_TOKEN = 'metrics-token-0123456789';
let redis: Awaited<ReturnType<typeof startRedis>>;
let s: TestServer;
let lines: string[];
let ds: BuiltSource;
let dashboardId: string;
let editor: BuiltPerson;
let viewer: TestSocket;
let n = 0;

beforeAll(async () => {
  redis = await startRedis();
  const captured = capturedLog();
  lines = captured.lines;
  s = await startTestServer({ REDIS_URL: redis.url, METRICS_TOKEN, RATE_LIMIT_AUTH_FAILURES: '8', LOG_LEVEL: 'info' }, captured.log);
  ds = await buildSource(s, { name: 'Orders', primaryKey: 'id', records: [{ id: 'a', v: 1 }] });
  dashboardId = (await buildDashboard(s, { source: ds, published: true })).id;
  editor = await buildPerson(s, 'editor');
  viewer = await openSocket(s.url);
  expect(await join(viewer, 'dashboard:join', dashboardId)).toMatchObject({ ok: true });
});
afterAll(async () => {
  viewer?.disconnect();
  await s?.close();
  await redis?.stop();
});

const readyz = async () => {
  const res = await fetch(`${s.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; degraded?: string[]; checks: Record<string, string> } };
};
const metric = async (name: string) => {
  const text = await (await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
};
const redisWarnings = () => lines.filter((l) => /^(warn|error) /.test(l) && /redis/i.test(l));

/** Every kind of request that used to wait on Redis (the rate limits sit in front of each), answered. */
async function everyKindOfRequest(from: string): Promise<void> {
  const key = `${from}-${++n}`;
  expect((await s.http('GET', '/api/admin/dashboards')).status, 'admin token').toBe(200);
  expect((await editor.http('GET', '/api/admin/dashboards')).status, 'session').toBe(200);
  expect((await s.http('GET', '/api/admin/dashboards', { token: editor.token })).status, 'personal token').toBe(200);
  const changed = next(viewer, 'records:upserted', 10_000);
  const ingest = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { token: ds.ingestKey, body: [{ id: key, v: n }] });
  expect(ingest.status, 'ingest key').toBe(200);
  // This process's viewers get the change though it cannot go through Redis.
  expect((await changed).records.map((r) => r.recordId)).toEqual([key]);
  expect((await s.http('POST', '/api/auth/login', { token: null, headers: { origin: s.url }, body: { email: editor.email, password: 'not-the-password' } })).status, 'failed sign-in').toBe(401);
}

describe('a Redis outage', () => {
  it('through a Redis that hangs: every request is answered, the limits count in memory, /readyz stays 200 and says so, viewers resync after', async () => {
    await everyKindOfRequest('before');
    expect((await readyz()).body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
    expect(await metric('livedash_redis_up')).toBe(1);

    redis.pause();
    // The first question to Redis finds it silent (it waits for it a moment), and then none waits.
    await everyKindOfRequest('hung');
    await everyKindOfRequest('hung');
    // Silent for a few seconds: an outage (a late answer of a busy process would have been none).
    await eventually(async () => (await metric('livedash_redis_up')) === 0, { timeout: 10_000 });
    await everyKindOfRequest('hung');
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', degraded: ['redis'], checks: { database: 'ok', redis: 'failed' } } });
    expect(await metric('livedash_redis_outages_total')).toBe(1);

    const resync = next(viewer, 'view:resync', 20_000);
    redis.resume();
    expect(await resync).toEqual({ reason: 'redis' });
    await eventually(async () => (await readyz()).body.checks.redis === 'ok');
    expect(await metric('livedash_redis_up')).toBe(1);
    expect(redisWarnings(), 'one warning for the outage').toHaveLength(1);
    expect(lines.filter((l) => /^info redis .* answers again after \d+ s of outage/.test(l))).toHaveLength(1);
  }, 60_000);

  it('through a Redis that is gone: the same, and once it is back the rooms are shared again', async () => {
    await redis.stop();
    await everyKindOfRequest('gone');
    const ready = await readyz();
    expect(ready.status).toBe(200);
    expect(ready.body.degraded).toEqual(['redis']);
    expect(await metric('livedash_redis_outages_total')).toBe(2);
    // The failed-credential limit still holds, counted in this process's memory (failed sign-ins of both outages count too).
    const statuses: number[] = [];
    for (let i = 0; i < 12 && statuses.at(-1) !== 429; i++) statuses.push((await s.http('GET', '/api/admin/dashboards', { token: `wrong-${i}` })).status);
    expect(statuses[0]).toBe(401);
    expect(statuses.at(-1)).toBe(429);

    const resync = next(viewer, 'view:resync', 20_000);
    redis = await startRedis(redis.port);
    expect(await resync).toEqual({ reason: 'redis' });
    await eventually(async () => (await readyz()).body.degraded === undefined);
    await everyKindOfRequest('after');
    expect(redisWarnings(), 'one warning per outage').toHaveLength(2);
  }, 60_000);
});
