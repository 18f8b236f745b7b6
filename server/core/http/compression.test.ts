import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedConfig } from 'vite';
import { precompress } from '../../../scripts/vitePrecompress';
import { startTestServer, type TestServer } from '../../test/harness';
import { join, next, openSocket } from '../../test/sockets';

let s: TestServer;
let web: string;
const bundle = `console.log(${JSON.stringify('livedash '.repeat(400))});\n`.repeat(5);

beforeAll(async () => {
  // A built web app made by the real post-build step (the Vite plugin), in a folder of its own.
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'livedash-web-'));
  fs.mkdirSync(path.join(web, 'assets'));
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>LiveDash</title><script src="/assets/app-abc123.js"></script>');
  fs.writeFileSync(path.join(web, 'assets', 'app-abc123.js'), bundle);
  const plugin = precompress();
  (plugin.configResolved as (c: ResolvedConfig) => void)({ root: web, build: { outDir: '.' } } as ResolvedConfig);
  (plugin.closeBundle as () => void)();
  s = await startTestServer({ WEB_DIST: web });
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(web, { recursive: true, force: true });
});

/** A GET with node:http, which (unlike fetch) hands back the bytes as they came. */
function rawGet(url: string, acceptEncoding: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { 'accept-encoding': acceptEncoding, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;

async function expectEncodings(url: string, headers: Record<string, string> = {}) {
  const plain = await rawGet(url, 'identity', headers);
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  for (const [ask, got] of [['gzip', 'gzip'], ['gzip, deflate, br', 'br'], ['br;q=0, gzip', 'gzip']] as const) {
    const res = await rawGet(url, ask, headers);
    expect(res.headers['content-encoding'], `${url} asked ${ask}`).toBe(got);
    expect(res.body.length).toBeLessThan(plain.body.length);
    expect(decode(got, res.body).equals(plain.body)).toBe(true);
  }
  return plain;
}

describe('compression', () => {
  it('compresses JSON and CSV streams as Accept-Encoding asks, with identical bytes once decoded', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: Array.from({ length: 60 }, (_, i) => ({ id: i, subject: `Printer on floor ${i % 4} is jammed again` })) } });
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Tickets', dataSourceId: ds.id, isPublished: true } })).body;
    const auth = { authorization: `Bearer ${s.app.ctx.adminToken}` };
    await expectEncodings(`${s.url}/api/data/raw?dataSourceId=${ds.id}&limit=100`, auth);
    const csv = await expectEncodings(`${s.url}/api/dashboards/${d.id}/export`);
    expect(csv.body.toString('utf8')).toContain('Printer on floor 3');
    // Small answers go as they are.
    expect((await rawGet(`${s.url}/api/health`, 'gzip')).headers['content-encoding']).toBeUndefined();
  });

  it('serves the built assets precompressed at build time', async () => {
    expect(fs.existsSync(path.join(web, 'assets', 'app-abc123.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(web, 'assets', 'app-abc123.js.gz'))).toBe(true);
    const plain = await expectEncodings(`${s.url}/assets/app-abc123.js`);
    expect(plain.body.toString('utf8')).toBe(bundle);
    const br = await rawGet(`${s.url}/assets/app-abc123.js`, 'br');
    expect(br.body.equals(fs.readFileSync(path.join(web, 'assets', 'app-abc123.js.br')))).toBe(true);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toMatch(/immutable/);
  });

  it('sends Socket.IO frames undeflated, though the client offers permessage-deflate (a push is framed once for all its sockets)', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Big' } })).body;
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 0 }] } });
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Big', dataSourceId: ds.id, isPublished: true } })).body;
    const v = await openSocket(s.url);
    try {
      await join(v, 'dashboard:join', d.id);
      const tcp = (v.io.engine.transport as unknown as { ws: { _socket: { bytesRead: number }; extensions: string } }).ws;
      expect(tcp.extensions).toBe('');
      const before = tcp._socket.bytesRead;
      const delta = next(v, 'records:upserted', 10_000);
      await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: Array.from({ length: 200 }, (_, i) => ({ id: i + 1, subject: 'The same words again and again' })) } });
      const size = JSON.stringify(await delta).length;
      expect(size).toBeGreaterThan(20_000);
      expect(tcp._socket.bytesRead - before).toBeGreaterThanOrEqual(size);
    } finally {
      v.disconnect();
    }
  });
});
