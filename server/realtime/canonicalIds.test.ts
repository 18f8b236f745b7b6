import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canonicalObjectId, canonicalShareToken } from '@common/ids';
import { buildDashboard, buildSource } from '../test/factories';
import { startTestServer, type TestServer } from '../test/harness';
import { caughtUp, collect, join, next, openSocket } from '../test/sockets';

let s: TestServer;
let ds: { id: string; sourceId: string };
let d: { id: string };

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.reset();
  ds = await buildSource(s, { records: [{ id: 1 }] });
  d = await buildDashboard(s, { source: ds, published: true });
});

const ingest = (records: unknown[]) => s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records } });

describe('one canonical id', () => {
  it('canonicalises ObjectIds to lower case and refuses what cannot be an id or a token', () => {
    expect(canonicalObjectId('65A1B2C3D4E5F60718293A4B')).toBe('65a1b2c3d4e5f60718293a4b');
    expect(canonicalObjectId('65a1b2c3d4e5f60718293a4')).toBeNull();
    expect(canonicalObjectId('65a1b2c3d4e5f60718293a4g')).toBeNull();
    expect(canonicalObjectId(42)).toBeNull();
    expect(canonicalShareToken('A'.repeat(32))).toBe('A'.repeat(32));
    expect(canonicalShareToken('A'.repeat(31) + '.')).toBeNull();
  });

  it('serves an upper-case spelling as the same dashboard, and it 404s with it once unpublished or deleted', async () => {
    const upper = `/api/dashboards/${d.id.toUpperCase()}`;
    const canonical = await s.http('GET', `/api/dashboards/${d.id}`, { token: null });
    const other = await s.http('GET', upper, { token: null });
    expect(other.status).toBe(200);
    expect(other.body.dashboard.id).toBe(d.id);
    expect(other.headers.get('etag')).toBe(canonical.headers.get('etag'));
    await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { isPublished: false } });
    expect((await s.http('GET', upper, { token: null })).status).toBe(404);
    expect((await s.http('GET', `${upper}/export`, { token: null })).status).toBe(404);
    await s.http('PATCH', `/api/admin/dashboards/${d.id.toUpperCase()}`, { body: { isPublished: true } });
    expect((await s.http('GET', upper, { token: null })).status).toBe(200);
    await s.http('DELETE', `/api/admin/dashboards/${d.id}`);
    await ingest([{ id: 2 }]);
    expect((await s.http('GET', upper, { token: null })).status).toBe(404);
  });

  it('answers 404 for a path parameter that cannot be an id or a token', async () => {
    expect((await s.http('GET', '/api/dashboards/not-an-id', { token: null })).status).toBe(404);
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}x`)).body.error.code).toBe('not_found');
    expect((await s.http('GET', `/api/admin/dashboards/${d.id.toUpperCase()}`)).body.id).toBe(d.id);
    expect((await s.http('GET', '/api/share/short', { token: null })).status).toBe(404);
    expect((await s.http('PATCH', `/api/admin/data-sources/${ds.id.toUpperCase()}`, { body: { description: 'x' } })).body.id).toBe(ds.id);
  });

  it('puts a socket that joins with another spelling in the canonical room: it is told of the unpublish and its deltas stop', async () => {
    const v = await openSocket(s.url);
    try {
      expect(await join(v, 'dashboard:join', d.id.toUpperCase())).toMatchObject({ ok: true });
      const first = next(v, 'records:upserted');
      await ingest([{ id: 2 }]);
      expect((await first).records[0].recordId).toBe('2');
      const removed = next(v, 'dashboard:removed');
      await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { isPublished: false } });
      expect(await removed).toEqual({ dashboardId: d.id });
      const after = collect(v, 'records:upserted');
      // A viewer of another dashboard on the source hears the ingest: v would have with it.
      const other = await buildDashboard(s, { source: ds, published: true });
      const w = await openSocket(s.url);
      expect(await join(w, 'dashboard:join', other.id)).toMatchObject({ ok: true });
      const heard = next(w, 'records:upserted');
      await ingest([{ id: 3 }]);
      await heard;
      w.disconnect();
      await caughtUp(v);
      expect(after.items).toEqual([]);
      expect(await join(v, 'dashboard:join', 'not-an-id')).toEqual({ ok: false, reason: 'Dashboard Not Found' });
    } finally {
      v.disconnect();
    }
  });
});
