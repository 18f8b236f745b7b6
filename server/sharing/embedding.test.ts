import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';
import { withFrameAncestors } from './embedding';
import { signEmbed } from './signedEmbedding/test/embedTokens';

let s: TestServer;
beforeAll(async () => {
  // The viewer pages are the built web app's index.html.
  s = await startTestServer({ WEB_DIST: process.env.WEB_DIST ?? 'dist/web' });
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

const frameAncestors = async (path: string) => {
  const res = await fetch(`${s.url}${path}`);
  expect(res.status, path).toBe(200);
  return { csp: /frame-ancestors [^;]*/.exec(res.headers.get('content-security-policy') ?? '')?.[0], xfo: res.headers.get('x-frame-options') };
};

describe('embedding origins', () => {
  it('sets frame-ancestors of the dashboard\'s viewer pages (by id and by share link); other pages stay self-only', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Embedded', dataSourceId: ds.id, isPublished: true } })).body;
    const other = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Other', dataSourceId: ds.id, isPublished: true } })).body;
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}/embedding`)).body).toEqual({ dashboardId: d.id, origins: [], secret: null });
    expect(await frameAncestors(`/dashboards/${d.id}`)).toEqual({ csp: "frame-ancestors 'self'", xfo: 'SAMEORIGIN' });

    const put = await s.http('PUT', `/api/admin/dashboards/${d.id}/embedding`, { body: { origins: ['https://Intranet.Example.com/', 'http://127.0.0.1:8123', 'http://127.0.0.1:8123'] } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.origins).toEqual(['https://intranet.example.com', 'http://127.0.0.1:8123']);
    const allowed = "frame-ancestors 'self' https://intranet.example.com http://127.0.0.1:8123";
    expect(await frameAncestors(`/dashboards/${d.id}`)).toEqual({ csp: allowed, xfo: null });
    const { token } = (await s.http('POST', `/api/admin/dashboards/${d.id}/links`, { body: { label: 'Intranet' } })).body;
    expect(await frameAncestors(`/s/${token}`)).toEqual({ csp: allowed, xfo: null });
    expect((await frameAncestors(`/dashboards/${other.id}`)).csp).toBe("frame-ancestors 'self'");
    expect((await frameAncestors('/admin')).csp).toBe("frame-ancestors 'self'");
    expect((await frameAncestors(`/s/${'A'.repeat(32)}`)).csp).toBe("frame-ancestors 'self'");
  });

  it('sets frame-ancestors of a signed embed token\'s page (a draft too) from the origins of the dashboard it names (a refused token\'s page only says so); anything else gets \'self\' only', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Per customer', dataSourceId: ds.id } })).body;
    const bare = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'No origins', dataSourceId: ds.id } })).body;
    expect((await s.http('PUT', `/api/admin/dashboards/${d.id}/embedding`, { body: { origins: ['https://app.example.com'] } })).status).toBe(200);
    const secret = (await s.http('POST', `/api/admin/dashboards/${d.id}/embedding/secret`)).body.secret as string;
    const bareSecret = (await s.http('POST', `/api/admin/dashboards/${bare.id}/embedding/secret`)).body.secret as string;
    const token = await signEmbed(secret, { dashboard: d.id, filters: [{ field: 'tenant', operator: 'eq', value: 'acme' }] });
    expect(await frameAncestors(`/embed/${token}`)).toEqual({ csp: "frame-ancestors 'self' https://app.example.com", xfo: null });
    const page = await fetch(`${s.url}/embed/${token}`);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-type')).toContain('text/html');
    // Refused tokens naming it (another secret, expired): its sites may frame the page that says so.
    expect((await frameAncestors(`/embed/${await signEmbed(bareSecret, { dashboard: d.id })}`)).csp).toBe("frame-ancestors 'self' https://app.example.com");
    expect((await frameAncestors(`/embed/${await signEmbed(secret, { dashboard: d.id, exp: Math.floor(Date.now() / 1000) - 120 })}`)).csp).toBe("frame-ancestors 'self' https://app.example.com");
    // A dashboard that allows no origin, a token naming no dashboard, a malformed one: self only.
    expect(await frameAncestors(`/embed/${await signEmbed(bareSecret, { dashboard: bare.id })}`)).toEqual({ csp: "frame-ancestors 'self'", xfo: 'SAMEORIGIN' });
    expect((await frameAncestors(`/embed/${await signEmbed(secret, { dashboard: 'none' })}`)).csp).toBe("frame-ancestors 'self'");
    expect((await frameAncestors('/embed/a.b.c')).csp).toBe("frame-ancestors 'self'");
  });

  it('refuses anything but plain http(s) origins', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Embedded', dataSourceId: ds.id } })).body;
    const bad = await s.http('PUT', `/api/admin/dashboards/${d.id}/embedding`, { body: { origins: ['*', 'javascript:alert(1)', 'https://a.example/path', "https://b.example 'unsafe-inline'", 'ftp://c.example'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(bad.body.error.fields.map((f: { path: string }) => f.path)).toEqual(['origins.0', 'origins.1', 'origins.2', 'origins.3', 'origins.4']);
    expect((await s.http('PUT', '/api/admin/dashboards/0123456789abcdef01234567/embedding', { body: { origins: [] } })).status).toBe(404);
  });

  it('takes an origin only as scheme, host and port: no wildcard, quote, separator, space or path; the 400 names it', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Embedded', dataSourceId: ds.id } })).body;
    const bad = ['https://*', 'https://*.example.com', 'https://a.com;sandbox', 'https://a.com!$&()', "https://a.com'", 'https://a.com,https://b.com', 'https://a b.com', 'https://a.com:443', 'https://user@a.com', 'https://a.com/?x', 'https://bücher.example'];
    const res = await s.http('PUT', `/api/admin/dashboards/${d.id}/embedding`, { body: { origins: bad } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toHaveLength(bad.length);
    bad.forEach((origin, i) => {
      expect(res.body.error.fields[i].path).toBe(`origins.${i}`);
      expect(res.body.error.fields[i].message).toContain(`"${origin}"`);
    });
    expect(res.body.error.fields[0].message).toContain('wildcard');
    const ok = await s.http('PUT', `/api/admin/dashboards/${d.id}/embedding`, { body: { origins: ['https://xn--bcher-kva.example', 'http://[::1]:8080', 'http://localhost:3000/'] } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.origins).toEqual(['https://xn--bcher-kva.example', 'http://[::1]:8080', 'http://localhost:3000']);
  });

  it('leaves origins stored under the older, laxer rule out of the header', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Embedded', dataSourceId: ds.id, isPublished: true } })).body;
    await s.app.ctx.conn.collection('dashboardembeddings').insertOne({ dashboardId: d.id, origins: ['https://*', 'https://a.com;sandbox', 'https://b.com!$&()', 'https://good.example'] });
    const res = await fetch(`${s.url}/dashboards/${d.id}`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(/frame-ancestors [^;]*/.exec(csp)?.[0]).toBe("frame-ancestors 'self' https://good.example");
    expect(csp).not.toContain('sandbox');
  });

  it('builds the header from directives: replacement patterns in an origin stay literal', () => {
    const csp = "default-src 'self';frame-ancestors 'self';object-src 'none'";
    expect(withFrameAncestors(csp, ['https://a.example', 'https://$&$1.example'])).toBe("default-src 'self';object-src 'none';frame-ancestors 'self' https://a.example https://$&$1.example");
    expect(withFrameAncestors("default-src 'self'", ['https://a.example'])).toBe("default-src 'self';frame-ancestors 'self' https://a.example");
  });
});
