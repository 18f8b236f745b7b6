import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncStatusDto } from '@common/schemas/integration';
import { eventually } from '../../../test/eventually';
import { startTestServer, type TestServer } from '../../../test/harness';
import { connected, simHost, sixMonthsAgo, startKit, waitForSync, type Kit } from './kit';

let kit: Kit;
let second: TestServer | null = null;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(async () => {
  await second?.close();
  await kit?.close();
});

describe('two processes on one database', () => {
  it('one sync at a time across processes; a stopped process leaves its sync interrupted and the next resumes', async () => {
    const zd = await connected(kit);
    // A second app process on the same database.
    second = await startTestServer({ MONGODB_URI: kit.s.app.ctx.db.uri, ZENDESK_SCHEDULER_TICK_MS: '0', ZENDESK_HTTP_HOSTS: simHost(kit.sim) });
    const page1 = new Promise<void>((resolve) => {
      const off = second!.app.ctx.events.on('records.upserted', () => {
        off();
        // After the first stored page, Zendesk asks us to wait a long time.
        kit.sim.rateLimitNext(1, 60);
        resolve();
      });
    });
    const started = await second.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    expect(started.status).toBe(202);
    await page1;
    // The sync has met the 429 and waits: the simulator has served it.
    await eventually(async () => expect((await (await fetch(`${kit.sim.url}/__sim/state`)).json()).rateLimited.count).toBe(0));
    const clash = await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: {} });
    expect(clash.status).toBe(409);

    await second.close();
    second = null;
    const status = (await kit.s.http<SyncStatusDto>('GET', `/api/integrations/${zd.id}/sync-status`)).body;
    expect(status).toMatchObject({ isRunning: false, interrupted: true });
    expect(status.ticketsProcessed).toBe(40);

    const resumed = await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: {} });
    expect(resumed.body.mode).toBe('incremental');
    const done = await waitForSync(kit.s, zd.id);
    const expected = [...kit.sim.data.tickets.values()].filter((t) => t.ts >= sixMonthsAgo() && t.status !== 'deleted').length;
    expect(done.lastSyncResults?.ticketsSynced).toBe(expected - 40);
    expect((await kit.s.http('GET', `/api/data/raw?dataSourceId=zendesk_${zd.id}`)).body.total).toBe(expected);
  });
});
