import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ShareViewResponse } from '@common/schemas/sharing/shareLink';
import { buildDashboard, buildSource } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/harness';
import { eventually } from '../../test/eventually';
import { viewCacheOf } from './index';

let s: TestServer;
let ds: { id: string; sourceId: string };
let draft: { id: string };

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.reset();
  ds = await buildSource(s, { records: Array.from({ length: 30 }, (_, i) => ({ id: i, subject: 'Printer jammed on floor 2' })) });
  draft = await buildDashboard(s, { source: ds, name: 'Draft' });
});

const link = async (body: Record<string, unknown> = {}) =>
  (await s.http('POST', `/api/admin/dashboards/${draft.id}/links`, { body: { label: 'Partner', ...body } })).body as { token: string; link: { id: string } };
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(`${s.url}${path}`, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
    }).on('error', reject);
  });
}

describe('share views from memory', () => {
  it('serves a draft through its link from the view cache: one database read, then none, the same bytes and headers either way', async () => {
    const { token } = await link({ allowCsv: true });
    const cache = viewCacheOf(s.app.ctx);
    const before = { links: cache.links.loads, sources: cache.stats.sourceBuilds, dashboards: cache.stats.dashboardLoads };
    const first = await rawGet(`/api/share/${token}`, { 'accept-encoding': 'identity' });
    expect(first.status).toBe(200);
    const body = JSON.parse(first.body.toString()) as ShareViewResponse;
    expect(body.dashboard.name).toBe('Draft');
    expect(body.records).toHaveLength(30);
    expect(body.share).toEqual({ allowCsv: true, expiresAt: null });
    for (let i = 0; i < 20; i++) {
      const again = await rawGet(`/api/share/${token}`, { 'accept-encoding': 'identity' });
      expect(again.body.equals(first.body)).toBe(true);
      for (const h of ['etag', 'cache-control', 'referrer-policy', 'content-type', 'x-content-type-options']) expect(again.headers[h], h).toEqual(first.headers[h]);
    }
    expect(first.headers['cache-control']).toBe('no-cache, private');
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    expect(cache.links.loads - before.links).toBe(1);
    expect(cache.stats.sourceBuilds - before.sources).toBeLessThanOrEqual(1);
    expect(cache.stats.dashboardLoads - before.dashboards).toBeLessThanOrEqual(1);
    // Conditional and compressed, as the public view.
    expect((await rawGet(`/api/share/${token}`, { 'if-none-match': String(first.headers.etag) })).status).toBe(304);
    const gzip = await rawGet(`/api/share/${token}`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe('no-cache, private');
    // The draft's view held for the link is not a public view.
    expect((await s.http('GET', `/api/dashboards/${draft.id}`, { token: null })).status).toBe(404);
    // A change shows at once.
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 99, subject: 'New' }] } });
    expect(((await s.http('GET', `/api/share/${token}`, { token: null })).body as ShareViewResponse).records).toHaveLength(31);
  });

  it('answers 404 at once once the link is revoked or expires, or its dashboard is deleted', async () => {
    const revoked = await link();
    // Long enough to be read twice on a busy machine before it expires.
    const expiring = await link({ expiresAt: new Date(Date.now() + 4_000).toISOString() });
    const deleted = await link();
    for (const l of [revoked, expiring, deleted]) {
      expect((await s.http('GET', `/api/share/${l.token}`, { token: null })).status).toBe(200);
      expect((await s.http('GET', `/api/share/${l.token}`, { token: null })).status).toBe(200);
    }
    await s.http('DELETE', `/api/admin/dashboards/${draft.id}/links/${revoked.link.id}`);
    expect((await s.http('GET', `/api/share/${revoked.token}`, { token: null })).status).toBe(404);
    // Expiry needs no event: the clock is compared on every request.
    await eventually(async () => expect((await s.http('GET', `/api/share/${expiring.token}`, { token: null })).body.error?.code).toBe('not_found'), { interval: 50, timeout: 10_000 });
    expect((await s.http('GET', `/api/share/${deleted.token}`, { token: null })).status).toBe(200);
    await s.http('DELETE', `/api/admin/dashboards/${draft.id}`);
    expect((await s.http('GET', `/api/share/${deleted.token}`, { token: null })).status).toBe(404);
  });
});
