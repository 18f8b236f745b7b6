import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JoinAck } from '@common/realtime';
import { buildDashboard, buildSource } from '../test/factories';
import { startTestServer, type TestServer } from '../test/harness';
import { next, openSocket, type TestSocket } from '../test/sockets';

let s: TestServer;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  sockets.forEach((x) => x.close());
  await s?.close();
});
beforeEach(() => s.reset());

async function draft(records: Record<string, unknown>[] = [{ id: 1, status: 'open' }]) {
  const ds = await buildSource(s, { records });
  const d = await buildDashboard(s, { source: ds, name: 'Customer Queue' });
  return { ds, d };
}

const link = async (dashboardId: string, body: Record<string, unknown> = { label: 'Acme' }) => s.http('POST', `/api/admin/dashboards/${dashboardId}/links`, { body });

async function viewer(token: string): Promise<{ socket: TestSocket; ack: JoinAck }> {
  const socket = await openSocket(s.url);
  sockets.push(socket);
  const ack = await new Promise<JoinAck>((resolve) => socket.emit('share:join', token, resolve));
  return { socket, ack };
}

describe('share links', () => {
  it('opens a draft dashboard by token, shows the token once, and keeps the draft unlisted', async () => {
    const { ds, d } = await draft();
    const created = await link(d.id, { label: 'Acme support', allowCsv: true });
    expect(created.status).toBe(201);
    const { token, path, link: dto } = created.body;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/); // 192 random bits
    expect(path).toBe(`/s/${token}`);
    expect(dto).toMatchObject({ dashboardId: d.id, label: 'Acme support', allowCsv: true, expiresAt: null, lastUsedAt: null, revokedAt: null, status: 'active', tokenHint: token.slice(0, 6) });

    const list = await s.http('GET', `/api/admin/dashboards/${d.id}/links`);
    expect(list.body).toHaveLength(1);
    expect(list.text).not.toContain(token);
    expect(list.text).not.toContain('tokenHash');

    const view = await s.http('GET', `/api/share/${token}`, { token: null });
    expect(view.status).toBe(200);
    expect(view.body.dashboard).toMatchObject({ id: d.id, name: 'Customer Queue', isPublished: false });
    expect(view.body.records[0]).toMatchObject({ recordId: '1', data: { id: 1, status: 'open' } });
    expect(view.body.share).toEqual({ allowCsv: true, expiresAt: null });
    expect(view.text).not.toContain(ds.sourceId);
    expect((await s.http('GET', `/api/dashboards/${d.id}`, { token: null })).status).toBe(404);
    expect((await s.http('GET', '/api/dashboards', { token: null })).body).toEqual([]);
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}/links`)).body[0].lastUsedAt).not.toBeNull();

    const csv = await fetch(`${s.url}/api/share/${token}/export`);
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\r\n')[0]).toBe('id,status,Last Updated');
  });

  it('refuses CSV on a link that forbids it, with a clear code', async () => {
    const { d } = await draft();
    const { token } = (await link(d.id, { label: 'TV', allowCsv: false })).body;
    const res = await s.http('GET', `/api/share/${token}/export`, { token: null });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('share_csv_forbidden');
    expect((await s.http('GET', `/api/share/${token}`, { token: null })).body.share.allowCsv).toBe(false);
  });

  it('answers 404 for unknown, malformed, revoked and expired tokens, and for a deleted dashboard', async () => {
    const { d } = await draft();
    expect((await s.http('GET', '/api/share/nope', { token: null })).status).toBe(404);
    expect((await s.http('GET', `/api/share/${'A'.repeat(32)}`, { token: null })).status).toBe(404);
    const expiring = (await link(d.id, { label: 'Old', expiresAt: new Date(Date.now() + 60_000).toISOString() })).body;
    await s.app.ctx.models.ShareLink.updateOne({ _id: expiring.link.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await s.http('GET', `/api/share/${expiring.token}`, { token: null })).status).toBe(404);
    const { token } = (await link(d.id)).body;
    await s.http('DELETE', `/api/admin/dashboards/${d.id}`);
    expect((await s.http('GET', `/api/share/${token}`, { token: null })).status).toBe(404);
  });

  it('validates input and scopes links to their dashboard', async () => {
    const { d } = await draft([]);
    const bad = await link(d.id, { label: '  ', expiresAt: 'tomorrow', extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(bad.body.error.fields.map((f: { path: string }) => f.path).sort()).toEqual(['', 'expiresAt', 'label']);
    // A link that has expired before it is made is refused, and no token is shown.
    const past = await link(d.id, { label: 'Old', expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: 'validation_failed', fields: [{ path: 'expiresAt', message: expect.stringContaining('in the past') }] });
    expect(past.body.token).toBeUndefined();
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}/links`)).body).toEqual([]);
    expect((await link('0123456789abcdef01234567')).status).toBe(404);
    const other = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Other', dataSourceId: d.dataSourceId } })).body;
    const { link: dto } = (await link(d.id)).body;
    expect((await s.http('DELETE', `/api/admin/dashboards/${other.id}/links/${dto.id}`)).status).toBe(404);
    expect((await s.http('DELETE', `/api/admin/dashboards/${d.id}/links/not-an-id`)).status).toBe(404);
  });

  it('streams a draft live to its link viewers; revoking empties them at once and the token answers 404', async () => {
    const { ds, d } = await draft();
    const { token, link: dto } = (await link(d.id)).body;
    const { socket, ack } = await viewer(token);
    expect(ack).toEqual({ ok: true, revision: 1 });

    const upserted = next(socket, 'records:upserted');
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2, status: 'new' }] } });
    expect(await upserted).toMatchObject({ dataSourceId: ds.id, revision: 2, records: [{ recordId: '2' }] });
    await s.app.fieldTypes.settle();

    const changed = next(socket, 'dashboard:changed');
    await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { name: 'Renamed' } });
    expect((await changed).dashboard.name).toBe('Renamed');

    const removed = next(socket, 'dashboard:removed');
    const revoked = await s.http('DELETE', `/api/admin/dashboards/${d.id}/links/${dto.id}`);
    expect(revoked.body).toMatchObject({ id: dto.id, status: 'revoked' });
    expect(await removed).toEqual({ dashboardId: d.id });
    expect((await s.http('GET', `/api/share/${token}`, { token: null })).status).toBe(404);
    expect((await viewer(token)).ack).toEqual({ ok: false, reason: 'Dashboard Not Found' });

    // Out of the room: no more deltas reach it.
    let late = 0;
    socket.on('records:upserted', () => late++);
    const probe = await viewer((await link(d.id)).body.token);
    const reached = next(probe.socket, 'records:upserted');
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 3 }] } });
    await reached;
    expect(late).toBe(0);
  });

  it('empties a link\'s viewers when its expiry passes', async () => {
    const { d } = await draft();
    const { token } = (await link(d.id, { label: 'Soon', expiresAt: new Date(Date.now() + 1500).toISOString() })).body;
    const { socket, ack } = await viewer(token);
    expect(ack.ok).toBe(true);
    expect(await next(socket, 'dashboard:removed', 10_000)).toEqual({ dashboardId: d.id });
    expect((await s.http('GET', `/api/share/${token}`, { token: null })).status).toBe(404);
  });
});
