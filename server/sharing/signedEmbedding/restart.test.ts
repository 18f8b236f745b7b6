import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JoinAck } from '@common/realtime';
import { loadConfig } from '../../core/config';
import { startDatabase, type DatabaseHandle } from '../../core/db/startDatabase';
import { createLogger } from '../../core/log';
import { buildDashboard, buildSource } from '../../test/factories';
import { startTestServer, TEST_ENGINE, type TestServer } from '../../test/harness';
import { signEmbed } from './test/embedTokens';
import { openSocket } from '../../test/sockets';

/*
 * The embedding secret outlives a restart: it is sealed under the server key kept in the database
 * (core/keys), not under the admin token, which a process without ADMIN_TOKEN makes anew on each
 * start. So a token a host signed before the restart still opens its rows after it — over REST and
 * a socket — on a process with another admin token. Setting SERVER_SECRET later changes the key:
 * the secret then reads as unreadable (the console says so) and its tokens are refused, never
 * opened with a wrong key.
 */

let db: DatabaseHandle;
let s: TestServer | null = null;
beforeAll(async () => {
  db = await startDatabase(loadConfig({ SEED_DEMO: 'false', ...TEST_ENGINE }), createLogger('silent'));
});
afterAll(async () => {
  await s?.close();
  await db?.stop();
});

const start = (env: Record<string, string> = {}) => startTestServer({ MONGODB_URI: db.uri, ...env });

it('a token signed before a restart on the same database still verifies after it, under another admin token; a new SERVER_SECRET makes the secret unreadable', async () => {
  s = await start();
  const ds = await buildSource(s, { primaryKey: 'id', records: [{ id: 1, tenant: 'acme' }, { id: 2, tenant: 'globex' }, { id: 3, tenant: 'acme' }] });
  const dash = await buildDashboard(s, { source: ds, name: 'Orders' });
  const made = await s.http('POST', `/api/admin/dashboards/${dash.id}/embedding/secret`);
  expect(made.status, made.text).toBe(200);
  const token = await signEmbed(made.body.secret, { dashboard: dash.id, filters: [{ field: 'tenant', operator: 'eq', value: 'acme' }] });
  expect((await s.http('GET', `/api/embed/${token}`, { token: null })).status).toBe(200);
  // The key is kept in the database, never the secret in clear.
  const keys = JSON.stringify(await s.app.ctx.conn.collection('server_keys').find().toArray());
  expect(keys).not.toContain(made.body.secret);
  await s.close();

  const ADMIN = 'another-admin-token-made-at-start';
  s = await start({ ADMIN_TOKEN: ADMIN });
  const after = await s.http('GET', `/api/embed/${token}`, { token: null });
  expect(after.status, after.text).toBe(200);
  expect(after.body.records.map((r: { data: { id: number } }) => r.data.id).sort()).toEqual([1, 3]);
  const socket = await openSocket(s.url);
  try {
    expect(await new Promise<JoinAck>((resolve) => socket.emit('embed:join', token, resolve))).toMatchObject({ ok: true });
  } finally {
    socket.disconnect();
  }
  expect((await s.http('GET', `/api/admin/dashboards/${dash.id}/embedding`, { token: ADMIN })).body.secret).toMatchObject({ readable: true, hint: made.body.secret.slice(0, 6) });
  await s.close();

  s = await start({ ADMIN_TOKEN: ADMIN, SERVER_SECRET: 'a-server-secret-set-after-the-secret-was-made' });
  expect((await s.http('GET', `/api/admin/dashboards/${dash.id}/embedding`, { token: ADMIN })).body.secret).toMatchObject({ readable: false });
  const refused = await s.http('GET', `/api/embed/${token}`, { token: null });
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('embed_token_invalid');
  // A rotation makes a readable one again.
  const rotated = await s.http('POST', `/api/admin/dashboards/${dash.id}/embedding/secret`, { token: ADMIN });
  expect(rotated.body.embedding.secret).toMatchObject({ readable: true, rotated: true });
  expect((await s.http('GET', `/api/embed/${await signEmbed(rotated.body.secret, { dashboard: dash.id })}`, { token: null })).status).toBe(200);
});
