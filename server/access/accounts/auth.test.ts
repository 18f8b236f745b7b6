import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../test/harness';
import { PASSWORD, addPerson, asCookie, cookieOf } from '../../test/people';
import { hashPassword } from './passwords';
import { signInDelayMs } from './signIn';
import { accountsHandle } from './accounts';

let s: TestServer;
let address = 0;
/** Each test signs in from its own client address (TRUST_PROXY), so the per-address limit is its own. */
const from = () => ({ 'x-forwarded-for': `10.0.0.${++address}` });

beforeAll(async () => {
  s = await startTestServer({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_AUTH_FAILURES: '5', RATE_LIMIT_SIGN_IN_ACCOUNT: '3', RATE_LIMIT_SIGN_IN_SLOWDOWN_SECONDS: '1' });
});
afterAll(() => s.close());

describe('first start, sign-in and the session cookie', () => {
  it('creates the first admin once, proving the admin token, and signs them in with an HttpOnly SameSite=Lax cookie', async () => {
    expect((await s.http('GET', '/api/auth/setup', { token: null })).body).toEqual({ needed: true, adminTokenEnabled: true });
    const body = { token: ADMIN_TOKEN, email: 'Owner@Example.com', name: 'Owner', password: PASSWORD };
    const wrongToken = await s.http('POST', '/api/auth/setup', { token: null, body: { ...body, token: 'not-the-admin-token' }, headers: from() });
    expect(wrongToken.status).toBe(401);
    expect(wrongToken.body.error.code).toBe('invalid_admin_token');
    const short = await s.http('POST', '/api/auth/setup', { token: null, body: { ...body, password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error.fields[0].path).toBe('password');
    const common = await s.http('POST', '/api/auth/setup', { token: null, body: { ...body, password: 'password1234' } });
    expect(common.status).toBe(400);
    expect(common.body.error.code).toBe('weak_password');

    const created = await s.http('POST', '/api/auth/setup', { token: null, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ role: 'admin', via: 'session', user: { email: 'owner@example.com', name: 'Owner', role: 'admin', status: 'active' } });
    expect(JSON.stringify(created.body)).not.toContain('passwordHash');
    const setCookie = created.headers.getSetCookie().find((c) => c.startsWith('livedash_session='))!;
    expect(setCookie).toMatch(/; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
    expect(setCookie).not.toContain('Secure');

    const me = await asCookie(s, cookieOf(created.headers))('GET', '/api/auth/me');
    expect(me.body).toMatchObject({ role: 'admin', via: 'session', user: { email: 'owner@example.com' } });
    expect((await s.http('GET', '/api/auth/setup', { token: null })).body.needed).toBe(false);
    const again = await s.http('POST', '/api/auth/setup', { token: null, body: { ...body, email: 'second@example.com' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('setup_done');
    // The admin token stays a bearer credential for automation.
    expect((await s.http('GET', '/api/auth/me')).body).toEqual({ user: null, role: 'admin', via: 'adminToken' });
  });

  it('signs in with email and password, says the same for an unknown email and a wrong password, and signs out', async () => {
    const p = await addPerson(s, 'editor');
    const unknown = await s.http('POST', '/api/auth/login', { token: null, body: { email: 'nobody@example.com', password: PASSWORD }, headers: from() });
    const wrong = await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: 'wrong password here' }, headers: from() });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.error.code).toBe('invalid_credentials');

    const ok = await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email.toUpperCase(), password: PASSWORD }, headers: from() });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const call = asCookie(s, cookieOf(ok.headers));
    expect((await call('GET', '/api/auth/me')).body.user).toMatchObject({ email: p.email, role: 'editor' });
    const out = await call('POST', '/api/auth/logout');
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()[0]).toContain('Max-Age=0');
    const after = await call('GET', '/api/auth/me');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('session_ended');
    // The person's other session (from accepting the invitation) is untouched.
    expect((await p.http('GET', '/api/auth/me')).status).toBe(200);
  });

  it('limits failed sign-ins per (account, address) and per address with 429, whether or not the email exists', async () => {
    const p = await addPerson(s, 'viewer');
    for (const email of [p.email, 'ghost@example.com']) {
      const here = from();
      for (let i = 0; i < 3; i++) {
        const res = await s.http('POST', '/api/auth/login', { token: null, body: { email, password: 'wrong password here' }, headers: here });
        expect(res.status).toBe(401);
      }
      // Past the limit of this account from this address even the right password waits.
      const limited = await s.http('POST', '/api/auth/login', { token: null, body: { email, password: PASSWORD }, headers: here });
      expect(limited.status, email).toBe(429);
      expect(limited.body.error.code).toBe('rate_limited');
      expect(limited.body.error.message).toContain('failed sign-ins for this account from this address');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const one = from();
    for (let i = 0; i < 5; i++) {
      await s.http('POST', '/api/auth/login', { token: null, body: { email: `other${i}@example.com`, password: 'wrong password here' }, headers: one });
    }
    const fromThatAddress = await s.http('POST', '/api/auth/login', { token: null, body: { email: 'fresh@example.com', password: PASSWORD }, headers: one });
    expect(fromThatAddress.status).toBe(429);
  });

  it('cannot be used to lock a person out: a stranger\'s wrong passwords only slow the account down, by at most the configured bound', async () => {
    const p = await addPerson(s, 'editor');
    // Two other addresses use up their budget for this account (it used to lock the account for everyone).
    for (let a = 0; a < 2; a++) {
      const attacker = from();
      for (let i = 0; i < 3; i++) expect((await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: `guess ${a} ${i} wrong` }, headers: attacker })).status).toBe(401);
      expect((await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: PASSWORD }, headers: attacker })).status).toBe(429);
    }
    // The owner, from an address that has not failed: the right password signs in, after the bounded slowdown.
    const started = Date.now();
    const owner = await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: PASSWORD }, headers: from() });
    const waited = Date.now() - started;
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(1000 + 3000);
    // However many failures, the slowdown never exceeds a minute.
    for (const failures of [0, 3, 4, 5, 10, 20, 1000, 1_000_000]) expect(signInDelayMs(failures, 60_000)).toBeLessThanOrEqual(60_000);
    expect(signInDelayMs(1_000_000, 60_000)).toBe(60_000);
  });

  it('limits a failed bearer credential per (address, credential): a stale ingest key never blocks the admin token or another key from its address', async () => {
    const [a, b] = await Promise.all(['Stale sender', 'Good sender'].map(async (name) => (await s.http('POST', '/api/admin/data-sources', { body: { name } })).body));
    const stale = a.ingestKey as string;
    expect((await s.http('POST', `/api/admin/data-sources/${a.id}/ingest-key`)).status).toBe(200);
    const sender = from();
    const send = (token: string, ds: { sourceId: string }) => s.http('POST', '/api/data/ingest', { token, body: { sourceId: ds.sourceId, records: [{ id: 1 }] }, headers: sender });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await send(stale, a)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const blocked = await send(stale, a);
    expect(blocked.body.error.message).toContain('failed attempts with this credential from this address');
    expect((await s.http('GET', '/api/admin/dashboards', { headers: sender })).status).toBe(200);
    expect((await send(ADMIN_TOKEN, b)).status).toBe(200);
    expect((await send(b.ingestKey, b)).status).toBe(200);
    // A guesser trying many different credentials still blocks its address, the right token too.
    const guesser = from();
    for (let i = 0; i < 5; i++) expect((await s.http('GET', '/api/admin/dashboards', { token: `guess-${i}`, headers: guesser })).status).toBe(401);
    expect((await s.http('GET', '/api/admin/dashboards', { headers: guesser })).status).toBe(429);
  });

  it('refuses cookie-authenticated writes from another site (403), and never bearer calls', async () => {
    const p = await addPerson(s, 'editor');
    const body = { name: 'CSRF target' };
    const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site', origin: 'https://sub.example' }];
    for (const headers of crossSite) {
      const res = await p.http('POST', '/api/admin/dashboards', { body, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('cross_site_request');
    }
    const login = await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: PASSWORD }, headers: { origin: 'https://evil.example', ...from() } });
    expect(login.status).toBe(403);
    // Reads with the cookie, same-origin writes and bearer writes from anywhere pass.
    expect((await p.http('GET', '/api/admin/dashboards', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
    const own = await p.http('POST', '/api/admin/dashboards', { body: { name: 'Mine' }, headers: { 'sec-fetch-site': 'same-origin', origin: s.url } });
    expect(own.status).not.toBe(403);
    const sameHost = await p.http('POST', '/api/admin/dashboards', { body: { name: 'Mine' }, headers: { origin: s.url } });
    expect(sameHost.status).not.toBe(403);
    const bearer = await s.http('POST', '/api/admin/dashboards', { body: { name: 'Bearer' }, headers: { origin: 'https://evil.example' } });
    expect(bearer.status).not.toBe(403);
  });

  it('lets a person change their name and password: a new password ends every other session', async () => {
    const p = await addPerson(s, 'viewer');
    const other = cookieOf((await s.http('POST', '/api/auth/login', { token: null, body: { email: p.email, password: PASSWORD }, headers: from() })).headers);
    const wrong = await p.http('PATCH', '/api/auth/me', { body: { currentPassword: 'not my password', newPassword: 'a brand new passphrase' } });
    expect(wrong.status).toBe(400);
    const changed = await p.http('PATCH', '/api/auth/me', { body: { name: 'Renamed', currentPassword: PASSWORD, newPassword: 'a brand new passphrase' } });
    expect(changed.status).toBe(200);
    expect(changed.body.user.name).toBe('Renamed');
    expect((await asCookie(s, other)('GET', '/api/auth/me')).status).toBe(401);
    expect((await asCookie(s, cookieOf(changed.headers))('GET', '/api/auth/me')).status).toBe(200);
    const sessions = await asCookie(s, cookieOf(changed.headers))('GET', '/api/auth/sessions');
    expect(sessions.body).toHaveLength(1);
    expect(sessions.body[0]).toMatchObject({ current: true });
    expect(JSON.stringify(sessions.body)).not.toMatch(/idHash|livedash_session/);
  });
});

describe('with an https public URL and the admin token turned off', () => {
  let h: TestServer;
  beforeAll(async () => {
    h = await startTestServer({ PUBLIC_URL: 'https://dash.example.com', ADMIN_TOKEN_DISABLED: 'true' });
  });
  afterAll(() => h?.close());

  it('marks the cookie Secure, refuses the admin token and first-admin setup', async () => {
    expect((await h.http('GET', '/api/admin/dashboards')).body.error.code).toBe('invalid_admin_token');
    expect((await h.http('GET', '/api/auth/setup', { token: null })).body).toEqual({ needed: true, adminTokenEnabled: false });
    const setup = await h.http('POST', '/api/auth/setup', { token: null, body: { token: ADMIN_TOKEN, email: 'a@example.com', name: 'A', password: PASSWORD } });
    expect(setup.status).toBe(403);
    await accountsHandle.of(h.app.ctx).models.User.create({ email: 'ops@example.com', name: 'Ops', role: 'admin', passwordHash: await hashPassword(PASSWORD) });
    const login = await h.http('POST', '/api/auth/login', { token: null, body: { email: 'ops@example.com', password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.headers.getSetCookie()[0]).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });
});
