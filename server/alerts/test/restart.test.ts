import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../core/config';
import { startDatabase, type DatabaseHandle } from '../../core/db/startDatabase';
import { createLogger } from '../../core/log';
import { startTestServer, TEST_ENGINE, type TestServer } from '../../test/harness';
import { eventually } from '../../test/eventually';
import { startReceiver, type TestReceiver } from '../../test/receiver';

/*
 * The outbox survives a restart: a delivery whose receiver failed is sent by the next process,
 * with the same delivery id, and the rule's state is taken over where it was.
 */

let db: DatabaseHandle;
let rx: TestReceiver;
let s: TestServer | null = null;
beforeAll(async () => {
  rx = await startReceiver();
  db = await startDatabase(loadConfig({ SEED_DEMO: 'false', ...TEST_ENGINE }), createLogger('silent'));
});
afterAll(async () => {
  await s?.close();
  await db?.stop();
  await rx?.close();
});

const start = () => startTestServer({ MONGODB_URI: db.uri, OUTBOUND_ALLOWED_HOSTS: rx.hostPort });

it('retries with the same delivery id across a restart, and the next process resolves the rule', async () => {
  s = await start();
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Payments', primaryKey: 'id' } })).body;
  const created = await s.http('POST', '/api/admin/alerts', {
    body: { name: 'Failures', dataSourceId: ds.id, metric: 'sum', valueField: 'failed', condition: { operator: 'gt', value: 0 }, channels: [{ type: 'webhook', url: `${rx.url}/pay` }] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // The receiver is down for the first attempts.
  rx.answer('/pay', 503, 503);
  expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 'p1', failed: 1 }] } })).status).toBe(200);
  await eventually(() => rx.on('/pay').length >= 1);
  await s.close();
  const before = rx.on('/pay').length;

  s = await start();
  // Two 503s, then the answer that delivers it: from the new process (the old one had sent `before`).
  const calls = await eventually(() => rx.on('/pay').length === 3 && rx.on('/pay'), { timeout: 15_000 });
  expect(before).toBeLessThan(3);
  expect(new Set(calls.map((c) => c.headers['x-livedash-delivery'])).size).toBe(1);
  const history = await eventually(async () => {
    const h = (await s!.http('GET', `/api/admin/alerts/${created.body.id}/history`)).body;
    return h.deliveries[0]?.status === 'delivered' && h;
  }, { timeout: 10_000 });
  expect(history.deliveries).toHaveLength(1);
  expect(history.deliveries[0].attempts.map((a: { status: number }) => a.status)).toEqual([503, 503, 200]);

  // The new process holds the rule, firing as it was: the fix resolves it.
  expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 'p1', failed: 0 }] } })).status).toBe(200);
  await eventually(() => rx.on('/pay').at(-1)!.json.state === 'resolved', { timeout: 5_000 });
  expect(rx.on('/pay').filter((c) => c.json.state === 'firing' && c.headers['x-livedash-delivery'] !== calls[0].headers['x-livedash-delivery'])).toHaveLength(0);
});
