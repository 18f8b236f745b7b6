import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

describe('health and the error shape', () => {
  it('tells anyone the status and database mode only; the admin gets readiness, the engine\'s reason, version and uptime', async () => {
    const res = await s.http('GET', '/api/health', { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: { mode: s.app.ctx.db.mode } });
    expect(['embedded-mongod', 'embedded-jongodb', 'external']).toContain(res.body.database.mode);

    expect((await s.http('GET', '/api/admin/health', { token: null })).status).toBe(401);
    const admin = await s.http('GET', '/api/admin/health');
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual({
      status: 'ok',
      database: { mode: s.app.ctx.db.mode, ready: true, persistent: s.app.ctx.db.persistent, dataDir: s.app.ctx.db.dataDir, reason: s.app.ctx.db.reason },
      engine: expect.objectContaining({ engine: s.app.ctx.db.mode === 'embedded-jongodb' ? 'jongodb' : 'mongod', recordsCount: expect.any(Number), nearSlowWrites: expect.any(Boolean) }),
      realtime: { adapter: 'memory' },
      version: '0.1.0',
      uptimeSeconds: expect.any(Number),
    });
  });

  it('answers unknown API paths with a JSON 404, never the web app', async () => {
    const res = await s.http('GET', '/api/nothing/here', { token: null });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({ error: { code: 'not_found', message: 'No API endpoint GET /api/nothing/here' } });
  });

  it('answers malformed JSON with 400 on every write endpoint and keeps serving', async () => {
    for (const path of ['/api/admin/data-sources', '/api/admin/dashboards', '/api/data/ingest']) {
      const res = await s.http('POST', path, { raw: '{"name": ' });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('malformed_json');
      expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await s.http('GET', '/api/health')).status).toBe(200);
  });


  it('serves the web app for client routes', async () => {
    const res = await fetch(`${s.url}/dashboards/123`);
    expect([200, 503]).toContain(res.status);
    expect(res.headers.get('content-type')).toContain(res.status === 200 ? 'text/html' : 'text/plain');
  });
});
