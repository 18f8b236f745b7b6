import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { addPerson } from '../../test/people';

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
    const stored = await s.app.ctx.accounts.models.ApiToken.find().lean();
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
    await s.app.ctx.accounts.models.ApiToken.updateOne({ _id: short.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await s.http('GET', '/api/admin/dashboards', { token: short.token })).status).toBe(401);

    expect((await s.http('POST', '/api/auth/tokens', { body: { name: 'x' } })).status).toBe(403);
  });
});
