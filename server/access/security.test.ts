import type Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Audience } from './guards';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';
import { headOnlyRequest } from '../test/rawHttp';
import { buildPerson } from '../test/factories';
import type { Person } from '../test/people';

interface RouteInfo {
  method: string;
  path: string;
  audience: Audience | undefined;
}

/** Every route the API router holds, read from the routers themselves, with the audience its guard declares. */
function enumerateRoutes(api: Router): RouteInfo[] {
  const out: RouteInfo[] = [];
  for (const layer of api.stack) {
    const guard = layer.stack[0] as { audience?: Audience };
    for (const method of layer.methods.filter((m) => m !== 'HEAD')) out.push({ method, path: String(layer.path), audience: guard.audience });
  }
  return out;
}

const ID = '0123456789abcdef01234567';
const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, ID);

/** Spellings of a path that must never reach its handler. */
function variants(path: string): string[] {
  const p = concrete(path);
  const rest = p.slice('/api/'.length);
  const capitalised = rest.split('/').map((s) => (s === ID ? s : s.charAt(0).toUpperCase() + s.slice(1))).join('/');
  const encoded = `%${rest.charCodeAt(0).toString(16)}${rest.slice(1)}`;
  return [p.toUpperCase(), `/api/${capitalised}`, `/api/${encoded}`, `/api//${rest}`, `/${p}`, `${p}/`];
}

let s: TestServer;
let routes: RouteInfo[];
beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: '100000' });
  routes = enumerateRoutes(s.app.api);
});
afterAll(() => s.close());

