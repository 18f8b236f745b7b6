import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import type { JoinAck, RecordsUpserted, SyncCompletedEvent, SyncProgressEvent } from '@common/realtime';
import type { IntegrationDto } from '@common/schemas/integration';
import { eventually } from '../../../test/eventually';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../../test/harness';
import { startReceiver, type TestReceiver } from '../../../test/receiver';
import { createPull, runs, syncAndWait } from '../../test/pullKit';
import { startUpstream, type Upstream } from './upstream';

/** A pull integration seen live: progress in its room, deltas to a dashboard's viewers, auto-sync, alerts on pulled rows. */

let s: TestServer;
let up: Upstream;
let rx: TestReceiver;
beforeAll(async () => {
  up = await startUpstream({ items: 25, per: 10 });
  rx = await startReceiver();
  // The scheduler looks often: an auto-sync comes due within a test's patience.
  s = await startTestServer({ OUTBOUND_ALLOWED_HOSTS: `${up.hostPort},${rx.hostPort}`, ZENDESK_SCHEDULER_TICK_MS: '200' });
});
afterAll(async () => Promise.all([s?.close(), up?.close(), rx?.close()]));

const connect = (auth?: { token: string }) =>
  new Promise<Socket>((resolve, reject) => {
    const c = io(s.url, { transports: ['websocket'], auth, forceNew: true });
    c.once('connect', () => resolve(c));
    c.once('connect_error', reject);
  });

const config = (more: Record<string, unknown> = {}) => ({
  url: `${up.url}/v1/next-url`, recordsPath: 'data.items', pagination: { type: 'next-url', path: 'links.next' }, primaryKey: 'id',
  incremental: { field: 'updated_at', param: 'since' }, ...more,
});

describe('HTTP API integration, live', () => {
  it('progress reaches the integration\'s room page by page, and a published dashboard\'s viewers get the records as they land', async () => {
    const it = await createPull(s, 'api', config(), 'Live items');
    expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded', records: 25 });
    const ds = (await s.http<IntegrationDto>('GET', `/api/integrations/${it.id}`)).body;
    const dash = await s.http('POST', '/api/admin/dashboards', { body: { name: 'Items live', dataSourceId: ds.dataSourceId, isPublished: true } });
    expect(dash.status, dash.text).toBe(201);

    const admin = await connect({ token: ADMIN_TOKEN });
    const viewer = await connect();
    const joined = await new Promise<JoinAck>((r) => admin.emit('integration:join', it.id, r));
    expect(joined.ok).toBe(true);
    // A viewer may not follow an integration.
    expect((await new Promise<JoinAck>((r) => viewer.emit('integration:join', it.id, r))).ok).toBe(false);
    expect((await new Promise<JoinAck>((r) => viewer.emit('dashboard:join', dash.body.id, r))).ok).toBe(true);
    const progress: SyncProgressEvent[] = [];
    const upserts: RecordsUpserted[] = [];
    admin.on('sync:progress', (e) => progress.push(e));
    viewer.on('records:upserted', (e) => upserts.push(e));
    const completed = new Promise<SyncCompletedEvent>((r) => admin.once('sync:completed', r));

    for (let i = 26; i <= 45; i++) up.items.push({ id: i, name: `Item ${i}`, amount: i * 10, updated_at: new Date(Date.UTC(2024, 5, 1, 0, i)).toISOString() });
    expect((await s.http('POST', `/api/integrations/${it.id}/sync`, { body: {} })).status).toBe(202);
    const done = await completed;
    // Item 25 again (the cursor's own value) and the 20 new ones, in three pages.
    expect(done).toMatchObject({ integrationId: it.id, isRunning: false, recordsProcessed: 21, pagesProcessed: 3, rejected: 0, errors: [], progress: { progress: 100 } });
    const running = progress.filter((p) => p.isRunning);
    expect(running.map((p) => p.pagesProcessed)).toEqual(expect.arrayContaining([1, 2, 3]));
    expect(running.map((p) => p.recordsProcessed)).toEqual(expect.arrayContaining([10, 20, 21]));
    expect(progress.every((p) => p.integrationId === it.id)).toBe(true);
    const percents = progress.map((p) => p.progress.progress);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    await eventually(() => expect(upserts.flatMap((u) => u.records).map((r) => r.data.id)).toEqual(expect.arrayContaining([26, 45])));
    admin.close();
    viewer.close();
  });

  it('auto-sync runs an incremental sync when due, by the scheduler, and schedules the next one', async () => {
    const it = await createPull(s, 'api', config(), 'Auto items');
    expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded' });
    const bad = await s.http('PUT', `/api/integrations/${it.id}/settings`, { body: { autoSync: true, syncInterval: 20 } });
    expect(bad.status).toBe(400);
    const on = await s.http<IntegrationDto>('PUT', `/api/integrations/${it.id}/settings`, { body: { autoSync: true, syncInterval: 30 } });
    expect(on.body.config).toMatchObject({ autoSync: true, syncInterval: 30 });
    up.items.push({ id: 500, name: 'Arrived between syncs', amount: 1, updated_at: '2025-01-01T00:00:00.000Z' });
    await s.app.ctx.conn.collection('integrations').updateOne({ name: 'Auto items' }, { $set: { nextAutoSyncAt: new Date(Date.now() - 1000) } });
    const auto = await eventually(async () => {
      const [last] = await runs(s, it.id);
      return last.trigger === 'auto' && last.status !== 'running' && last;
    }, { timeout: 10_000 });
    expect(auto).toMatchObject({ status: 'succeeded', mode: 'incremental', trigger: 'auto' });
    const after = await eventually(async () => {
      const a = (await s.http<IntegrationDto>('GET', `/api/integrations/${it.id}`)).body;
      return Date.parse(a.nextAutoSyncAt!) > Date.now() + 20_000 && a;
    });
    expect(after.lastRun?.trigger).toBe('auto');
    await s.http('PUT', `/api/integrations/${it.id}/settings`, { body: { autoSync: false, syncInterval: 30 } });
  });

  it('alerts on a pulled data source fire from the pulled rows, as for pushed ones', async () => {
    const it = await createPull(s, 'api', config(), 'Alerted items');
    await syncAndWait(s, it.id);
    const { dataSourceId } = (await s.http<IntegrationDto>('GET', `/api/integrations/${it.id}`)).body;
    const rule = await s.http('POST', '/api/admin/alerts', {
      body: { name: 'Big amount', dataSourceId, metric: 'max', valueField: 'amount', condition: { operator: 'gt', value: 1000 }, channels: [{ type: 'webhook', url: `${rx.url}/pulled` }] },
    });
    expect(rule.status, rule.text).toBe(201);
    up.items.push({ id: 900, name: 'Big one', amount: 5000, updated_at: '2026-01-01T00:00:00.000Z' });
    expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded' });
    const [fired] = await eventually(() => rx.on('/pulled').length === 1 && rx.on('/pulled'), { timeout: 5_000 });
    expect(fired.json).toMatchObject({ state: 'firing', value: 5000, alert: { name: 'Big amount' } });
  });
});
