import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import type { JoinAck, RecordsRemoved, RecordsUpserted, SyncProgressEvent } from '@common/realtime';
import { eventually } from '../../../test/eventually';
import { ADMIN_TOKEN, capturedLog } from '../../../test/harness';
import { authorize, CLIENT, connected, createIntegration, sixMonthsAgo, startKit, waitForSync, type Kit } from './kit';

let kit: Kit;
// Every line the server logs, at every level (debug included), with its fields.
const { log, lines: logged } = capturedLog();
beforeAll(async () => {
  kit = await startKit({}, { LOG_LEVEL: 'debug' }, [], log);
});
afterAll(async () => {
  await kit?.close();
});

const connect = (auth?: { token: string }) =>
  new Promise<Socket>((resolve, reject) => {
    const s = io(kit.s.url, { transports: ['websocket'], auth, forceNew: true });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });

describe('Zendesk sync seen live', () => {
  it('viewers of a published dashboard on the source receive the deltas; admins receive sync progress', async () => {
    const zd = await connected(kit);
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    await waitForSync(kit.s, zd.id);
    const ds = (await kit.s.http('GET', `/api/data/raw?dataSourceId=zendesk_${zd.id}`)).body.dataSource as { id: string };
    const dash = await kit.s.http('POST', '/api/admin/dashboards', { body: { name: 'Support live', dataSourceId: ds.id, isPublished: true } });
    expect(dash.status).toBe(201);

    const viewer = await connect();
    const admin = await connect({ token: ADMIN_TOKEN });
    const ack = await new Promise<JoinAck>((r) => viewer.emit('dashboard:join', dash.body.id, r));
    expect(ack.ok).toBe(true);
    const upserts: RecordsUpserted[] = [];
    const removals: RecordsRemoved[] = [];
    const progress: SyncProgressEvent[] = [];
    viewer.on('records:upserted', (e) => upserts.push(e));
    viewer.on('records:removed', (e) => removals.push(e));
    admin.on('sync:progress', (e) => progress.push(e));
    const completed = new Promise((r) => admin.once('sync:completed', r));

    const created = kit.sim.data.createTicket({ subject: 'Seen live' });
    const victim = [...kit.sim.data.tickets.values()].find((t) => t.status !== 'deleted' && t.ts >= sixMonthsAgo() && t.id !== created.id)!;
    kit.sim.data.deleteTicket(victim.id);
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: {} });
    await completed;
    // The viewer's deltas travel on their own connection: wait for them, not for the clock.
    await eventually(() => {
      expect(upserts.flatMap((u) => u.records).some((r) => r.data.subject === 'Seen live')).toBe(true);
      expect(removals.flatMap((r) => r.recordIds)).toContain(String(victim.id));
    });
    viewer.close();
    admin.close();
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.every((p) => p.integrationId === zd.id)).toBe(true);
  });

  it('an expired access token is refreshed with the refresh token and the sync goes on', async () => {
    const zd = await connected(kit, 'Refreshing');
    const before = (await kit.s.app.ctx.conn.collection('integrations').findOne({ name: 'Refreshing' })) as unknown as { oauth: { accessToken: string } };
    kit.sim.expireAccessTokens();
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    const status = await waitForSync(kit.s, zd.id);
    expect(status.errors).toEqual([]);
    const after = (await kit.s.app.ctx.conn.collection('integrations').findOne({ name: 'Refreshing' })) as unknown as { oauth: { accessToken: string } };
    expect(after.oauth.accessToken).not.toBe(before.oauth.accessToken);
  });

  it('no client secret, code or token ever reaches the log, even at debug level', async () => {
    const zd = await createIntegration(kit.s, 'Log check');
    const bad = await authorize(kit, zd.id, { clientSecret: 'wrong-secret-for-logs' });
    expect(bad.message.success).toBe(false);
    const good = await authorize(kit, zd.id);
    expect(good.message.success).toBe(true);
    const stored = await kit.s.app.ctx.conn.collection('integrations').find({}).toArray();
    const secrets = [CLIENT.clientSecret, 'wrong-secret-for-logs', new URL(good.callbackUrl).searchParams.get('code')!];
    for (const doc of stored as unknown as { oauth: { accessToken?: string; refreshToken?: string } }[]) {
      if (doc.oauth.accessToken) secrets.push(doc.oauth.accessToken);
      if (doc.oauth.refreshToken) secrets.push(doc.oauth.refreshToken);
    }
    expect(logged.some((l) => l.includes('zendesk:'))).toBe(true);
    for (const line of logged) for (const secret of secrets) expect(line).not.toContain(secret);
  });
});
