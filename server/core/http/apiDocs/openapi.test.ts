import type Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../../../package.json' with { type: 'json' };
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../../test/harness';

/** Every route the API router holds with its guard's audience, read here from the router stack (as security.test.ts does). */
function registeredRoutes(api: Router): { method: string; path: string; audience: string | undefined }[] {
  return api.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path), audience: (layer.stack[0] as { audience?: string }).audience })),
  );
}

const toOpenApi = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ PUBLIC_URL: 'https://dash.example.com/some/path' });
});
afterAll(() => s?.close());

describe('GET /api/openapi.json: the endpoint list, generated from the routes', () => {
  it('holds every registered route with its real audience, and nothing else', async () => {
    const res = await s.http('GET', '/api/openapi.json', { token: null });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    const routes = registeredRoutes(s.app.api);
    expect(routes.length).toBeGreaterThan(30);
    for (const r of routes) {
      const op = doc.paths[toOpenApi(r.path)]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op['x-audience'], `${r.method} ${r.path}`).toBe(r.audience);
      // Every route says what it does next to its guard (`about`), so the document has no nameless operation.
      expect(op.summary, `${r.method} ${r.path} has no about({summary, answer}) next to its guard`).toMatch(/\S/);
      expect(Object.values(op.responses as Record<string, { description: string }>)[0].description, `${r.method} ${r.path}`).not.toBe('Success');
      if (['viewer', 'editor', 'admin'].includes(r.audience ?? '')) {
        expect(op.security).toEqual([{ session: [] }, { personalToken: [] }, { adminToken: [] }]);
        expect(Object.keys(op.responses)).toContain('403');
      }
      if (r.audience === 'public') expect(op.security).toEqual([]);
      if (r.audience !== 'public') expect(Object.keys(op.responses)).toContain('401');
    }
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${toOpenApi(r.path)}`).sort());
    // The two console reads that once were listed as Public need a signed-in editor: editors read data sources to build dashboards.
    expect(doc.paths['/api/data/sources'].get['x-audience']).toBe('editor');
    expect(doc.paths['/api/data/raw'].get['x-audience']).toBe('editor');
    expect(doc.paths['/api/admin/dashboards'].get['x-audience']).toBe('viewer');
    expect(doc.paths['/api/admin/users'].post['x-audience']).toBe('admin');
    expect(doc.paths['/api/admin/engine'].get['x-audience']).toBe('admin');
    expect(doc.paths['/api/admin/data-sources/{id}/export'].get['x-audience']).toBe('editor');
    expect(doc.paths['/api/openapi.json'].get['x-audience']).toBe('public');
    expect(doc.paths['/api/data/ingest'].post['x-audience']).toBe('ingest');
  });

  it('describes bodies and query parameters from the validators\' zod schemas, with summaries and path parameters', async () => {
    const doc = (await s.http('GET', '/api/openapi.json', { token: null })).body;
    const patch = doc.paths['/api/admin/data-sources/{id}'].patch;
    expect(patch.summary).toContain('Update a data source');
    expect(patch.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    const body = patch.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['name', 'description', 'primaryKey', 'keyMappings', 'timeField']));
    expect(body.required ?? []).toEqual([]);
    expect(body.additionalProperties).toBe(false);
    const exp = doc.paths['/api/admin/data-sources/{id}/export'].get;
    const format = exp.parameters.find((p: { name: string }) => p.name === 'format');
    expect(format).toMatchObject({ in: 'query', required: false, schema: { enum: ['csv', 'json', 'ndjson'], default: 'csv' } });
    expect(exp.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'format', 'fields', 'from', 'to', 'field']);
    expect(doc.paths['/api/admin/dashboards'].post.responses['201']).toBeDefined();
    expect(doc.paths['/api/data/ingest'].post.requestBody.description).toContain('sourceId');
    for (const p of ['/api/admin/dashboards/{id}/links', '/api/share/{token}', '/api/admin/dashboards/{id}/embedding', '/api/admin/analytics', '/api/admin/activity']) {
      expect(doc.paths[p], p).toBeDefined();
    }
  });

  it('names the server\'s public URL when it has one, and holds no secret', async () => {
    const res = await s.http('GET', '/api/openapi.json', { token: null });
    expect(res.body.servers).toEqual([{ url: 'https://dash.example.com' }]);
    expect(res.text).not.toContain(ADMIN_TOKEN);
    expect(res.body.info.version).not.toBe(pkg.version);
    const plain = await startTestServer();
    try {
      expect((await plain.http('GET', '/api/openapi.json', { token: null })).body.servers).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
