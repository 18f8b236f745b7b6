import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IntegrationDto } from '@common/schemas/integration';
import { capturedLog, startTestServer, type TestServer } from '../../../test/harness';
import { createPull, runs, syncAndWait } from '../../test/pullKit';
import { makeItems, startUpstream, type Upstream } from './upstream';

/** The HTTP API provider's sign-ins, Test connection, config checks, and secrets that never leave the server. */

const MASK = '••••••••';
const TOKEN = 'tok-bearer-5f0c1e9a7d';
const PASSWORD = 'pa55-w0rd-b4sic-77';
const KEY = 'k3y-h3ad3r-2a9b8c';
const CLIENT_SECRET = 'cl13nt-s3cr3t-9x8y7z';
const QUERY_KEY = 'qu3ry-k3y-11aa22';
const SECRETS = [TOKEN, PASSWORD, KEY, CLIENT_SECRET, QUERY_KEY, Buffer.from(`reader:${PASSWORD}`).toString('base64')];

let s: TestServer;
let up: Upstream;
let deadPort: number;
const { log, lines: logged } = capturedLog();

/** A port nothing listens on (listed, so only the connection fails). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

beforeAll(async () => {
  up = await startUpstream({ items: 12, per: 10 });
  deadPort = await closedPort();
  s = await startTestServer({ OUTBOUND_ALLOWED_HOSTS: `${up.hostPort},127.0.0.1:${deadPort}`, ZENDESK_SCHEDULER_TICK_MS: '0', LOG_LEVEL: 'debug' }, log);
});
afterAll(async () => Promise.all([s?.close(), up?.close()]));
beforeEach(async () => {
  await s.reset();
  up.items = makeItems(12);
  up.auth = null;
  up.tokens.length = 0;
  up.echoRefused = false;
});

const all = (more: Record<string, unknown> = {}) => ({ url: `${up.url}/v1/all`, primaryKey: 'id', ...more });
const put = (id: string, config: unknown) => s.http<IntegrationDto>('PUT', `/api/integrations/${id}/config`, { body: config });
const test = (id: string) => s.http('POST', `/api/integrations/${id}/test`);
const expectNoSecret = (text: string) => {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

describe('HTTP API integration: sign-in and secrets', () => {
  it('bearer, basic and header auth are sent; a refused one fails the run with the status and where', async () => {
    const cases: [Upstream['auth'], Record<string, unknown>][] = [
      [{ header: 'authorization', value: `Bearer ${TOKEN}` }, { type: 'bearer', token: TOKEN }],
      [{ header: 'authorization', value: `Basic ${Buffer.from(`reader:${PASSWORD}`).toString('base64')}` }, { type: 'basic', username: 'reader', password: PASSWORD }],
      [{ header: 'x-api-key', value: KEY }, { type: 'header', name: 'X-Api-Key', value: KEY }],
    ];
    for (const [required, auth] of cases) {
      up.auth = required;
      const ok = await createPull(s, 'api', all({ auth }), `With ${String(auth.type)}`);
      expect(await syncAndWait(s, ok.id), String(auth.type)).toMatchObject({ status: 'succeeded', records: 12 });
      const none = await createPull(s, 'api', all(), `Without ${String(auth.type)}`);
      const refused = await syncAndWait(s, none.id);
      expect(refused).toMatchObject({ status: 'failed', error: `page 1: HTTP 401 from ${up.hostPort}/v1/all: unauthorized` });
    }
  });

  it('oauth2 client credentials: one token while it lasts, fetched again when the API refuses it; a wrong secret is said plainly', async () => {
    up.auth = { oauth: { clientId: 'livedash', clientSecret: CLIENT_SECRET, lifetimeS: 3600 } };
    const it = await createPull(s, 'api', all({ auth: { type: 'oauth2', tokenUrl: `${up.url}/oauth/token`, clientId: 'livedash', clientSecret: CLIENT_SECRET, scope: 'read' } }));
    expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded', records: 12 });
    expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded' });
    expect(up.tokens).toHaveLength(1);
    expect(up.tokens[0].via).toBe('basic');
    expect(new URLSearchParams(up.requests.find((r) => r.path === '/oauth/token')!.body).get('scope')).toBe('read');

    up.tokens[0].valid = false; // revoked or expired early: the API answers 401
    expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded', records: 12 });
    expect(up.tokens).toHaveLength(2);

    const wrong = await createPull(s, 'api', all({ auth: { type: 'oauth2', tokenUrl: `${up.url}/oauth/token`, clientId: 'livedash', clientSecret: 'not-the-secret' } }), 'Wrong');
    const res = await test(wrong.id);
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({ code: 'upstream_failed', message: `the token URL ${up.hostPort}/oauth/token answered HTTP 401 (invalid_client): check the client ID and secret` });
  });

  it('Test connection answers the fields and at most 5 records of the first page, storing nothing — or 422 in words a person can act on', async () => {
    const it = await createPull(s, 'api', { url: `${up.url}/v1/next-url`, recordsPath: 'data.items', pagination: { type: 'next-url', path: 'links.next' } });
    const ok = await test(it.id);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ ok: true, fields: ['id', 'name', 'amount', 'updated_at'], sample: up.items.slice(0, 5), records: 10 });
    expect(up.requests.filter((r) => r.path === '/v1/next-url')).toHaveLength(1);
    const after = (await s.http<IntegrationDto>('GET', `/api/integrations/${it.id}`)).body;
    expect(after).toMatchObject({ dataSourceId: null, lastRun: null });
    expect(await runs(s, it.id)).toEqual([]);

    up.auth = { header: 'authorization', value: 'Bearer right' };
    const cases: [Record<string, unknown>, string][] = [
      [all({ auth: { type: 'bearer', token: TOKEN } }), `HTTP 401 from ${up.hostPort}/v1/all: unauthorized`],
      [{ url: `${up.url}/v1/not-array`, recordsPath: 'data.items', auth: { type: 'bearer', token: 'right' } }, `recordsPath data.items is not an array in the answer from ${up.hostPort}/v1/not-array (found an object)`],
      [{ url: `${up.url}/v1/next-url`, auth: { type: 'bearer', token: 'right' } }, `the answer from ${up.hostPort}/v1/next-url is an object, not an array of records: set recordsPath to where they are (its keys: data, links)`],
      [{ url: `http://127.0.0.1:${deadPort}/v1/all` }, `could not reach 127.0.0.1:${deadPort}/v1/all: could not connect (connection refused)`],
    ];
    for (const [config, message] of cases) {
      const bad = await createPull(s, 'api', config, 'Bad');
      const res = await test(bad.id);
      expect(res.status, message).toBe(422);
      expect(res.body.error).toEqual({ code: 'upstream_failed', message });
    }
    up.fail('all', 1, 'not-json');
    const html = await test((await createPull(s, 'api', all({ auth: { type: 'bearer', token: 'right' } }), 'Html')).id);
    expect(html.body.error.message).toBe(`the answer from ${up.hostPort}/v1/all is not JSON (text/html, it begins "<!doctype html><title>Maintenance</title>")`);

    // The console's form tests before Create, and an edit before Save: nothing is stored either way.
    const count = async () => (await s.http('GET', '/api/integrations')).body.length;
    const before = await count();
    const unsaved = await s.http('POST', '/api/integrations/test', { body: { type: 'api', config: all({ auth: { type: 'bearer', token: 'right' } }) } });
    expect(unsaved.status, unsaved.text).toBe(200);
    expect(unsaved.body).toMatchObject({ ok: true, records: 12 });
    const unsavedBad = await s.http('POST', '/api/integrations/test', { body: { type: 'api', config: { url: 'https://10.0.0.1/x' } } });
    expect(unsavedBad.status).toBe(400);
    expect(unsavedBad.body.error.fields[0].path).toBe('config.url');
    expect(await count()).toBe(before);
    const stored = await createPull(s, 'api', all({ auth: { type: 'bearer', token: 'right' } }), 'Edited');
    const edit = await s.http('POST', `/api/integrations/${stored.id}/test`, { body: { config: { ...stored.connection, url: `${up.url}/v1/next-url`, recordsPath: 'data.items' } } });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.records).toBe(10);
    expect((await s.http<IntegrationDto>('GET', `/api/integrations/${stored.id}`)).body.connection).toEqual(stored.connection);
  });

  it('a config is checked when saved: a 400 names the field, addresses outside the allow-list are refused', async () => {
    const create = (type: string, config?: unknown) => s.http('POST', '/api/integrations', { body: { name: 'X', type, ...(config === undefined ? {} : { config }) } });
    const cases: [string, unknown, string, RegExp][] = [
      ['api', undefined, 'config', /is required/],
      ['api', { url: 'not a url' }, 'config.url', /must be a full address/],
      ['api', all({ pagination: { type: 'pages' } }), 'config.pagination.type', /next-url, link-header, cursor, page or offset/],
      ['api', all({ auth: { type: 'bearer' } }), 'config.auth.token', /token is required/],
      ['api', all({ method: 'GET', body: { q: 1 } }), 'config.body', /only with method POST/],
      ['api', { url: 'http://example.com/v1/items' }, 'config.url', /must use https:\/\/ \(plain http only to an allowed host:port\): allow example.com:80 under Settings › Outbound hosts/],
      ['api', { url: 'https://10.1.2.3/v1/items' }, 'config.url', /loopback, private, link-local or otherwise non-public address \(10\.1\.2\.3: private\), refused unless allowed: allow 10\.1\.2\.3:443 under Settings › Outbound hosts/],
      ['api', all({ auth: { type: 'oauth2', tokenUrl: 'http://127.0.0.1:1/token', clientId: 'a', clientSecret: 'b' } }), 'config.auth.tokenUrl', /token URL must use https/],
      ['api', all({ extra: true }), 'config', /Unrecognized key/i],
    ];
    for (const [type, config, path, message] of cases) {
      const res = await create(type, config);
      expect(res.status, `${path} ${res.text}`).toBe(400);
      expect(res.body.error.fields?.[0]?.path, res.text).toBe(path);
      expect(res.body.error.message).toMatch(message);
    }
    const soon = await create('salesforce', {});
    expect(soon.status).toBe(400);
    expect(soon.body.error.code).toBe('not_available');
    expect((await create('zendesk', all())).status).toBe(400);
    expect((await s.http('GET', '/api/integrations')).body).toEqual([]);
  });

  it('secrets are masked in every answer and log line, kept by a PUT that leaves them out, and never carried to another host', async () => {
    up.auth = { header: 'x-api-key', value: KEY };
    const config = all({
      url: `${up.url}/v1/all?api_key=${QUERY_KEY}&kind=open`,
      headers: { Accept: 'application/json', 'X-Api-Key': KEY },
      auth: { type: 'basic', username: 'reader', password: PASSWORD },
    });
    const created = await createPull(s, 'api', config);
    expect(created.connection).toMatchObject({
      url: `${up.url}/v1/all?api_key=${MASK}&kind=open`,
      headers: { Accept: 'application/json', 'X-Api-Key': MASK },
      auth: { type: 'basic', username: 'reader', password: MASK },
    });
    expect(created.hasCredentials).toBe(true);
    expect(await syncAndWait(s, created.id)).toMatchObject({ status: 'succeeded', records: 12 });
    expect(up.requests.at(-1)!.query.get('api_key')).toBe(QUERY_KEY);

    // The form sends the masks back (or leaves a secret out): the stored values stay.
    const masked = created.connection!;
    const same = await put(created.id, { ...masked, auth: { type: 'basic', username: 'reader' }, maxPages: 5 });
    expect(same.status, same.text).toBe(200);
    expect(same.body.connection).toMatchObject({ maxPages: 5, auth: { password: MASK }, headers: { 'X-Api-Key': MASK } });
    expect(await syncAndWait(s, created.id)).toMatchObject({ status: 'succeeded' });
    expect(up.requests.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from(`reader:${PASSWORD}`).toString('base64')}`);
    expect(up.requests.at(-1)!.headers['x-api-key']).toBe(KEY);

    // Another host: the stored secrets are not sent there unless typed again.
    const moved: { status: number; body: any; text: string } = await put(created.id, { ...masked, url: `https://api.example.com/v1/all?api_key=${MASK}` });
    expect(moved.status).toBe(400);
    expect(moved.body.error.fields[0].path).toBe('config.auth.password');
    expect(moved.body.error.message).toContain('enter it again');

    // An API that echoes the credentials it refused: the error keeps none of them.
    up.auth = { header: 'x-api-key', value: 'another' };
    up.echoRefused = true;
    const refused = await syncAndWait(s, created.id);
    expect(refused.status).toBe('failed');
    expect(refused.error).toContain('HTTP 401');
    expect(refused.error).toContain(MASK);
    const tested = await test(created.id);
    expect(tested.status).toBe(422);

    const answers = [
      refused.error!, tested.text, same.text, moved.text,
      ...(await Promise.all([
        '/api/integrations', `/api/integrations/${created.id}`, `/api/integrations/${created.id}/runs`,
        `/api/integrations/${created.id}/sync-status`, '/api/data/sources', '/api/admin/activity?limit=100',
      ].map(async (p) => (await s.http('GET', p)).text))),
    ];
    for (const text of answers) expectNoSecret(text);
    expect(logged.some((l) => l.includes('integrations:'))).toBe(true);
    for (const line of logged) expectNoSecret(line);

    const del = await s.http('DELETE', `/api/integrations/${created.id}`);
    expect(del.status).toBe(200);
    expect(await s.app.ctx.conn.collection('integration_runs').countDocuments({})).toBe(0);
    expect((await s.http('GET', `/api/data/raw?dataSourceId=INT_${created.id}`)).status).toBe(404);
  });
});
