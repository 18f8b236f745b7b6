import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import type { ActivityEntryDto } from '@common/schemas/activity';
import { clientAddress } from './clientAddress';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../test/harness';

/** A Socket.IO handshake with the admin token and these headers: resolves with the refusal's code, or 'connected'. */
function handshake(url: string, headers: Record<string, string>): Promise<string> {
  const socket = connect(url, { transports: ['websocket'], auth: { token: ADMIN_TOKEN }, extraHeaders: headers, reconnection: false, forceNew: true });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (e) => resolve((e as Error & { data?: { code?: string } }).data?.code ?? e.message));
  }).finally(() => socket.close()) as Promise<string>;
}

describe('the client address behind a trusted proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ TRUST_PROXY: 'true', RATE_LIMIT_AUTH_FAILURES: '20' });
  });
  afterAll(() => s?.close());

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

describe('clientAddress', () => {
  const trust = (hops: number) => ({ TRUST_PROXY: true, TRUST_PROXY_HOPS: hops });
  it('takes the hop the trusted proxies appended, validated as an IP address', () => {
    const xff = (v: string | string[]) => ({ 'x-forwarded-for': v });
    expect(clientAddress(xff('1.1.1.1, 2.2.2.2'), '10.0.0.1', { TRUST_PROXY: false, TRUST_PROXY_HOPS: 1 })).toBe('10.0.0.1');
    expect(clientAddress(xff('1.1.1.1, 2.2.2.2'), '10.0.0.1', trust(1))).toBe('2.2.2.2');
    expect(clientAddress(xff('1.1.1.1, 2.2.2.2, 3.3.3.3'), '10.0.0.1', trust(2))).toBe('2.2.2.2');
    expect(clientAddress(xff('2001:db8::1'), '10.0.0.1', trust(3))).toBe('2001:db8::1');
    expect(clientAddress(xff(['1.1.1.1', '2.2.2.2']), '10.0.0.1', trust(1))).toBe('2.2.2.2');
    expect(clientAddress({}, '10.0.0.1', trust(1))).toBe('10.0.0.1');
    for (const bad of ['unknown', '2.2.2.2:443', '[2001:db8::1]', '2.2.2.2;drop', '<script>', '999.1.1.1']) {
      expect(clientAddress(xff(`1.1.1.1, ${bad}`), '10.0.0.1', trust(1)), bad).toBe('10.0.0.1');
    }
  });
});
