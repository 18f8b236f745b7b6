import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IntegrationDto, IntegrationRecordsDto, SyncStatusDto } from '@common/schemas/integration';
import type { DomainEvents } from '../../../core/events';
import { connected, expectNoSecrets, sixMonthsAgo, startKit, waitForSync, type Kit } from './kit';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(async () => kit?.close());
beforeEach(async () => kit.s.reset());

const ticketsSince = (since: number) => [...kit.sim.data.tickets.values()].filter((t) => t.ts >= since && t.status !== 'deleted');
const raw = async (sourceId: string, limit = 1000) => (await kit.s.http('GET', `/api/data/raw?dataSourceId=${sourceId}&limit=${limit}`)).body;
const integration = async (id: string) => (await kit.s.http<IntegrationDto[]>('GET', '/api/integrations')).body.find((i) => i.id === id)!;

function collect<K extends keyof DomainEvents>(name: K): { list: DomainEvents[K][]; off: () => void } {
  const list: DomainEvents[K][] = [];
  const off = kit.s.app.ctx.events.on(name, (e) => list.push(e));
  return { list, off };
}

describe('Zendesk sync against the simulator', () => {
  it('initial sync from a start date: tickets become records with names, custom fields and labels', async () => {
    const zd = await connected(kit);
    const progress = collect('sync.progress');
    const completed = collect('sync.completed');
    const since = sixMonthsAgo();
    const start = await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(since) } });
    expect(start.status).toBe(202);
    expect(start.body).toEqual({ status: 'started', integrationId: zd.id, mode: 'initial' });
    const status = await waitForSync(kit.s, zd.id);
    progress.off();
    completed.off();

    const expected = ticketsSince(since);
    expect(status).toMatchObject({ isRunning: false, errors: [], ticketsProcessed: expected.length, usersProcessed: 30 });
    expect(status.lastSyncResults).toEqual({ ticketsSynced: expected.length, usersSynced: 30, organizationsSynced: 5, ticketsDeleted: 0 });
    expect(completed.list).toEqual([{
      integrationId: zd.id, ticketsSynced: expected.length, usersSynced: 30, organizationsSynced: 5, ticketsDeleted: 0, errors: [],
      // What every provider's events carry: tickets are the records, their export pages the pages.
      isRunning: false, progress: { message: expect.stringContaining('Sync complete'), progress: 100 }, recordsProcessed: expected.length, pagesProcessed: expect.any(Number), rejected: 0,
    }]);
    const percents = progress.list.map((p) => p.progress.progress);
    expect(percents.length).toBeGreaterThan(4);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    expect(progress.list.some((p) => p.isRunning && p.ticketsProcessed! > 0 && p.ticketsProcessed! < expected.length)).toBe(true);

    const after = await integration(zd.id);
    expect(after.sourceId).toBe(`zendesk_${zd.id}`);
    expect(after.config.lastCursor).toBeTruthy();
    expect(after.lastSync).toBeTruthy();
    const data = await raw(after.sourceId!);
    expect(data.total).toBe(expected.length);
    const sample = kit.sim.data.tickets.get(Number(data.records[0].recordId))!;
    const rec = data.records[0].data;
    expect(rec.id).toBe(sample.id);
    expect(rec.requester).toBe(kit.sim.data.users.get(sample.requester_id)!.name);
    expect(rec.status).toBe(kit.sim.data.customStatuses.find((c) => c.id === sample.custom_status_id)!.agent_label);
    expect(rec.custom_fields).toEqual(sample.custom_fields);

    const sources = (await kit.s.http('GET', '/api/data/sources')).body as { sourceId: string; primaryKey: string; keyMappings: Record<string, string> }[];
    const ds = sources.find((d) => d.sourceId === after.sourceId)!;
    expect(ds.primaryKey).toBe('id');
    expect(ds.keyMappings).toMatchObject({ custom_360001: 'Product Area', custom_360002: 'Order Number', subject: 'Subject', requester: 'Requester' });

    const totals = await kit.s.http<IntegrationRecordsDto>('GET', `/api/integrations/${zd.id}/records`);
    expect(totals.body).toEqual({ totalTickets: expected.length, totalUsers: 30, totalOrganizations: 5, totalCustomStatuses: 7 });
  });

  it('incremental sync picks up new, updated and deleted tickets from the saved cursor', async () => {
    const zd = await connected(kit);
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    await waitForSync(kit.s, zd.id);
    const before = await raw(`zendesk_${zd.id}`);
    const existing = before.records.map((r: { recordId: string }) => Number(r.recordId)) as number[];

    const created = kit.sim.data.createTicket({ subject: 'Brand new ticket' });
    const updated = kit.sim.data.updateTicket(existing[0], { subject: 'Updated subject', custom_status_id: 3 })!;
    const deleted = kit.sim.data.deleteTicket(existing[1])!;
    const removed = collect('records.removed');
    const ticketRequestsBefore = kit.sim.requests.get('/api/v2/incremental/tickets/cursor.json') ?? 0;

    const start = await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: {} });
    expect(start.body.mode).toBe('incremental');
    const status = await waitForSync(kit.s, zd.id);
    removed.off();
    expect(status.lastSyncResults).toMatchObject({ ticketsSynced: 2, ticketsDeleted: 1 });
    expect((kit.sim.requests.get('/api/v2/incremental/tickets/cursor.json') ?? 0) - ticketRequestsBefore).toBe(1);

    const after = await raw(`zendesk_${zd.id}`);
    expect(after.total).toBe(before.total);
    const byId = new Map<string, { data: Record<string, unknown> }>(after.records.map((r: { recordId: string; data: Record<string, unknown> }) => [r.recordId, r]));
    expect(byId.get(String(created.id))?.data.subject).toBe('Brand new ticket');
    expect(byId.get(String(updated.id))?.data).toMatchObject({ subject: 'Updated subject', status: 'In Progress', status_category: 'open' });
    expect(byId.has(String(deleted.id))).toBe(false);
    expect(removed.list.some((e) => e.recordIds.includes(String(deleted.id)))).toBe(true);
  });

  it('honours 429 Retry-After and still completes', async () => {
    const zd = await connected(kit);
    kit.sim.rateLimitNext(2, 1);
    const t0 = Date.now();
    const progress = collect('sync.progress');
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    const status = await waitForSync(kit.s, zd.id);
    progress.off();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2000);
    expect(status.errors).toEqual([]);
    expect(status.lastSyncResults?.ticketsSynced).toBe(ticketsSince(sixMonthsAgo()).length);
    expect(progress.list.some((p) => p.progress.message.startsWith('Rate limited by Zendesk: waiting 1s'))).toBe(true);
  });

  it('a failed request is recorded in lastSyncErrors, keeps what was fetched, and the next sync resumes', async () => {
    const zd = await connected(kit);
    const since = sixMonthsAgo();
    const expected = ticketsSince(since).length;
    // The second tickets page fails: the first page (40 tickets) must stay.
    let calls = 0;
    const failed = collect('sync.failed');
    const off = kit.s.app.ctx.events.on('records.upserted', () => {
      calls++;
      if (calls === 1) kit.sim.failNext(1, { status: 500, pathPart: '/incremental/tickets' });
    });
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(since) } });
    const status = await waitForSync(kit.s, zd.id);
    off();
    failed.off();
    expect(status.errors).toHaveLength(1);
    expect(status.errors[0]).toMatch(/^tickets: GET \/api\/v2\/incremental\/tickets\/cursor\.json answered 500/);
    expect(failed.list).toHaveLength(1);
    const after = await integration(zd.id);
    expect(after.config.lastSyncErrors).toEqual(status.errors);
    expect(after.status).toBe('active');
    expect((await raw(after.sourceId!)).total).toBe(40);

    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: {} });
    const resumed = await waitForSync(kit.s, zd.id);
    expect(resumed.errors).toEqual([]);
    expect(resumed.lastSyncResults?.ticketsSynced).toBe(expected - 40);
    expect((await raw(after.sourceId!)).total).toBe(expected);
    expect((await integration(zd.id)).config.lastSyncErrors).toEqual([]);
  });

  it('one sync at a time: a second start answers 409', async () => {
    const zd = await connected(kit);
    kit.sim.rateLimitNext(1, 1);
    const first = await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    expect(first.status).toBe(202);
    const second = await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: {} });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe('A sync is already running for this integration');
    expect((await integration(zd.id)).isSyncing).toBe(true);
    await waitForSync(kit.s, zd.id);
  });

  it('a sync whose process died is marked interrupted and the next one resumes from the saved cursor', async () => {
    const zd = await connected(kit);
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    await waitForSync(kit.s, zd.id);
    // Simulate a crashed process holding the lease.
    await kit.s.app.ctx.conn.collection('integrations').updateOne({}, {
      $set: { 'sync.isRunning': true, 'sync.leaseOwner': 'dead-process', 'sync.leaseExpiresAt': new Date(Date.now() - 1000) },
    });
    const { sweepExpiredLeases } = await import('../../lease');
    const { createRuntime } = await import('../../runtime');
    const { createIntegrationModels: createZendeskModels } = await import('../../models');
    const rt = createRuntime(kit.s.app.ctx, await createZendeskModels(kit.s.app.ctx.conn));
    expect(await sweepExpiredLeases(rt)).toBe(1);
    const status = (await kit.s.http<SyncStatusDto>('GET', `/api/integrations/${zd.id}/sync-status`)).body;
    expect(status).toMatchObject({ isRunning: false, interrupted: true });
    expect(status.progress.message).toContain('interrupted');
    kit.sim.data.createTicket();
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: {} });
    const next = await waitForSync(kit.s, zd.id);
    expect(next).toMatchObject({ interrupted: false, errors: [] });
    expect(next.lastSyncResults?.ticketsSynced).toBe(1);
  });

  it('settings, delete (removes the data source and its records) and no secrets in any answer', async () => {
    const zd = await connected(kit);
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    await waitForSync(kit.s, zd.id);
    const bad = await kit.s.http('PUT', `/api/integrations/${zd.id}/settings`, { body: { autoSync: true, syncInterval: 10 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Please enter a frequency of at least 30 seconds');
    const ok = await kit.s.http<IntegrationDto>('PUT', `/api/integrations/${zd.id}/settings`, { body: { autoSync: true, syncInterval: 900 } });
    expect(ok.body.config).toMatchObject({ autoSync: true, syncInterval: 900 });
    expect(ok.body.nextAutoSyncAt).toBeTruthy();

    const stored = (await kit.s.app.ctx.conn.collection('integrations').findOne({})) as unknown as { oauth: { accessToken: string; refreshToken: string } };
    const secrets = [stored.oauth.accessToken, stored.oauth.refreshToken];
    for (const path of ['/api/integrations', `/api/integrations/${zd.id}/sync-status`, `/api/integrations/${zd.id}/records`, '/api/data/sources']) {
      expectNoSecrets((await kit.s.http('GET', path)).text, kit, secrets);
    }
    expectNoSecrets(ok.text, kit, secrets);

    const del = await kit.s.http('DELETE', `/api/integrations/${zd.id}`);
    expect(del.status).toBe(200);
    expect((await kit.s.http('GET', '/api/integrations')).body).toEqual([]);
    expect((await kit.s.http('GET', `/api/data/raw?dataSourceId=zendesk_${zd.id}`)).status).toBe(404);
    expect(await kit.s.app.ctx.models.Record.countDocuments({})).toBe(0);
    expect(await kit.s.app.ctx.conn.collection('zendesk_entities').countDocuments({})).toBe(0);
  });
});
