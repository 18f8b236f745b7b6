import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { pickEncoding } from './fastPath';
import { viewCacheOf } from './index';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

function rawGet(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.request(`${s.url}${path}`, { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
    }).on('error', reject).end();
  });
}

const same = ['etag', 'cache-control', 'content-type', 'content-encoding', 'content-length', 'x-content-type-options', 'referrer-policy', 'cross-origin-opener-policy', 'x-frame-options'] as const;

describe('the public view hot path', () => {
  it('answers a cached view with the same status, headers and bytes as the Koa route, and steps aside otherwise', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: Array.from({ length: 30 }, (_, i) => ({ id: i, subject: 'Printer jammed on floor 2' })) } });
    // The source's field types follow the ingest a moment later (dataSources/fieldTypes.ts): compare answers at rest.
    await s.app.fieldTypes.settle();
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Tickets', dataSourceId: ds.id, isPublished: true } })).body;
    const path = `/api/dashboards/${d.id}`;
    const cache = viewCacheOf(s.app.ctx);
    for (const enc of ['identity', 'gzip', 'gzip, deflate, br']) {
      cache.clear();
      expect(cache.peek(d.id)).toBeNull();
      const viaKoa = await rawGet(path, { 'accept-encoding': enc });
      expect(cache.peek(d.id)).not.toBeNull();
      const fast = await rawGet(path, { 'accept-encoding': enc });
      expect(fast.status).toBe(200);
      for (const h of same) expect(fast.headers[h], `${h} for ${enc}`).toEqual(viaKoa.headers[h]);
      expect(fast.headers.vary).toMatch(/accept-encoding/i);
      // The same policy, less the per-response script nonce a JSON answer has no use for.
      expect(String(fast.headers['content-security-policy'])).toBe(String(viaKoa.headers['content-security-policy']).replace(/'nonce-[^']+'/, "'self'"));
      expect(fast.body.equals(viaKoa.body)).toBe(true);
      expect((await rawGet(path, { 'if-none-match': String(fast.headers.etag) })).status).toBe(304);
    }
    const head = await rawGet(path, { 'accept-encoding': 'identity' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    // Changes show at once: the held body is stale after an ingest, and the next answer is new.
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 99, subject: 'New' }] } });
    expect(JSON.parse((await rawGet(path, { 'accept-encoding': 'identity' })).body.toString()).records).toHaveLength(31);
    // Unpublished: the hot path steps aside and the route answers 404 with the API's error shape.
    await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { isPublished: false } });
    const gone = await rawGet(path, {});
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body.toString()).error.code).toBe('not_found');
  });

  it('reads Accept-Encoding with q-values, br first', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});
