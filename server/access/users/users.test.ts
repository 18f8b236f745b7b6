import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { PASSWORD, addPerson, asCookie, cookieOf } from '../../test/people';
import { accountsHandle } from '../accounts/accounts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: '100000' });
});
beforeEach(() => s.reset());
afterAll(() => s.close());

const tokenOf = (url: string) => url.split('/invite/')[1];

describe('invitations, roles and the last admin', () => {
  it('invites with a single-use link valid 7 days: reuse and expiry are refused, the link is not emailed without SMTP', async () => {
    const invited = await s.http('POST', '/api/admin/users', { body: { email: 'New@Example.com', role: 'editor' } });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ emailed: false, user: { email: 'new@example.com', role: 'editor', status: 'invited', dashboardIds: null } });
    expect(invited.body.url).toMatch(new RegExp(`^${s.url}/invite/[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(invited.body.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const token = tokenOf(invited.body.url);
    expect((await s.http('GET', `/api/auth/invite/${token}`, { token: null })).body).toMatchObject({ email: 'new@example.com', kind: 'invite' });
    expect((await s.http('POST', '/api/admin/users', { body: { email: 'new@example.com', role: 'viewer' } })).status).toBe(409);
    // Only the hash of the link is stored.
    const stored = await accountsHandle.of(s.app.ctx).models.Invitation.find().lean();
    expect(JSON.stringify(stored)).not.toContain(token);

    const accept = { token, name: 'New Person', password: PASSWORD };
    expect((await s.http('POST', '/api/auth/accept-invite', { token: null, body: { ...accept, password: 'qwertyuiop123' } })).body.error.code).toBe('weak_password');
    const ok = await s.http('POST', '/api/auth/accept-invite', { token: null, body: accept });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ name: 'New Person', role: 'editor', status: 'active' });
    const reused = await s.http('POST', '/api/auth/accept-invite', { token: null, body: accept });
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('invitation_invalid');

    const late = await s.http('POST', '/api/admin/users', { body: { email: 'late@example.com', role: 'viewer' } });
    await accountsHandle.of(s.app.ctx).models.Invitation.updateMany({}, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await s.http('POST', '/api/auth/accept-invite', { token: null, body: { token: tokenOf(late.body.url), name: 'Late', password: PASSWORD } });
    expect(expired.body.error.code).toBe('invitation_invalid');
    expect((await s.http('GET', `/api/auth/invite/${tokenOf(late.body.url)}`, { token: null })).status).toBe(400);
  });

  it('issues a reset link that sets a new password and ends the old sessions', async () => {
    const p = await addPerson(s, 'viewer');
    const link = await s.http('POST', `/api/admin/users/${p.id}/reset-link`);
    expect(link.status).toBe(200);
    const reset = await s.http('POST', '/api/auth/accept-invite', { token: null, body: { token: tokenOf(link.body.url), name: 'Reset', password: 'another fine passphrase' } });
    expect(reset.status).toBe(200);
    expect((await p.http('GET', '/api/auth/me')).status).toBe(401);
    expect((await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: 'another fine passphrase' } })).status).toBe(200);
  });

  it('never removes, demotes or disables the last active admin', async () => {
    const admin = await addPerson(s, 'admin');
    for (const [method, body] of [['PATCH', { role: 'editor' }], ['PATCH', { disabled: true }], ['DELETE', undefined]] as const) {
      const res = await admin.http(method, `/api/admin/users/${admin.id}`, { body });
      expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(409);
      expect(res.body.error.code).toBe('last_admin');
    }
    const second = await addPerson(s, 'admin');
    expect((await second.http('PATCH', `/api/admin/users/${admin.id}`, { body: { role: 'editor' } })).status).toBe(200);
    expect((await second.http('DELETE', `/api/admin/users/${second.id}`)).body.error.code).toBe('last_admin');
  });

  it('keeps one admin when two admins are demoted, disabled or removed at the same moment', async () => {
    const activeAdmins = () => accountsHandle.of(s.app.ctx).models.User.countDocuments({ role: 'admin', disabled: false, passwordHash: { $ne: null } });
    const changes = [['PATCH', { role: 'editor' }], ['PATCH', { disabled: true }], ['DELETE', undefined]] as const;
    for (const [i, [method, body]] of changes.entries()) {
      const [a, b] = [await addPerson(s, 'admin'), await addPerson(s, 'admin')];
      const [other] = changes[(i + 1) % changes.length];
      const answers = await Promise.all([
        s.http(method, `/api/admin/users/${a.id}`, { body }),
        s.http(other, `/api/admin/users/${b.id}`, { body: other === 'PATCH' ? changes[(i + 1) % changes.length][1] : undefined }),
      ]);
      expect(answers.map((r) => r.status).sort(), `${method} ${JSON.stringify(body)} with ${other}`).toEqual([200, 409]);
      expect(answers.find((r) => r.status === 409)?.body.error.code).toBe('last_admin');
      expect(await activeAdmins()).toBe(1);
      await s.reset();
    }
  });

  it('ends a person\'s sessions on a role change, disabling and removal; a disabled person cannot sign in', async () => {
    const p = await addPerson(s, 'editor');
    expect((await s.http('PATCH', `/api/admin/users/${p.id}`, { body: { role: 'viewer' } })).body.role).toBe('viewer');
    expect((await p.http('GET', '/api/auth/me')).body.error.code).toBe('session_ended');
    const login = () => s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: PASSWORD } });
    const again = asCookie(s, cookieOf((await login()).headers));
    expect((await again('POST', '/api/admin/dashboards', { body: { name: 'x' } })).status).toBe(403);
    await s.http('PATCH', `/api/admin/users/${p.id}`, { body: { disabled: true } });
    expect((await again('GET', '/api/auth/me')).status).toBe(401);
    expect((await login()).body.error.code).toBe('invalid_credentials');
    await s.http('PATCH', `/api/admin/users/${p.id}`, { body: { disabled: false } });
    const back = asCookie(s, cookieOf((await login()).headers));
    expect((await s.http('DELETE', `/api/admin/users/${p.id}`)).status).toBe(200);
    expect((await back('GET', '/api/auth/me')).status).toBe(401);
    expect((await login()).status).toBe(401);
  });

  it('limits a person to chosen dashboards: the others are not found, new ones cannot be made, drafts open read-only', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Src' } })).body;
    const other = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Other' } })).body;
    const mine = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Mine', dataSourceId: ds.id } })).body;
    const theirs = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Theirs', dataSourceId: other.id } })).body;
    const limited = await addPerson(s, 'editor', { dashboardIds: [mine.id] });
    expect((await limited.http('GET', '/api/admin/dashboards')).body.map((d: { id: string }) => d.id)).toEqual([mine.id]);
    expect((await limited.http('GET', `/api/admin/dashboards/${theirs.id}`)).status).toBe(404);
    expect((await limited.http('PATCH', `/api/admin/dashboards/${theirs.id}`, { body: { name: 'Mine now' } })).status).toBe(404);
    expect((await limited.http('PATCH', `/api/admin/dashboards/${mine.id}`, { body: { name: 'Still mine' } })).status).toBe(200);
    expect((await limited.http('POST', '/api/admin/dashboards', { body: { name: 'New', dataSourceId: ds.id } })).status).toBe(403);
    expect((await limited.http('GET', '/api/data/sources')).body.map((d: { id: string }) => d.id)).toEqual([ds.id]);
    expect((await limited.http('GET', `/api/data/raw?dataSourceId=${other.sourceId}`)).status).toBe(404);
    // Export Data follows the same reads: their dashboards' sources only.
    expect((await limited.http('GET', `/api/admin/data-sources/${ds.id}/export?format=ndjson`)).status).toBe(200);
    expect((await limited.http('GET', `/api/admin/data-sources/${other.id}/export?format=ndjson`)).status).toBe(404);

    // Drafts: a signed-in viewer gets them at the public view's address, anyone else a 404.
    const viewer = await addPerson(s, 'viewer');
    const draft = await viewer.http('GET', `/api/dashboards/${theirs.id}`);
    expect(draft.status).toBe(200);
    expect(draft.body.dashboard.name).toBe('Theirs');
    expect(draft.headers.get('cache-control')).toBe('private, no-store');
    expect((await s.http('GET', `/api/dashboards/${theirs.id}`, { token: null })).status).toBe(404);
    expect((await limited.http('GET', `/api/dashboards/${theirs.id}`)).status).toBe(404);
    expect((await viewer.http('PATCH', `/api/admin/dashboards/${theirs.id}`, { body: { name: 'no' } })).status).toBe(403);
    // A change of the limits applies at once (the cached session is refreshed).
    await s.http('PATCH', `/api/admin/users/${limited.id}`, { body: { dashboardIds: null } });
    expect((await limited.http('GET', '/api/admin/dashboards')).body).toHaveLength(2);
  });

  it('names the actor of every activity entry and filters by person', async () => {
    const editor = await addPerson(s, 'editor');
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'By token' } })).body;
    expect((await editor.http('POST', '/api/admin/dashboards', { body: { name: 'By editor', dataSourceId: ds.id } })).status).toBe(201);
    await s.http('POST', '/api/auth/login', { token: null, body: { email: editor.email, password: 'wrong password here' } });
    await s.http('PATCH', `/api/admin/users/${editor.id}`, { body: { role: 'viewer' } });
    const all = (await s.http('GET', '/api/admin/activity')).body as { kind: string; actor: string | null; userId: string | null; credential: string; summary: string }[];
    const byKind = (k: string) => all.find((e) => e.kind === k)!;
    expect(byKind('dashboard.created')).toMatchObject({ userId: editor.id, credential: 'session' });
    expect(byKind('dashboard.created').summary).toMatch(/^editor \d+ created dashboard/);
    expect(byKind('dataSource.created')).toMatchObject({ actor: 'admin token', userId: null, credential: 'admin' });
    expect(byKind('auth.failed').summary).toBe(`Failed sign-in for ${editor.email}`);
    expect(byKind('user.invited').actor).toBe('admin token');
    expect(byKind('user.joined').userId).toBe(editor.id);
    expect(byKind('user.roleChanged').summary).toContain('role editor → viewer');
    const mine = (await s.http('GET', `/api/admin/activity?userId=${editor.id}`)).body as { userId: string }[];
    expect(mine.length).toBeGreaterThan(1);
    expect(mine.every((e) => e.userId === editor.id)).toBe(true);
  });
});
