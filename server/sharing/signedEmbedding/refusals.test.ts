import crypto from 'node:crypto';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JoinAck } from '@common/realtime';
import { buildDashboard, buildSource } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/harness';
import { handMadeToken, hmacWith, signEmbed, tampered } from './test/embedTokens';
import type { TestSocket } from '../../test/sockets';

/**
 * Every way a signed embed token is refused: the same 401 `embed_token_invalid` with one message
 * (no hint which check failed) and no rows, over REST, CSV and the socket join; each counted by its
 * reason in /metrics and, like a wrong bearer credential, by the per-address failure limits.
 */
const METRICS_TOKEN = 'metrics-token-0123456789';
const LIMIT = 25;
let s: TestServer;
let a: { id: string };
let b: { id: string };
let bare: { id: string };
let secretA: string;
let secretB: string;
const sockets: TestSocket[] = [];
let address = 0;
/** Each case calls from an address of its own (TRUST_PROXY), so the failure limit is met only where a test wants it. */
const nextAddress = () => `10.0.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

beforeAll(async () => {
  s = await startTestServer({ METRICS_TOKEN, TRUST_PROXY: 'true', RATE_LIMIT_AUTH_FAILURES: String(LIMIT) });
  const ds = await buildSource(s, { primaryKey: 'id', records: [{ id: 1, tenant: 'acme' }, { id: 2, tenant: 'globex' }] });
  [a, b, bare] = [await buildDashboard(s, { source: ds, name: 'A' }), await buildDashboard(s, { source: ds, name: 'B', published: true }), await buildDashboard(s, { source: ds, name: 'No secret' })];
  secretA = (await s.http('POST', `/api/admin/dashboards/${a.id}/embedding/secret`)).body.secret;
  secretB = (await s.http('POST', `/api/admin/dashboards/${b.id}/embedding/secret`)).body.secret;
});
afterAll(async () => {
  sockets.forEach((x) => x.disconnect());
  await s?.close();
});

const now = () => Math.floor(Date.now() / 1000);
const acme = () => ({ dashboard: a.id, filters: [{ field: 'tenant', operator: 'eq', value: 'acme' }], allowCsv: true });
const get = (path: string, from: string) => s.http('GET', path, { token: null, headers: { 'x-forwarded-for': from } });

async function refusals(): Promise<Record<string, number>> {
  const text = await (await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^livedash_embed_refusals_total\{reason="([a-z_]+)"\} (\d+)/gm)) out[m[1]] = Number(m[2]);
  return out;
}

async function socketFrom(from: string): Promise<TestSocket> {
  const socket: TestSocket = connect(s.url, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { 'x-forwarded-for': from } });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}
const joinFrom = async (token: string, from: string) => {
  const socket = await socketFrom(from);
  return new Promise<JoinAck>((resolve) => socket.emit('embed:join', token, resolve));
};

let message = '';
/** The token is refused everywhere alike, counted under `reason`. */
async function expectRefused(token: string, reason: string) {
  const from = nextAddress();
  const before = await refusals();
  for (const path of [`/api/embed/${token}`, `/api/embed/${token}/export`]) {
    const res = await get(path, from);
    expect([res.status, res.body?.error?.code], `${reason}: ${path} ${res.text}`).toEqual([401, 'embed_token_invalid']);
    message ||= res.body.error.message;
    expect(res.body.error.message, reason).toBe(message);
    expect(res.text).not.toMatch(/acme|globex|records/);
  }
  expect(await joinFrom(token, from), reason).toEqual({ ok: false, reason: 'This embed token is not valid' });
  const after = await refusals();
  expect((after[reason] ?? 0) - (before[reason] ?? 0), `counted as ${reason}: ${JSON.stringify(after)}`).toBe(3);
}
async function expectOpens(token: string) {
  const res = await get(`/api/embed/${token}`, nextAddress());
  expect(res.status, res.text).toBe(200);
  return res.body as { records: { data: { tenant: string } }[] };
}

describe('a signed embed token is refused', () => {
  it('with a wrong signature, a tampered payload, or another dashboard\'s id', async () => {
    const other = crypto.randomBytes(32).toString('base64url');
    await expectRefused(await signEmbed(other, acme()), 'signature');
    const good = await signEmbed(secretA, acme());
    expect((await expectOpens(good)).records.map((r) => r.data.tenant)).toEqual(['acme']);
    await expectRefused(tampered(good, (c) => ({ ...c, filters: [] })), 'signature');
    await expectRefused(tampered(good, (c) => ({ ...c, exp: now() + 3600 })), 'signature');
    // Signed with A's secret, naming B (which has a secret of its own): B's secret does not verify it.
    await expectRefused(await signEmbed(secretA, { ...acme(), dashboard: b.id }), 'signature');
    await expectOpens(await signEmbed(secretB, { dashboard: b.id }));
  });

  it('with any algorithm but HS256: none, HS512, RS256 with the secret as its key', async () => {
    await expectRefused(handMadeToken({ alg: 'none', typ: 'JWT' }, { ...acme(), exp: now() + 60 }), 'algorithm');
    await expectRefused(handMadeToken({ alg: 'none' }, { ...acme(), exp: now() + 60 }, () => 'x'), 'algorithm');
    await expectRefused(await signEmbed(secretA, acme(), { alg: 'HS512' }), 'algorithm');
    await expectRefused(handMadeToken({ alg: 'RS256', typ: 'JWT' }, { ...acme(), exp: now() + 60 }, hmacWith(secretA)), 'algorithm');
    // The same claims by hand, HS256 with the secret: accepted (the hand-made path is sound).
    await expectOpens(handMadeToken({ alg: 'HS256', typ: 'JWT' }, { ...acme(), exp: now() + 60 }, hmacWith(secretA)));
  });

  it('without exp, past exp (30 s leeway), or with exp more than EMBED_MAX_TTL_SECONDS (a day) ahead', async () => {
    await expectRefused(await signEmbed(secretA, { ...acme(), exp: undefined }), 'no_expiry');
    await expectRefused(await signEmbed(secretA, { ...acme(), exp: now() - 45 }), 'expired');
    await expectOpens(await signEmbed(secretA, { ...acme(), exp: now() - 10 }));
    await expectRefused(await signEmbed(secretA, { ...acme(), exp: now() + 86_400 + 120 }), 'lifetime_too_long');
    await expectOpens(await signEmbed(secretA, { ...acme(), exp: now() + 86_400 }));
    await expectRefused(await signEmbed(secretA, { ...acme(), exp: 'tomorrow' }), 'no_expiry');
  });

  it('with nbf in the future (30 s leeway)', async () => {
    await expectRefused(await signEmbed(secretA, { ...acme(), nbf: now() + 120 }), 'not_yet_valid');
    await expectOpens(await signEmbed(secretA, { ...acme(), nbf: now() + 10 }));
  });

  it('for a dashboard without a secret, or one that does not exist', async () => {
    const any = crypto.randomBytes(32).toString('base64url');
    await expectRefused(await signEmbed(any, { dashboard: bare.id }), 'no_secret');
    await expectRefused(await signEmbed(any, { dashboard: '0123456789abcdef01234567' }), 'no_secret');
  });

  it('malformed, or with claims of the wrong shape', async () => {
    for (const token of ['abc', 'a.b', 'a.b.c', 'bm90anNvbg.e30.x', `${'a'.repeat(9_000)}.b.c`, 'not a token.at.all']) await expectRefused(token, 'malformed');
    await expectRefused(handMadeToken({ alg: 'HS256' }, { ...acme(), dashboard: 'dashboard-a' }, hmacWith(secretA)), 'claims');
    // A locked filter without a value would match every record lacking the field: refused, not widened.
    await expectRefused(await signEmbed(secretA, { ...acme(), filters: [{ field: 'tenant', operator: 'eq' }] }), 'claims');
    await expectRefused(await signEmbed(secretA, { ...acme(), theme: 'blue' }), 'claims');
    await expectRefused(await signEmbed(secretA, { ...acme(), filters: Array.from({ length: 11 }, () => acme().filters[0]) }), 'claims');
  });
});

describe('refused tokens count against the address', () => {
  it('like wrong bearer credentials: past the limit every embed call from that address answers 429, a valid token too; another address goes on', async () => {
    const from = nextAddress();
    for (let i = 0; i < LIMIT; i++) {
      const res = await get(`/api/embed/${await signEmbed(crypto.randomBytes(32).toString('base64url'), acme())}`, from);
      expect(res.status).toBe(401);
    }
    const valid = await signEmbed(secretA, { ...acme(), sub: 'fresh' });
    const blocked = await get(`/api/embed/${valid}`, from);
    expect([blocked.status, blocked.body.error.code]).toEqual([429, 'rate_limited']);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    expect((await joinFrom(valid, from)).ok).toBe(false);
    expect((await get(`/api/embed/${valid}`, nextAddress())).status).toBe(200);
  });
});
