import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import type { ActivityEntryDto } from '@common/schemas/activity';
import { clientAddress } from './clientAddress';
import { ADMIN_TOKEN, capturedLog, startTestServer, type TestServer } from '../../test/harness';
import { loadConfig } from '../config';
import { parseProxyTrust } from './clientAddress';

/** A Socket.IO handshake with the admin token and these headers: resolves with the refusal's code, or 'connected'. */
function handshake(url: string, headers: Record<string, string>): Promise<string> {
  const socket = connect(url, { transports: ['websocket'], auth: { token: ADMIN_TOKEN }, extraHeaders: headers, reconnection: false, forceNew: true });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (e) => resolve((e as Error & { data?: { code?: string } }).data?.code ?? e.message));
  }).finally(() => socket.close()) as Promise<string>;
}

describe('the client address behind a proxy trusted as any peer (TRUST_PROXY=true)', () => {
  let s: TestServer;
  let lines: string[];
  beforeAll(async () => {
    const captured = capturedLog();
    lines = captured.lines;
    s = await startTestServer({ TRUST_PROXY: 'true', RATE_LIMIT_AUTH_FAILURES: '20', LOG_LEVEL: 'warn' }, captured.log);
  });
  afterAll(() => s?.close());

  it('still works, and the server warns at start that any peer is trusted', () => {
    expect(lines.filter((l) => l.startsWith('warn TRUST_PROXY=true trusts X-Forwarded-For from any peer'))).toHaveLength(1);
  });

  it('is the hop the proxy appended: forged left-most values neither escape the failed-credential limit nor reach the log', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const forged = `10.${i}.0.1, <script>alert(${i})</script>`;
      const res = await s.http('GET', '/api/admin/dashboards', { token: `guess-${i}`, headers: { 'x-forwarded-for': `${forged}, 203.0.113.7` } });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20).every((st) => st === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    // The Socket.IO handshake keys on the same address; another client behind the proxy is not blocked.
    expect(await handshake(s.url, { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' })).toBe('rate_limited');
    expect(await handshake(s.url, { 'x-forwarded-for': '203.0.113.7, 203.0.113.8' })).toBe('connected');
    expect((await s.http('GET', '/api/admin/dashboards', { headers: { 'x-forwarded-for': '203.0.113.8' } })).status).toBe(200);

    // A value that is no IP address is no address: the socket's peer stands in for it.
    await s.http('GET', '/api/admin/dashboards', { token: 'guess-x', headers: { 'x-forwarded-for': '203.0.113.9, <script>alert(1)</script>' } });
    const log = (await s.http<ActivityEntryDto[]>('GET', '/api/admin/activity?category=auth&limit=1000', { headers: { 'x-forwarded-for': '203.0.113.8' } })).body;
    expect(log.length).toBeGreaterThanOrEqual(21);
    const addresses = new Set(log.map((e) => e.address));
    expect([...addresses].sort()).toEqual(['127.0.0.1', '203.0.113.7']);
    expect(JSON.stringify(log)).not.toContain('script');
  });
});

describe('a client that reaches a process directly, when TRUST_PROXY lists the proxies', () => {
  let s: TestServer;
  let lines: string[];
  beforeAll(async () => {
    const captured = capturedLog();
    lines = captured.lines;
    // The proxies are elsewhere: this test's own connections (from 127.0.0.1) are not one of them.
    s = await startTestServer({ TRUST_PROXY: '10.9.9.9, 192.0.2.0/24, uniquelocal', RATE_LIMIT_AUTH_FAILURES: '5', LOG_LEVEL: 'warn' }, captured.log);
  });
  afterAll(() => s?.close());

  it('is its own address whatever X-Forwarded-For it sends: varying it dodges no limit, on REST and in the Socket.IO handshake', async () => {
    expect(lines.filter((l) => l.includes('TRUST_PROXY'))).toEqual([]);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await s.http('GET', '/api/admin/dashboards', { token: `guess-${i}`, headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(await handshake(s.url, { 'x-forwarded-for': '198.51.100.77' })).toBe('rate_limited');
    const log = (await s.http<ActivityEntryDto[]>('GET', '/api/admin/activity?category=auth&limit=1000', { headers: { 'x-forwarded-for': '203.0.113.200' } }));
    // Its own address is blocked now (the right admin token waits too), as the limit says.
    expect(log.status).toBe(429);
  });

  it('cannot pass another site off as ours with X-Forwarded-Host and -Proto', async () => {
    const res = await fetch(`${s.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password-1' }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('cross_site_request');
  });
});

describe('clientAddress', () => {
  const settings = (value: string, hops = 1) => ({ TRUST_PROXY: parseProxyTrust(value), TRUST_PROXY_HOPS: hops });
  const xff = (v: string | string[]) => ({ 'x-forwarded-for': v });

  it('with TRUST_PROXY=true, takes the hop the trusted proxies appended, validated as an IP address', () => {
    const any = (hops: number) => settings('true', hops);
    expect(clientAddress(xff('1.1.1.1, 2.2.2.2'), '10.0.0.1', settings('false'))).toBe('10.0.0.1');
    expect(clientAddress(xff('1.1.1.1, 2.2.2.2'), '10.0.0.1', any(1))).toBe('2.2.2.2');
    expect(clientAddress(xff('1.1.1.1, 2.2.2.2, 3.3.3.3'), '10.0.0.1', any(2))).toBe('2.2.2.2');
    expect(clientAddress(xff('2001:db8::1'), '10.0.0.1', any(3))).toBe('2001:db8::1');
    expect(clientAddress(xff(['1.1.1.1', '2.2.2.2']), '10.0.0.1', any(1))).toBe('2.2.2.2');
    expect(clientAddress({}, '10.0.0.1', any(1))).toBe('10.0.0.1');
    for (const bad of ['unknown', '2.2.2.2:443', '[2001:db8::1]', '2.2.2.2;drop', '<script>', '999.1.1.1']) {
      expect(clientAddress(xff(`1.1.1.1, ${bad}`), '10.0.0.1', any(1)), bad).toBe('10.0.0.1');
    }
  });

  it('with the proxies listed, reads X-Forwarded-For only from them, walking from the right past each of them', () => {
    const nginx = settings('loopback');
    expect(clientAddress(xff('6.6.6.6, 2.2.2.2'), '127.0.0.1', nginx)).toBe('2.2.2.2');
    // A dual-stack socket reports an IPv4 peer as ::ffff:127.0.0.1: the same proxy.
    expect(clientAddress(xff('2.2.2.2'), '::ffff:127.0.0.1', nginx)).toBe('2.2.2.2');
    expect(clientAddress(xff('2.2.2.2'), '::1', nginx)).toBe('2.2.2.2');
    // Not from a listed proxy: the header is not read at all.
    expect(clientAddress(xff('2.2.2.2'), '203.0.113.9', nginx)).toBe('203.0.113.9');
    // Two tiers of proxies: the load balancer 10.0.0.5 in front of nginx on loopback.
    const tiers = settings('loopback, 10.0.0.0/24');
    expect(clientAddress(xff('6.6.6.6, 2.2.2.2, 10.0.0.5'), '127.0.0.1', tiers)).toBe('2.2.2.2');
    // Everyone on the path a proxy: the left-most entry.
    expect(clientAddress(xff('10.0.0.9, 10.0.0.5'), '127.0.0.1', tiers)).toBe('10.0.0.9');
    expect(clientAddress(xff('1.1.1.1, <script>'), '127.0.0.1', nginx)).toBe('127.0.0.1');
    expect(clientAddress(xff('fd00::7'), 'fc00::1', settings('uniquelocal'))).toBe('fd00::7');
    expect(clientAddress(xff('2.2.2.2'), '169.254.3.4', settings('linklocal'))).toBe('2.2.2.2');
    expect(clientAddress(xff('2.2.2.2'), '10.1.2.3', settings('::ffff:10.0.0.0/104'))).toBe('2.2.2.2');
  });

  it('refuses at start a TRUST_PROXY that is no list of addresses, naming the entry', () => {
    for (const bad of ['10.0.0.0/33', 'nginx', '10.1', 'loopback;rm', '0x0a.0.0.1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be false, true, or the proxies' addresses/);
    }
    expect(loadConfig({ TRUST_PROXY: 'LOOPBACK, 10.0.0.5' }).TRUST_PROXY.proxies).toEqual(['loopback', '10.0.0.5']);
    expect(loadConfig({}).TRUST_PROXY.mode).toBe('none');
  });
});
