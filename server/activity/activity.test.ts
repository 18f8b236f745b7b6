import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntryDto } from '@common/schemas/activity';
import { connected, expectNoSecrets, sixMonthsAgo, startKit, waitForSync, type Kit } from '../integrations/zendesk/test/kit';
import { ADMIN_TOKEN } from '../test/harness';
import { next, openSocket, type TestSocket } from '../test/sockets';

let kit: Kit;
let admin: TestSocket | undefined;
beforeAll(async () => {
  kit = await startKit({ tickets: 12, users: 4, organizations: 2, perPage: 10 });
});
afterAll(async () => {
  admin?.close();
  await kit?.close();
});

const entries = async (query = '') => {
  const res = await kit.s.http<ActivityEntryDto[]>('GET', `/api/admin/activity${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('activity log', () => {
  it('records every kind of event with time, address and credential kind, never a secret; filters, pushes live and exports CSV', async () => {
    const { s } = kit;
    admin = await openSocket(s.url, ADMIN_TOKEN);
    const pushed = next(admin, 'admin:activity', 10_000);

    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
    expect((await pushed).entry).toMatchObject({ kind: 'dataSource.created', objectId: ds.id, objectName: 'Tickets' });
    await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { description: 'Support queue' } });
    const rotated = (await s.http('POST', `/api/admin/data-sources/${ds.id}/ingest-key`)).body;
    const key: string = rotated.ingestKey;
    expect((await s.http('POST', '/api/data/ingest', { token: null, headers: { 'x-ingest-key': key }, body: { sourceId: ds.sourceId, records: [{ id: 1 }, { id: 2 }] } })).status).toBe(200);
    expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2 }, { nope: true }] } })).status).toBe(200);
    expect((await s.http('POST', '/api/data/ingest', { token: 'wrong-ingest-key-123', body: { sourceId: ds.sourceId, records: [{ id: 3 }] } })).status).toBe(401);
    expect((await s.http('GET', '/api/admin/dashboards', { token: 'wrong-admin-token-456' })).status).toBe(401);
    await expect(openSocket(s.url, 'wrong-socket-token-789')).rejects.toThrow('Invalid admin token');

    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Queue', dataSourceId: ds.id } })).body;
    await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { isPublished: true } });
    await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { isPublished: false } });
    const link = (await s.http('POST', `/api/admin/dashboards/${d.id}/links`, { body: { label: 'Acme' } })).body;
    await s.http('DELETE', `/api/admin/dashboards/${d.id}/links/${link.link.id}`);
    await s.http('PUT', `/api/admin/dashboards/${d.id}/embedding`, { body: { origins: ['https://intranet.example.com'] } });

    const zd = await connected(kit, 'Zendesk Desk');
    expect((await s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } })).status).toBe(202);
    await waitForSync(s, zd.id);
    await s.http('DELETE', `/api/admin/dashboards/${d.id}`);
    await s.http('DELETE', `/api/admin/data-sources/${ds.id}`);

    await expect.poll(async () => (await entries('?category=sync')).map((e) => e.kind), { timeout: 10_000 }).toContain('sync.completed');
    const all = await entries();
    const kinds = all.map((e) => e.kind);
    for (const kind of [
      'dataSource.created', 'dataSource.updated', 'dataSource.keyRotated', 'ingest', 'auth.failed', 'dashboard.created', 'dashboard.published',
      'dashboard.unpublished', 'dashboard.updated', 'dashboard.embeddingChanged', 'shareLink.created', 'shareLink.revoked', 'integration.created', 'integration.configured',
      'sync.started', 'sync.completed', 'dashboard.deleted', 'dataSource.deleted',
    ]) expect(kinds, kind).toContain(kind);
    expect(all.every((e) => e.address === '127.0.0.1' || e.category === 'sync')).toBe(true);
    expect([...all].sort((a, b) => b.at.localeCompare(a.at)).map((e) => e.id)).toEqual(all.map((e) => e.id));

    const ingests = await entries('?category=ingest');
    expect(ingests).toHaveLength(2);
    const byKey = ingests.find((e) => e.credential === 'ingestKey')!;
    expect(byKey).toMatchObject({ objectId: ds.id, objectName: 'Tickets', keyHint: rotated.ingestKeyHint, details: { requests: 1, records: 2, inserted: 2, rejected: 0, perMinute: true } });
    expect(ingests.find((e) => e.credential === 'admin')).toMatchObject({ keyHint: null, details: { requests: 1, records: 2, updated: 1, rejected: 1 } });
    const failures = await entries('?kind=auth.failed');
    expect(failures.map((e) => `${e.details.audience} ${e.details.path}`).sort()).toEqual(['admin /api/admin/dashboards', 'admin /socket.io', 'ingest /api/data/ingest']);
    expect((await entries(`?objectId=${d.id}`)).map((e) => e.kind).sort()).toEqual(['dashboard.created', 'dashboard.deleted', 'dashboard.embeddingChanged', 'dashboard.published', 'dashboard.unpublished', 'dashboard.updated', 'dashboard.updated']);
    expect((await s.http('GET', '/api/admin/activity?category=bogus')).body.error.code).toBe('validation_failed');

    const csv = await s.http('GET', '/api/admin/activity/export?category=admin');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toContain('activity-log-');
    expect(csv.text.split('\r\n')[0]).toBe('Time,Kind,Category,Object type,Object id,Object name,Summary,Address,Credential,Key hint,Actor');
    expect(csv.text).toContain('dataSource.keyRotated');

    // No secret anywhere: admin token, ingest keys (also the refused attempts), OAuth client secret and tokens.
    const everything = JSON.stringify(await entries('?limit=1000')) + (await s.http('GET', '/api/admin/activity/export')).text;
    for (const secret of [ADMIN_TOKEN, key, ds.ingestKey, 'wrong-ingest-key-123', 'wrong-admin-token-456', 'wrong-socket-token-789', link.token]) expect(everything).not.toContain(secret);
    expectNoSecrets(everything, kit);
  });
});
