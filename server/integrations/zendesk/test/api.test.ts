import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IntegrationDto } from '@common/schemas/integration';
import { eventually } from '../../../test/eventually';
import { connected, createIntegration, sixMonthsAgo, startKit, waitForSync, type Kit } from './kit';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(async () => kit?.close());
beforeEach(async () => kit.s.reset());

describe('Integrations API', () => {
  it('requires the admin token on every integrations route except the OAuth callback', async () => {
    const zd = await createIntegration(kit.s);
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/integrations'],
      ['POST', '/api/integrations', { name: 'x', type: 'zendesk' }],
      ['DELETE', `/api/integrations/${zd.id}`],
      ['POST', '/api/integrations/zendesk/config', { integrationId: zd.id, clientId: 'a', clientSecret: 'b', hostUrl: 'acme' }],
      ['POST', `/api/integrations/${zd.id}/sync`, {}],
      ['GET', `/api/integrations/${zd.id}/sync-status`],
      ['GET', `/api/integrations/${zd.id}/records`],
      ['PUT', `/api/integrations/${zd.id}/settings`, { autoSync: false, syncInterval: 30 }],
    ];
    for (const [method, path, body] of routes) {
      const none = await kit.s.http(method, path, { body, token: null });
      expect(none.status, `${method} ${path}`).toBe(401);
      const wrong = await kit.s.http(method, path, { body, token: 'wrong-token-123456' });
      expect(wrong.status, `${method} ${path}`).toBe(401);
    }
    const callback = await kit.s.http('GET', '/api/integrations/zendesk/callback?state=nope&code=x', { token: null });
    expect(callback.status).toBe(200);
    expect(callback.headers.get('content-type')).toContain('text/html');
    expect((await kit.s.http('GET', '/api/integrations')).body).toHaveLength(1);
  });

  it('validates create with its documented messages; only zendesk can be connected', async () => {
    const res = await kit.s.http('POST', '/api/integrations', { body: { name: ' ' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('Name is required');
    expect(res.body.error.message).toContain('Type is required');
    const soon = await kit.s.http('POST', '/api/integrations', { body: { name: 'CRM', type: 'salesforce' } });
    expect(soon.status).toBe(400);
    expect(soon.body.error.message).toContain('coming soon');
  });

  it('unknown ids answer 404, syncing a pending integration answers 400, bad startDate 400', async () => {
    expect((await kit.s.http('GET', '/api/integrations/64b7f0000000000000000000/sync-status')).status).toBe(404);
    expect((await kit.s.http('DELETE', '/api/integrations/not-an-id')).status).toBe(404);
    const pending = await createIntegration(kit.s);
    const sync = await kit.s.http('POST', `/api/integrations/${pending.id}/sync`, { body: {} });
    expect(sync.status).toBe(400);
    expect(sync.body.error.code).toBe('not_connected');
    const bad = await kit.s.http('POST', `/api/integrations/${pending.id}/sync`, { body: { startDate: 'yesterday' } });
    expect(bad.status).toBe(400);
  });

  it('auto-sync: the scheduler runs a due incremental sync once and schedules the next', async () => {
    const zd = await connected(kit);
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    await waitForSync(kit.s, zd.id);
    await kit.s.http('PUT', `/api/integrations/${zd.id}/settings`, { body: { autoSync: true, syncInterval: 30 } });
    const fresh = kit.sim.data.createTicket({ subject: 'Arrived between auto-syncs' });
    await kit.s.app.ctx.conn.collection('integrations').updateOne({}, { $set: { nextAutoSyncAt: new Date(Date.now() - 1000) } });

    const { createRuntime } = await import('../../runtime');
    const { createIntegrationModels: createZendeskModels } = await import('../../models');
    const { startAutoSyncScheduler } = await import('../../scheduler');
    // Two schedulers (two processes) tick at once: only one sync runs.
    const models = await createZendeskModels(kit.s.app.ctx.conn);
    const a = startAutoSyncScheduler(createRuntime(kit.s.app.ctx, models), 3_600_000);
    const b = startAutoSyncScheduler(createRuntime(kit.s.app.ctx, models), 3_600_000);
    const started: string[] = [];
    const off = kit.s.app.ctx.events.on('sync.completed', (e) => started.push(e.integrationId));
    await Promise.all([a.tick(), b.tick()]);
    await eventually(() => started.length > 0, { timeout: 25_000 });
    const status = await waitForSync(kit.s, zd.id);
    off();
    await Promise.all([a.close(), b.close()]);
    expect(started).toEqual([zd.id]);
    expect(status.lastSyncResults?.ticketsSynced).toBe(1);
    const raw = (await kit.s.http('GET', `/api/data/raw?dataSourceId=zendesk_${zd.id}&limit=1000`)).body;
    expect(raw.records.some((r: { recordId: string }) => r.recordId === String(fresh.id))).toBe(true);
    const after = (await kit.s.http<IntegrationDto[]>('GET', '/api/integrations')).body[0];
    expect(Date.parse(after.nextAutoSyncAt!)).toBeGreaterThan(Date.now() + 20_000);
  });
});
