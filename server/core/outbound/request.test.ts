import http from 'node:http';
import type net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundRefused, checkOutboundHost, resolveOutboundHost } from './outbound';
import { OutboundFailed, requestOutbound } from './request';

/** The one way out for integrations' reads: redirects, size caps, compression, deadlines, refusals — against a real server on loopback. */

let server: http.Server;
let base: string;
let allowed: string[];
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/json') return res.end(JSON.stringify({ ok: true, method: req.method, auth: req.headers.authorization ?? null }));
    if (u.pathname === '/here') {
      res.writeHead(302, { location: '/json' });
      return res.end();
    }
    if (u.pathname === '/away') {
      res.writeHead(301, { location: 'http://example.com/json' });
      return res.end();
    }
    if (u.pathname === '/big') return res.end('x'.repeat(2000));
    if (u.pathname === '/bomb') {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      return res.end(zlib.gzipSync('y'.repeat(1_000_000)));
    }
    if (u.pathname === '/br') {
      res.writeHead(200, { 'content-encoding': 'br' });
      return res.end(zlib.brotliCompressSync('{"compressed":true}'));
    }
    if (u.pathname === '/slow') return; // never answers
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  base = `http://127.0.0.1:${port}`;
  allowed = [`127.0.0.1:${port}`];
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

const json = (b: Buffer) => JSON.parse(b.toString('utf8'));

describe('requestOutbound', () => {
  it('sends the method, headers and body; follows a redirect on the same origin only', async () => {
    const res = await requestOutbound({ method: 'POST', url: `${base}/json`, headers: { authorization: 'Bearer t' }, body: '{}', allowed });
    expect(res.status).toBe(200);
    expect(json(res.body)).toEqual({ ok: true, method: 'POST', auth: 'Bearer t' });
    const moved = await requestOutbound({ method: 'GET', url: `${base}/here`, allowed });
    expect(json(moved.body).ok).toBe(true);
    expect(moved.url).toBe(`${base}/json`);
    await expect(requestOutbound({ method: 'GET', url: `${base}/away`, allowed })).rejects.toMatchObject({ kind: 'redirect', message: expect.stringContaining('another host (example.com)') });
  });

  it('refuses an answer past its cap (decompressed size counted) and reads brotli', async () => {
    await expect(requestOutbound({ method: 'GET', url: `${base}/big`, allowed, maxBytes: 1000 })).rejects.toBeInstanceOf(OutboundFailed);
    await expect(requestOutbound({ method: 'GET', url: `${base}/bomb`, allowed, maxBytes: 100_000 })).rejects.toMatchObject({ kind: 'too_large' });
    expect(json((await requestOutbound({ method: 'GET', url: `${base}/br`, allowed })).body)).toEqual({ compressed: true });
  });

  it('gives up at its deadline, stops on abort, and refuses addresses outside the allow-list', async () => {
    await expect(requestOutbound({ method: 'GET', url: `${base}/slow`, allowed, timeoutMs: 300 })).rejects.toMatchObject({ kind: 'timeout', message: 'no answer within 0.3 s' });
    const abort = new AbortController();
    const pending = requestOutbound({ method: 'GET', url: `${base}/slow`, allowed, signal: abort.signal });
    abort.abort(new Error('stopped by the test'));
    await expect(pending).rejects.toThrow('stopped by the test');
    await expect(requestOutbound({ method: 'GET', url: `${base}/json`, allowed: [] })).rejects.toBeInstanceOf(OutboundRefused);
  });
});

describe('database hosts', () => {
  it('are checked by the URL rule: internal addresses only when listed; the checked address is the one to connect to', async () => {
    expect(() => checkOutboundHost('10.0.0.5', 5432, [])).toThrow(OutboundRefused);
    expect(() => checkOutboundHost('localhost', 3306, [])).toThrow(/loopback, private, link-local or otherwise non-public address \(loopback\)/);
    expect(() => checkOutboundHost('db.example.com', 0, [])).toThrow(/not a port/);
    expect(() => checkOutboundHost('127.0.0.1', 5432, ['127.0.0.1:5432'])).not.toThrow();
    expect(await resolveOutboundHost('127.0.0.1', 5432, ['127.0.0.1:5432'])).toEqual({ address: '127.0.0.1', family: 4 });
    await expect(resolveOutboundHost('127.0.0.1', 5433, ['127.0.0.1:5432'])).rejects.toBeInstanceOf(OutboundRefused);
  });
});