describe('trust boundary: every route declares its audience', () => {
  it('has a guard as the first middleware of every route, and the public surface is exactly the documented one', () => {
    expect(routes.length).toBeGreaterThan(15);
    for (const r of routes) expect(r.audience, `${r.method} ${r.path}`).toMatch(/^(public|ingest|embed|viewer|editor|admin)$/);
    const open = routes.filter((r) => r.audience === 'public' || r.audience === 'ingest' || r.audience === 'embed').map((r) => `${r.audience} ${r.method} ${r.path}`).sort();
    expect(open).toEqual([
      'embed GET /api/embed/:token',
      'embed GET /api/embed/:token/export',
      'ingest DELETE /api/data/sources/:sourceId/records/:key',
      'ingest POST /api/data/ingest',
      'ingest POST /api/data/sources/:sourceId/records',
      'ingest POST /api/data/sources/:sourceId/records/delete',
      'ingest PUT /api/data/sources/:sourceId/records',
      'public GET /api/auth/invite/:token',
      'public GET /api/auth/setup',
      'public GET /api/dashboards',
      'public GET /api/dashboards/:id',
      'public GET /api/dashboards/:id/alerts',
      'public GET /api/dashboards/:id/export',
      'public GET /api/health',
      'public GET /api/integrations/zendesk/callback',
      'public GET /api/openapi.json',
      'public GET /api/reports/files/:file',
      'public GET /api/share/:token',
      'public GET /api/share/:token/alerts',
      'public GET /api/share/:token/export',
      'public POST /api/auth/accept-invite',
      'public POST /api/auth/login',
      'public POST /api/auth/setup',
    ]);
    // The role table of access/SECURITY.md, route by route: admins alone manage people, integrations and data sources.
    const audience = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)?.audience;
    const expected: [string, string, string][] = [
      ['GET', '/api/data/sources', 'editor'], ['GET', '/api/data/raw', 'editor'],
      ['POST', '/api/admin/data-sources', 'admin'], ['PATCH', '/api/admin/data-sources/:id', 'admin'],
      ['POST', '/api/admin/data-sources/:id/ingest-key', 'admin'], ['DELETE', '/api/admin/data-sources/:id', 'admin'],
      ['GET', '/api/admin/dashboards', 'viewer'], ['GET', '/api/admin/dashboards/:id', 'viewer'],
      ['POST', '/api/admin/dashboards', 'editor'], ['PATCH', '/api/admin/dashboards/:id', 'editor'], ['DELETE', '/api/admin/dashboards/:id', 'editor'],
      ['PUT', '/api/admin/dashboards/:id/embedding', 'editor'], ['POST', '/api/admin/dashboards/:id/embedding/secret', 'editor'], ['POST', '/api/admin/dashboards/:id/links', 'editor'],
      ['GET', '/api/admin/dashboards/:id/versions', 'editor'], ['GET', '/api/admin/dashboards/:id/versions/:n', 'editor'],
      ['GET', '/api/admin/dashboards/:id/versions/:n/diff', 'editor'], ['POST', '/api/admin/dashboards/:id/versions/:n/restore', 'editor'],
      ['GET', '/api/admin/dashboards/:id/definition', 'editor'], ['POST', '/api/admin/dashboards/import', 'editor'],
      ['GET', '/api/admin/analytics', 'editor'], ['GET', '/api/admin/activity', 'admin'],
      ['GET', '/api/integrations', 'admin'], ['POST', '/api/integrations/zendesk/config', 'admin'],
      ['POST', '/api/integrations', 'admin'], ['GET', '/api/integrations/:id', 'admin'], ['PUT', '/api/integrations/:id/config', 'admin'],
      ['POST', '/api/integrations/:id/test', 'admin'], ['POST', '/api/integrations/test', 'admin'], ['POST', '/api/integrations/:id/sync', 'admin'],
      ['GET', '/api/integrations/:id/runs', 'admin'],
      ['GET', '/api/admin/users', 'admin'], ['POST', '/api/admin/users', 'admin'], ['PATCH', '/api/admin/users/:id', 'admin'],
      ['GET', '/api/admin/users/:id/tokens', 'admin'], ['DELETE', '/api/admin/users/:id/tokens/:tokenId', 'admin'],
      ['GET', '/api/auth/me', 'viewer'], ['POST', '/api/auth/tokens', 'viewer'], ['DELETE', '/api/auth/tokens', 'viewer'],
      ['GET', '/api/admin/engine', 'admin'], ['GET', '/api/admin/health', 'admin'],
      ['GET', '/api/admin/data-sources/:id/export', 'editor'],
      ['GET', '/api/admin/reports', 'editor'], ['POST', '/api/admin/reports', 'editor'], ['POST', '/api/admin/reports/:id/send', 'editor'],
    ];
    for (const [method, path, want] of expected) expect(audience(method, path), `${method} ${path}`).toBe(want);
  });

  it('answers 401 on every signed-in route without a credential, with a wrong token or an ended session, and 404 on every other spelling of its path', async () => {
    const admin = routes.filter((r) => r.audience !== 'public' && r.audience !== 'ingest' && r.audience !== 'embed');
    for (const r of admin) {
      const missing = await s.http(r.method, concrete(r.path), { token: null });
      expect(missing.status, `${r.method} ${r.path}`).toBe(401);
      expect(missing.body.error.code).toBe('sign_in_required');
      const ended = await s.http(r.method, concrete(r.path), { token: null, headers: { cookie: 'livedash_session=no-such-session' } });
      expect(ended.status, `${r.method} ${r.path} with an ended session`).toBe(401);
      expect(ended.body.error.code).toBe('session_ended');
      const badApiToken = await s.http(r.method, concrete(r.path), { token: 'ldp_no-such-token' });
      expect(badApiToken.body.error.code, `${r.method} ${r.path} with an unknown API token`).toBe('invalid_api_token');
      const wrong = await s.http(r.method, concrete(r.path), { token: 'not-the-admin-token' });
      expect(wrong.status, `${r.method} ${r.path} with a wrong token`).toBe(401);
      expect(wrong.body.error.code).toBe('invalid_admin_token');
      for (const v of variants(r.path)) {
        const res = await s.http(r.method, v, { token: null });
        expect(res.status, `${r.method} ${v}`).toBe(404);
      }
    }
  });

  it('answers 401 embed_token_invalid on every embed route without a valid signed token (the admin token is none), and 404 on every other spelling of its path', async () => {
    const embed = routes.filter((r) => r.audience === 'embed');
    expect(embed.length).toBeGreaterThanOrEqual(2);
    for (const r of embed) {
      for (const token of [ID, 'a.b.c', 'eyJhbGciOiJub25lIn0.e30.']) {
        for (const credential of [null, ADMIN_TOKEN]) {
          const res = await s.http(r.method, r.path.replace(':token', token), { token: credential });
          expect([res.status, res.body?.error?.code], `${r.method} ${r.path} with ${token}`).toEqual([401, 'embed_token_invalid']);
        }
      }
      for (const v of variants(r.path)) expect((await s.http(r.method, v, { token: null })).status, `${r.method} ${v}`).toBe(404);
    }
  });

  it('lets each role through exactly the routes its audience allows: 403 for the others, never 401', async () => {
    const people: Record<'viewer' | 'editor' | 'admin', Person> = {
      viewer: await buildPerson(s, 'viewer'), editor: await buildPerson(s, 'editor'), admin: await buildPerson(s, 'admin'),
    };
    const rank = { viewer: 1, editor: 2, admin: 3 } as const;
    // These end the session they are called with: each gets a fresh person.
    const endsSession = new Set(['POST /api/auth/logout', 'DELETE /api/auth/sessions']);
    const signedIn = routes.filter((r) => r.audience === 'viewer' || r.audience === 'editor' || r.audience === 'admin');
    for (const r of signedIn) {
      for (const role of ['viewer', 'editor', 'admin'] as const) {
        const person = endsSession.has(`${r.method} ${r.path}`) ? await buildPerson(s, role) : people[role];
        const body = ['POST', 'PATCH', 'PUT'].includes(r.method) ? {} : undefined;
        const res = await person.http(r.method, concrete(r.path), { body });
        if (rank[role] >= rank[r.audience as 'viewer']) {
          expect([401, 403], `${role} ${r.method} ${r.path}: ${JSON.stringify(res.body)}`).not.toContain(res.status);
        } else {
          expect(res.status, `${role} ${r.method} ${r.path}`).toBe(403);
          expect(res.body.error.code).toBe('forbidden');
        }
      }
      // The admin token acts as an admin everywhere except where a person's own account is needed.
      if (!r.path.startsWith('/api/auth/')) {
        const res = await s.http(r.method, concrete(r.path), { body: ['POST', 'PATCH', 'PUT'].includes(r.method) ? {} : undefined });
        expect([401, 403], `admin token ${r.method} ${r.path}`).not.toContain(res.status);
      }
    }
  });

  it('refuses the outsider\'s reproductions: no listing, no key, no delete, no Zendesk reconfiguration', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Target' } })).body;
    const attempts: [string, string, unknown?][] = [
      ['GET', '/api/ADMIN/dashboards'],
      ['POST', `/api/ADMIN/data-sources/${ds.id}/ingest-key`],
      ['DELETE', `/api/Admin/data-sources/${ds.id}`],
      ['POST', '/api/INTEGRATIONS/zendesk/config', { integrationId: ID, clientId: 'x', clientSecret: 'y', hostUrl: 'https://evil.example' }],
      ['POST', `/api/INTEGRATIONS/${ID}/sync`, {}],
      ['GET', '/api/data/sources'],
      ['GET', `/api/data/raw?dataSourceId=${ds.sourceId}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await s.http(method, path, { token: null, body });
      expect([401, 404], `${method} ${path}`).toContain(res.status);
    }
    const still = await s.http('GET', '/api/data/sources');
    expect(still.body.map((d: { id: string }) => d.id)).toContain(ds.id);
    expect(still.body[0].ingestKeyHint).toBe(ds.ingestKeyHint);
  });

  it('answers 404 for unknown API paths and 405 with Allow for a wrong method, as JSON', async () => {
    const unknown = await s.http('POST', '/api/admin/nothing', { token: null, body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const wrongMethod = await s.http('PUT', '/api/admin/dashboards', { token: null, body: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('HEAD, GET, POST');
    expect(wrongMethod.body.error.code).toBe('method_not_allowed');
  });

  it('never reads the body of a request it refuses: 401, 404, 405 and 413 come back while the upload is still pending', async () => {
    const big = { 'Content-Type': 'application/json', 'Content-Length': String(50 * 1024 * 1024) };
    const bodied = routes.filter((r) => ['POST', 'PATCH', 'PUT'].includes(r.method));
    expect(bodied.length).toBeGreaterThan(5);
    for (const r of bodied) {
      const res = await headOnlyRequest(s.url, r.method, concrete(r.path), big);
      // The public sign-in forms take small bodies only: a big one is refused before it is read.
      expect(res.status, `${r.method} ${r.path}`).toBe(r.audience === 'public' ? 413 : 401);
      expect(res.head.toLowerCase()).toContain('connection: close');
    }
    expect((await headOnlyRequest(s.url, 'POST', '/api/admin/nothing', big)).status).toBe(404);
    expect((await headOnlyRequest(s.url, 'PUT', '/api/admin/dashboards', big)).status).toBe(405);
    const tooBig = await headOnlyRequest(s.url, 'POST', '/api/admin/dashboards', { ...big, Authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(tooBig.status).toBe(413);
  });

  it('limits bodies per route: about 1 MB for admin JSON, INGEST_MAX_BYTES for ingest', async () => {
    const twoMb = JSON.stringify({ name: 'x', description: 'y'.repeat(2 * 1024 * 1024) });
    const admin = await s.http('POST', '/api/admin/data-sources', { raw: twoMb });
    expect(admin.status).toBe(413);
    expect(admin.body.error).toEqual({ code: 'payload_too_large', message: 'Request body is larger than the limit of 1 MB' });
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Big' } })).body;
    const ingest = await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1, text: 'y'.repeat(2 * 1024 * 1024) }] } });
    expect(ingest.status).toBe(200);
  });

  it('serves the web app\'s 404 page with status 404, and its screens with 200', async () => {
    for (const path of ['/', '/admin', '/dashboards', '/dashboards/analytics/trends', `/dashboards/${ID}`, '/embed/eyJh.eyJk.c2ln']) {
      expect((await fetch(s.url + path)).status, path).toBe(200);
    }
    for (const path of ['/nope', '/dashboards/analytics/nope', '/admin/extra', '/dashboards/a/b/c', '/embed/nope', '/embed/a.b.c/d']) {
      const res = await fetch(s.url + path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
  });
});
