import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../test/harness';
import { useCluster } from '../test/cluster';
import { buildPerson, buildSource, type BuiltSource } from '../test/factories';
import { eventually } from '../test/eventually';
import { startReceiver, type TestReceiver } from '../test/receiver';
import { outboundAllowedHosts } from '../core';

/**
 * Settings an admin changes in the console, effective at once in every process: two server
 * processes (A in this process, B a child) on one database and a real redis-server, and a real
 * receiver on loopback that an alert or an integration may call only once an admin allowed it.
 */
const BASE = 'base.example.internal:8080';
const cluster = useCluster({ a: { OUTBOUND_ALLOWED_HOSTS: BASE }, b: { OUTBOUND_ALLOWED_HOSTS: BASE } });
let rx: TestReceiver;
let source: BuiltSource;
beforeAll(async () => {
  rx = await startReceiver();
  source = await buildSource(cluster.a, { name: 'Watched', records: [{ id: 1, n: 5 }] });
});
afterAll(() => rx?.close());

/** Calls process B with the admin token. */
const onB = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(cluster.b.url + path, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};
const alertTo = (url: string) => ({ name: 'Calls the receiver', dataSourceId: source.id, condition: { operator: 'gt', value: 100 }, channels: [{ type: 'webhook', url }] });

describe('GET/PUT /api/admin/settings', () => {
  it('answers admins only, and says what the environment allows besides', async () => {
    const { a } = cluster;
    expect((await a.http('GET', '/api/admin/settings')).body).toEqual({ outboundAllowedHosts: [], fromEnvironment: { outboundAllowedHosts: [BASE] }, updatedAt: null, updatedBy: null });
    const editor = await buildPerson(a, 'editor');
    const viewer = await buildPerson(a, 'viewer');
    for (const who of [editor, viewer]) {
      expect((await who.http('GET', '/api/admin/settings')).status).toBe(403);
      expect((await who.http('PUT', '/api/admin/settings', { body: { outboundAllowedHosts: ['127.0.0.1:1'] } })).status).toBe(403);
    }
    expect((await a.http('GET', '/api/admin/settings', { token: null })).status).toBe(401);
    expect(outboundAllowedHosts(a.app.ctx)).toEqual([BASE]);
  });

  it('refuses what is not host:port, naming the entry', async () => {
    for (const bad of ['http://127.0.0.1:5199', '127.0.0.1', '127.0.0.1:5199/hook', 'host:70000']) {
      const res = await cluster.a.http('PUT', '/api/admin/settings', { body: { outboundAllowedHosts: ['ok.example:1', bad] } });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.fields[0].path).toBe('outboundAllowedHosts.1');
    }
    expect((await cluster.a.http('PUT', '/api/admin/settings', { body: { outboundAllowedHosts: [], extra: 1 } })).status).toBe(400);
  });

  it('lets an alert call a host an admin allowed, at once on every process, and logs who allowed it', async () => {
    const { a } = cluster;
    const url = `${rx.url}/settings-hook`;
    // Refused while not allowed, saying where to allow it.
    const refused = await onB('POST', '/api/admin/alerts', alertTo(url));
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(`allow ${rx.hostPort} under Settings › Outbound hosts`);

    const put = await a.http('PUT', '/api/admin/settings', { body: { outboundAllowedHosts: [` ${rx.hostPort.toUpperCase()} `, rx.hostPort] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ outboundAllowedHosts: [rx.hostPort], updatedBy: 'admin token' });
    expect(outboundAllowedHosts(a.app.ctx)).toEqual([BASE, rx.hostPort]);

    // Process B applies it without a restart: the same alert is accepted there, and its test message arrives.
    const created = await eventually(async () => {
      const res = await onB('POST', '/api/admin/alerts', alertTo(url));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    }, { timeout: 5_000, interval: 100 });
    expect((await onB('GET', '/api/admin/settings')).body.outboundAllowedHosts).toEqual([rx.hostPort]);
    expect((await onB('POST', `/api/admin/alerts/${created.id}/test`)).status).toBe(202);
    await eventually(() => expect(rx.on('/settings-hook').length).toBeGreaterThan(0), { timeout: 15_000, interval: 100 });

    const log = await eventually(async () => {
      const entries = (await a.http('GET', '/api/admin/activity?category=admin&kind=settings.updated')).body;
      expect(entries.length).toBe(1);
      return entries[0];
    }, { timeout: 5_000, interval: 100 });
    expect(log).toMatchObject({ summary: `Settings: allowed outbound host ${rx.hostPort}`, actor: 'admin token', details: { added: [rx.hostPort], removed: [] } });

    // Taken back on B: A refuses it at once too.
    expect((await onB('PUT', '/api/admin/settings', { outboundAllowedHosts: [] })).status).toBe(200);
    await eventually(() => expect(outboundAllowedHosts(a.app.ctx)).toEqual([BASE]), { timeout: 5_000, interval: 50 });
    const again = await a.http('POST', '/api/admin/alerts', { body: alertTo(url) });
    expect(again.status).toBe(400);
  }, 60_000);

  it('let an integration reach a host an admin allowed, at once on every process, as alerts do; a refusal says where to allow it', async () => {
    const { a } = cluster;
    // One list for every way out: core's outboundAllowedHosts, read by the integrations room at each check.
    const api = { type: 'api', config: { url: `${rx.url}/items`, primaryKey: 'id' } };
    const hint = `allow ${rx.hostPort} under Settings › Outbound hosts`;
    for (const [path, body] of [['/api/integrations/test', api], ['/api/integrations', { name: 'Items', ...api }]] as const) {
      const refused = await onB('POST', path, body);
      expect(refused.status, path).toBe(400);
      expect(refused.body.error.message, path).toBe(`config.url: The URL must use https:// (plain http only to an allowed host:port): ${hint}`);
    }
    expect(rx.on('/items')).toHaveLength(0);

    expect((await a.http('PUT', '/api/admin/settings', { body: { outboundAllowedHosts: [rx.hostPort] } })).status).toBe(200);
    // B saves it and reads from it without a restart (the receiver answers text, not JSON: the read fails past the rule, at the receiver).
    const created = await eventually(async () => {
      const res = await onB('POST', '/api/integrations', { name: 'Items', ...api });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string };
    }, { timeout: 5_000, interval: 100 });
    const read = await onB('POST', `/api/integrations/${created.id}/test`);
    expect(JSON.stringify(read.body)).not.toContain('Settings › Outbound hosts');
    expect(rx.on('/items').length).toBeGreaterThan(0);

    // Taken back on A: B refuses to read from the saved integration again, in the same words.
    expect((await a.http('PUT', '/api/admin/settings', { body: { outboundAllowedHosts: [] } })).status).toBe(200);
    await eventually(async () => {
      const again = await onB('POST', `/api/integrations/${created.id}/test`);
      expect(again.status).toBe(400);
      expect(again.body.error.message).toContain(hint);
    }, { timeout: 5_000, interval: 100 });
    expect((await onB('DELETE', `/api/integrations/${created.id}`)).status).toBeLessThan(300);
  }, 60_000);

  it('are kept in the database: a process started later has them', async () => {
    const { a } = cluster;
    await a.http('PUT', '/api/admin/settings', { body: { outboundAllowedHosts: ['kept.example:9000'] } });
    const later = await (await import('../test/harness')).startTestServer({ MONGODB_URI: cluster.db.uri });
    try {
      expect(outboundAllowedHosts(later.app.ctx)).toEqual(['kept.example:9000']);
    } finally {
      await later.close();
      await a.http('PUT', '/api/admin/settings', { body: { outboundAllowedHosts: [] } });
    }
  });
});
