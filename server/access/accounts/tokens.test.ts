import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { PASSWORD, addPerson, asCookie, cookieOf } from '../../test/people';
import { accountsHandle } from './accounts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: '100000' });
});
afterAll(() => s.close());

describe('personal API tokens', () => {
  it('shows a token once, keeps only its hash, acts with the owner\'s role, records its last use and dies at once when revoked', async () => {
    const editor = await addPerson(s, 'editor');
    const created = await editor.http('POST', '/api/auth/tokens', { body: { name: 'CI', expiresInDays: 30 } });
    expect(created.status).toBe(201);
    const { token, id } = created.body;
    expect(token).toMatch(/^ldp_[A-Za-z0-9_-]{43}$/);
    expect(created.body.hint).toBe(`${token.slice(0, 8)}…${token.slice(-4)}`);
    expect(Date.parse(created.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const stored = await accountsHandle.of(s.app.ctx).models.ApiToken.find().lean();
    expect(JSON.stringify(stored)).not.toContain(token);

    expect((await s.http('GET', '/api/admin/dashboards', { token })).status).toBe(200);
    expect((await s.http('GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'editor', via: 'apiToken', user: { email: editor.email } });
    const forbidden = await s.http('GET', '/api/admin/users', { token });
    expect(forbidden.status).toBe(403);
    // Bearer calls are not subject to the cross-site check.
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'S' } })).body;
    expect((await s.http('POST', '/api/admin/dashboards', { token, body: { name: 'By token', dataSourceId: ds.id }, headers: { origin: 'https://elsewhere.example' } })).status).toBe(201);

    const listed = (await editor.http('GET', '/api/auth/tokens')).body;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id, name: 'CI' });
    expect(listed[0].lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(token);

    // Someone else cannot revoke it; the owner can, and it stops working at once (it was cached).
    const other = await addPerson(s, 'admin');
    expect((await other.http('DELETE', `/api/auth/tokens/${id}`)).status).toBe(404);
    expect((await editor.http('DELETE', `/api/auth/tokens/${id}`)).status).toBe(200);
    const dead = await s.http('GET', '/api/admin/dashboards', { token });
    expect(dead.status).toBe(401);
    expect(dead.body.error.code).toBe('invalid_api_token');
  });

  it('follows the owner: a role change applies at once, disabling stops it, an expired token is refused; the admin token has no tokens', async () => {
    const p = await addPerson(s, 'admin');
    const { token } = (await p.http('POST', '/api/auth/tokens', { body: { name: 'ops' } })).body;
    expect((await s.http('GET', '/api/admin/users', { token })).status).toBe(200);
    await s.http('PATCH', `/api/admin/users/${p.id}`, { body: { role: 'viewer' } });
    expect((await s.http('GET', '/api/admin/users', { token })).status).toBe(403);
    await s.http('PATCH', `/api/admin/users/${p.id}`, { body: { disabled: true } });
    expect((await s.http('GET', '/api/admin/dashboards', { token })).status).toBe(401);

    const q = await addPerson(s, 'viewer');
    const short = (await q.http('POST', '/api/auth/tokens', { body: { name: 'short', expiresInDays: 1 } })).body;
    await accountsHandle.of(s.app.ctx).models.ApiToken.updateOne({ _id: short.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await s.http('GET', '/api/admin/dashboards', { token: short.token })).status).toBe(401);

    expect((await s.http('POST', '/api/auth/tokens', { body: { name: 'x' } })).status).toBe(403);
  });

  it('is created only by a signed-in session: a token asking for another answers 403 and mints nothing', async () => {
    const p = await addPerson(s, 'admin');
    const { token } = (await p.http('POST', '/api/auth/tokens', { body: { name: 'first' } })).body;
    const minted = await s.http('POST', '/api/auth/tokens', { token, body: { name: 'second' } });
    expect(minted.status).toBe(403);
    expect(minted.body.error.message).toMatch(/cannot create tokens: sign in/);
    expect(await accountsHandle.of(s.app.ctx).models.ApiToken.countDocuments({ userId: p.id })).toBe(1);
  });

  it('lets an admin list and revoke anyone\'s tokens, without ever showing a token or its hash', async () => {
    const owner = await addPerson(s, 'editor');
    const a = (await owner.http('POST', '/api/auth/tokens', { body: { name: 'A', expiresInDays: 5 } })).body;
    const b = (await owner.http('POST', '/api/auth/tokens', { body: { name: 'B' } })).body;
    expect((await s.http('GET', '/api/admin/dashboards', { token: a.token })).status).toBe(200);
    const admin = await addPerson(s, 'admin');
    const listed = await admin.http('GET', `/api/admin/users/${owner.id}/tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((t: { name: string }) => t.name).sort()).toEqual(['A', 'B']);
    expect(Object.keys(listed.body[0]).sort()).toEqual(['createdAt', 'expiresAt', 'hint', 'id', 'lastUsedAt', 'name']);
    const stored = await accountsHandle.of(s.app.ctx).models.ApiToken.find({ userId: owner.id }).lean();
    for (const secret of [a.token, b.token, ...stored.map((t) => t.tokenHash)]) expect(JSON.stringify(listed.body)).not.toContain(secret);
    // An editor is no admin; another person's id does not reach this person's tokens; unknown ids are 404.
    expect((await owner.http('GET', `/api/admin/users/${owner.id}/tokens`)).status).toBe(403);
    expect((await admin.http('DELETE', `/api/admin/users/${admin.id}/tokens/${a.id}`)).status).toBe(404);
    expect((await admin.http('GET', '/api/admin/users/0123456789abcdef01234567/tokens')).status).toBe(404);

    // Revoked by the admin: the token (cached by its use above) stops at once; the other one lives.
    expect((await admin.http('DELETE', `/api/admin/users/${owner.id}/tokens/${a.id}`)).status).toBe(200);
    expect((await s.http('GET', '/api/admin/dashboards', { token: a.token })).status).toBe(401);
    expect((await s.http('GET', '/api/admin/dashboards', { token: b.token })).status).toBe(200);
    expect((await s.http('DELETE', `/api/admin/users/${owner.id}/tokens/${b.id}`)).status).toBe(200);
    expect((await s.http('GET', '/api/admin/dashboards', { token: b.token })).status).toBe(401);
  });

  it('ends every session and token of a person who uses an admin-issued reset link', async () => {
    const victim = await addPerson(s, 'admin');
    const { token } = (await victim.http('POST', '/api/auth/tokens', { body: { name: 'intruder' } })).body;
    expect((await s.http('GET', '/api/admin/users', { token })).status).toBe(200);
    const link = (await s.http('POST', `/api/admin/users/${victim.id}/reset-link`)).body;
    const accepted = await s.http('POST', '/api/auth/accept-invite', { token: null, body: { token: String(link.url).split('/invite/')[1], name: 'Back', password: 'a fresh passphrase here' } });
    expect(accepted.status).toBe(200);
    expect((await s.http('GET', '/api/admin/users', { token })).status).toBe(401);
    expect((await victim.http('GET', '/api/auth/me')).status).toBe(401);
    expect((await asCookie(s, cookieOf(accepted.headers))('GET', '/api/auth/tokens')).body).toEqual([]);
  });

  it('a password change ends the other sessions; the tokens stay listed until "revoke all" ends them at once', async () => {
    const p = await addPerson(s, 'viewer');
    const t1 = (await p.http('POST', '/api/auth/tokens', { body: { name: 'one' } })).body;
    const t2 = (await p.http('POST', '/api/auth/tokens', { body: { name: 'two' } })).body;
    for (const t of [t1, t2]) expect((await s.http('GET', '/api/auth/me', { token: t.token })).status).toBe(200);
    const other = await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: PASSWORD } });
    const changed = await p.http('PATCH', '/api/auth/me', { body: { currentPassword: PASSWORD, newPassword: 'another long passphrase' } });
    expect(changed.status).toBe(200);
    expect((await asCookie(s, cookieOf(other.headers))('GET', '/api/auth/me')).status).toBe(401);
    const me = asCookie(s, cookieOf(changed.headers));
    expect((await me('GET', '/api/auth/tokens')).body).toHaveLength(2);
    const all = await me('DELETE', '/api/auth/tokens');
    expect(all.body).toEqual({ revoked: 2 });
    for (const t of [t1, t2]) expect((await s.http('GET', '/api/auth/me', { token: t.token })).status).toBe(401);
    expect((await me('GET', '/api/auth/tokens')).body).toEqual([]);
  });
});
