import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../../test/cluster';
import { eventually } from '../../test/eventually';
import { ADMIN_TOKEN } from '../../test/harness';
import { startReceiver, type TestReceiver } from '../../test/receiver';
import { startRedis } from '../../test/processes';

/*
 * Two processes sharing MongoDB and a real redis-server: each rule is evaluated and delivered by
 * exactly one of them (its lease), whichever process the writes land on.
 */

let rx: TestReceiver;
const cluster = {} as TestCluster;
beforeAll(async () => {
  rx = await startReceiver();
  const env = { OUTBOUND_ALLOWED_HOSTS: rx.hostPort, ALERT_LEASE_MS: '3000' };
  await startCluster(cluster, { a: env, b: env });
}, 90_000);
afterAll(async () => {
  await cluster.stop?.();
  await rx?.close();
});

it('sends exactly one message per change with two processes, writes landing on either', async () => {
  const { a, b } = cluster;
  const ds = (await a.http('POST', '/api/admin/data-sources', { body: { name: 'Shared', primaryKey: 'id' } })).body;
  const rule = (path: string) => ({ name: path, dataSourceId: ds.id, metric: 'count', condition: { operator: 'gte', value: 2 }, channels: [{ type: 'webhook', url: `${rx.url}${path}` }] });
  const viaA = await a.http('POST', '/api/admin/alerts', { body: rule('/a') });
  expect(viaA.status, JSON.stringify(viaA.body)).toBe(201);
  const viaB = await fetch(`${b.url}/api/admin/alerts`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(rule('/b')) });
  expect(viaB.status).toBe(201);
  const ingest = async (url: string, records: unknown[]) => {
    const res = await fetch(`${url}/api/data/ingest`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ sourceId: ds.sourceId, records }) });
    expect(res.status).toBe(200);
  };
  // One record through each process: both rules (one held by each) see both.
  await ingest(a.url, [{ id: 1 }]);
  await ingest(b.url, [{ id: 2 }]);
  await eventually(() => rx.on('/a').length === 1 && rx.on('/b').length === 1, { timeout: 15_000 });
  await ingest(b.url, [{ id: 3 }]);
  const remove = await a.http('POST', `/api/data/sources/${ds.sourceId}/records/delete`, { body: { filters: [{ field: 'id', operator: 'gte', value: '2' }] } });
  expect(remove.status, JSON.stringify(remove.body)).toBe(200);
  await eventually(() => rx.on('/a').length === 2 && rx.on('/b').length === 2, { timeout: 15_000 });
  // Each rule's history holds exactly its two messages, each sent once.
  for (const [id, path] of [[viaA.body.id, '/a'], [(await viaB.json()).id, '/b']]) {
    const h = (await a.http('GET', `/api/admin/alerts/${id}/history`)).body;
    expect(h.deliveries.map((d: { status: string }) => d.status), path).toEqual(['delivered', 'delivered']);
    expect(rx.on(path).map((c) => c.json.state)).toEqual(['firing', 'resolved']);
    expect(new Set(rx.on(path).map((c) => c.headers['x-livedash-delivery'])).size).toBe(2);
  }
}, 60_000);

it('counts a rule again when Redis comes back: a write another process made while it was lost is not missed', async () => {
  const { a, b } = cluster;
  const call = (url: string, path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const ds = await (await call(a.url, '/api/admin/data-sources', { name: 'Gap', primaryKey: 'id' })).json();
  // Created on A: A holds the rule and evaluates it.
  const rule = await call(a.url, '/api/admin/alerts', { name: 'Any', dataSourceId: ds.id, metric: 'count', condition: { operator: 'gte', value: 1 }, channels: [{ type: 'webhook', url: `${rx.url}/gap` }] });
  expect(rule.status).toBe(201);
  await cluster.redis.stop();
  // B's write cannot reach A (its announcement is dropped while Redis is lost).
  expect((await call(b.url, '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: 1 }] })).status).toBe(200);
  cluster.redis = await startRedis(cluster.redis.port);
  const [fired] = await eventually(() => rx.on('/gap').length === 1 && rx.on('/gap'), { timeout: 20_000 });
  expect(fired.json).toMatchObject({ state: 'firing', value: 1 });
}, 60_000);

it('shares the rules out between the processes instead of the first one taking them all', async () => {
  const { a } = cluster;
  const ds = (await a.http('POST', '/api/admin/data-sources', { body: { name: 'Many rules', primaryKey: 'id' } })).body;
  // All made through A, so A holds them at first.
  for (let i = 0; i < 6; i++) {
    const res = await a.http('POST', '/api/admin/alerts', { body: { name: `r${i}`, dataSourceId: ds.id, metric: 'count', condition: { operator: 'gte', value: 100 } } });
    expect(res.status).toBe(201);
  }
  const { Alert } = a.app.ctx.conn.models;
  const counts = await eventually(async () => {
    const docs = await Alert.find({}).lean<{ lease: { owner: string | null } }[]>();
    const by = new Map<string, number>();
    for (const d of docs) if (d.lease.owner) by.set(d.lease.owner, (by.get(d.lease.owner) ?? 0) + 1);
    const held = [...by.values()];
    return held.length === 2 && held.reduce((x, y) => x + y) === docs.length && Math.max(...held) - Math.min(...held) <= 1 && held;
  }, { timeout: 15_000 });
  expect(counts).toHaveLength(2);
}, 30_000);
