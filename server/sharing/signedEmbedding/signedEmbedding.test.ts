import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JoinAck, RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { CreatedEmbedSecretDto, EmbedViewResponse, EmbeddingDto } from '@common/schemas/sharing/embedding';
import { buildDashboard, buildPerson, buildSource } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/harness';
import { eventually } from '../../test/eventually';
import { signEmbed } from './test/embedTokens';
import { io as connect } from 'socket.io-client';
import { caughtUp, collect, join, next, nextWhere, openSocket, type TestSocket } from '../../test/sockets';
import { viewCacheOf } from '../../publicView/viewCache';
import { embedAccessOf } from './access';

/**
 * Signed embedding: a host signs a token per customer with the dashboard's secret; each token's
 * viewer gets only its rows — over REST, CSV and live pushes — through the same locked-view path as
 * a share link with locked filters. The secret is answered once, kept sealed, and its rotation ends
 * every earlier token at once.
 */
const METRICS_TOKEN = 'metrics-token-0123456789';
let s: TestServer;
let ds: { id: string; sourceId: string };
let dash: { id: string; name: string };
let secret: string;
const sockets: TestSocket[] = [];

const row = (id: number, tenant: string, amount = id * 10) => ({ id, tenant, amount, subject: `Order ${id} of ${tenant}` });
const RECORDS = [row(1, 'acme'), row(2, 'globex'), row(3, 'acme'), row(4, 'initech'), row(5, 'globex')];
const tenant = (name: string) => [{ field: 'tenant', operator: 'eq', value: name }];

beforeAll(async () => {
  s = await startTestServer({ METRICS_TOKEN });
});
afterAll(async () => {
  sockets.forEach((x) => x.disconnect());
  await s?.close();
});
beforeEach(async () => {
  await s.reset();
  ds = await buildSource(s, { primaryKey: 'id', records: RECORDS });
  // A draft: signed embedding opens it whether or not it is published.
  dash = await buildDashboard(s, { source: ds, name: 'Orders' });
  secret = (await makeSecret(dash.id)).secret;
});

async function makeSecret(dashboardId: string): Promise<CreatedEmbedSecretDto> {
  const res = await s.http('POST', `/api/admin/dashboards/${dashboardId}/embedding/secret`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const view = (token: string, path = '') => s.http<EmbedViewResponse & { error?: { code: string } }>('GET', `/api/embed/${token}${path}`, { token: null });
const ids = (records: { data: Record<string, unknown> }[]) => records.map((r) => Number(r.data.id)).sort((a, b) => a - b);
const csvIds = (text: string) => text.replace(/^\uFEFF/, '').split('\r\n').slice(1).filter(Boolean).map((line) => Number(line.split(',')[0])).sort((a, b) => a - b);
const embedJoin = (socket: TestSocket, token: string) => new Promise<JoinAck>((resolve) => socket.emit('embed:join', token, resolve));
async function viewer(token: string): Promise<TestSocket> {
  const socket = await openSocket(s.url);
  sockets.push(socket);
  expect(await embedJoin(socket, token)).toMatchObject({ ok: true });
  return socket;
}

describe('the embedding secret', () => {
  it('is answered once (32 random bytes, base64url), kept sealed, never shown again, and its rotation is logged without it', async () => {
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const status = await s.http<EmbeddingDto>('GET', `/api/admin/dashboards/${dash.id}/embedding`);
    expect(status.body).toMatchObject({ dashboardId: dash.id, origins: [], secret: { createdBy: 'Admin token', hint: secret.slice(0, 6), rotated: false, readable: true } });
    expect(Date.parse(status.body.secret!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(status.text).not.toContain(secret);
    // In the database only sealed: neither the text nor the bytes of the secret.
    const stored = JSON.stringify(await s.app.ctx.conn.collection('dashboardembeddings').find().toArray());
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(Buffer.from(secret, 'base64url').toString('hex'));

    // An editor rotates it: a new secret, said to be a rotation, by that person.
    const editor = await buildPerson(s, 'editor');
    const rotated = await editor.http('POST', `/api/admin/dashboards/${dash.id}/embedding/secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    expect(rotated.body.embedding.secret).toMatchObject({ rotated: true, hint: rotated.body.secret.slice(0, 6) });
    expect(rotated.body.embedding.secret.createdBy).not.toBe('Admin token');
    // A viewer may not; a dashboard that does not exist is a 404.
    expect((await (await buildPerson(s, 'viewer')).http('POST', `/api/admin/dashboards/${dash.id}/embedding/secret`)).status).toBe(403);
    expect((await s.http('POST', '/api/admin/dashboards/0123456789abcdef01234567/embedding/secret')).status).toBe(404);

    const log = await eventually(async () => {
      const res = await s.http('GET', `/api/admin/activity?objectId=${dash.id}`);
      const kinds = (res.body as { kind: string }[]).map((e) => e.kind);
      return kinds.includes('dashboard.embedSecretRotated') && kinds.includes('dashboard.embedSecretCreated') ? res : null;
    });
    const entries = log.body as { kind: string; summary: string; actor: string }[];
    expect(entries.find((e) => e.kind === 'dashboard.embedSecretCreated')!.summary).toBe('Created the embedding secret of dashboard "Orders"');
    expect(entries.find((e) => e.kind === 'dashboard.embedSecretRotated')!.summary).toBe('Rotated the embedding secret of dashboard "Orders"');
    for (const text of [secret, rotated.body.secret, secret.slice(0, 20)]) expect(log.text).not.toContain(text);
  });

  it('rotated, ends every earlier token at once: its views answer 401, its open sockets are told and closed; a new token works', async () => {
    const token = await signEmbed(secret, { dashboard: dash.id, filters: tenant('acme') });
    expect((await view(token)).status).toBe(200);
    const socket = await viewer(token);
    const removed = nextWhere(socket, 'dashboard:removed', (e) => e.dashboardId === dash.id, 5_000);
    const ended = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const fresh = (await makeSecret(dash.id)).secret;
    const old = await view(token);
    expect([old.status, old.body.error?.code]).toEqual([401, 'embed_token_invalid']);
    await removed;
    expect(await ended).toBe('io server disconnect');
    const next = await signEmbed(fresh, { dashboard: dash.id, filters: tenant('acme') });
    expect(ids((await view(next)).body.records)).toEqual([1, 3]);
    expect((await view(token)).status).toBe(401);
  });

  it('goes with its dashboard: a deleted dashboard\'s tokens answer 401 and its embedded viewers end', async () => {
    const token = await signEmbed(secret, { dashboard: dash.id });
    const socket = await viewer(token);
    const ended = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect((await s.http('DELETE', `/api/admin/dashboards/${dash.id}`)).status).toBe(200);
    expect(await ended).toBe('io server disconnect');
    await eventually(async () => expect((await view(token)).status).toBe(401));
    expect(await s.app.ctx.conn.collection('dashboardembeddings').countDocuments({ dashboardId: dash.id })).toBe(0);
  });
});

describe('two tenants on one dashboard', () => {
  it('each view holds only its token\'s rows (what every widget, count and filter value is drawn from), whatever the URL adds; a token locking nothing sees all', async () => {
    const acme = await signEmbed(secret, { dashboard: dash.id, filters: tenant('acme'), sub: 'user-1', theme: 'dark', tab: 'tab-2' });
    const globex = await signEmbed(secret, { dashboard: dash.id, filters: [{ field: 'tenant', operator: 'in', values: ['globex'] }] });
    const a = await view(acme);
    expect(a.status, a.text).toBe(200);
    expect(ids(a.body.records)).toEqual([1, 3]);
    expect(a.body.dashboard.id).toBe(dash.id);
    expect(a.body.embed).toMatchObject({ allowCsv: false, filters: tenant('acme'), theme: 'dark', tab: 'tab-2' });
    expect(Date.parse(a.body.embed.expiresAt)).toBeGreaterThan(Date.now());
    expect(a.headers.get('cache-control')).toBe('no-cache, private');
    expect(a.headers.get('referrer-policy')).toBe('no-referrer');
    expect(a.text).not.toMatch(/globex|initech/);
    expect(ids((await view(globex)).body.records)).toEqual([2, 5]);
    // The query string widens nothing.
    for (const path of ['?filters=[]', '?tenant=globex&all=1', '?f.tenant=globex']) expect(ids((await view(acme, path)).body.records), path).toEqual([1, 3]);
    const whole = await signEmbed(secret, { dashboard: dash.id });
    expect(ids((await view(whole)).body.records)).toEqual([1, 2, 3, 4, 5]);
    // The draft itself stays closed to the public.
    expect((await s.http('GET', `/api/dashboards/${dash.id}`, { token: null })).status).toBe(404);
  });

  it('exports CSV of only its rows when allowCsv is true, else 403', async () => {
    const acme = await signEmbed(secret, { dashboard: dash.id, filters: tenant('acme'), allowCsv: true });
    const csv = await s.http('GET', `/api/embed/${acme}/export`, { token: null });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csvIds(csv.text)).toEqual([1, 3]);
    expect(csv.text).not.toMatch(/globex|initech/);
    const crafted = await s.http('GET', `/api/embed/${acme}/export?filters=none&all=true`, { token: null });
    expect(csvIds(crafted.text)).toEqual([1, 3]);
    expect((await s.http('GET', `/api/embed/${acme}/export?tab=nope`, { token: null })).status).toBe(404);
    const noCsv = await signEmbed(secret, { dashboard: dash.id, filters: tenant('globex') });
    const refused = await s.http('GET', `/api/embed/${noCsv}/export`, { token: null });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'embed_csv_forbidden']);
  });

  it('is served from memory and kept current: a second view reads nothing, a change in or out of a tenant shows at once', async () => {
    const acme = await signEmbed(secret, { dashboard: dash.id, filters: tenant('acme') });
    expect(ids((await view(acme)).body.records)).toEqual([1, 3]);
    const cache = viewCacheOf(s.app.ctx);
    const [builds, loads] = [cache.stats.sourceBuilds, embedAccessOf(s.app.ctx).secretLoads];
    for (let i = 0; i < 5; i++) expect((await view(acme)).status).toBe(200);
    expect([cache.stats.sourceBuilds, embedAccessOf(s.app.ctx).secretLoads]).toEqual([builds, loads]);
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [row(6, 'acme'), row(3, 'globex')] } });
    expect(ids((await view(acme)).body.records)).toEqual([1, 6]);
  });

  it('pushes each open viewer only its rows, at once for both: nothing of the other tenant, not even an id', async () => {
    const acmeToken = await signEmbed(secret, { dashboard: dash.id, filters: tenant('acme') });
    const globexToken = await signEmbed(secret, { dashboard: dash.id, filters: tenant('globex') });
    const acme = await viewer(acmeToken);
    const globex = await viewer(globexToken);
    // Crafted: the draft's id, the source's admin room — refused.
    expect((await join(acme, 'dashboard:join', dash.id)).ok).toBe(false);
    expect((await join(acme, 'datasource:join', ds.id)).ok).toBe(false);
    const got = { acme: collect(acme, 'records:upserted'), globex: collect(globex, 'records:upserted') };
    const gone = { acme: collect(acme, 'records:removed'), globex: collect(globex, 'records:removed') };
    const before = (await view(acmeToken)).body.revision;

    const acmeNext = nextWhere(acme, 'records:upserted', (e) => e.revision > before);
    const globexNext = nextWhere(globex, 'records:upserted', (e) => e.revision > before);
    const acmeLeft = nextWhere(acme, 'records:removed', (e) => e.revision > before);
    // One batch: a new acme row, a new globex row, acme 3 moving to globex.
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [row(6, 'acme'), row(7, 'globex'), row(3, 'globex')] } });
    const [a, g, left] = (await Promise.all([acmeNext, globexNext, acmeLeft])) as [RecordsUpserted, RecordsUpserted, RecordsRemoved];
    expect(ids(a.records)).toEqual([6]);
    expect(a.total).toBe(2);
    expect(left.recordIds).toEqual(['3']);
    expect(ids(g.records)).toEqual([3, 7]);
    expect(g.total).toBe(4);
    // A removal of a globex row tells acme's viewer nothing of it (an empty part keeps its revision moving).
    const acmeEmpty = nextWhere(acme, 'records:removed', (e) => e.revision === a.revision + 1);
    const globexGone = nextWhere(globex, 'records:removed', (e) => e.revision === a.revision + 1);
    await s.http('DELETE', `/api/data/sources/${ds.sourceId}/records/2`);
    expect(((await acmeEmpty) as RecordsRemoved).recordIds).toEqual([]);
    expect(((await globexGone) as RecordsRemoved).recordIds).toEqual(['2']);
    await Promise.all([caughtUp(acme), caughtUp(globex)]);

    const acmeSaw = JSON.stringify([got.acme.items, gone.acme.items]);
    for (const text of ['globex', 'initech', '"7"', '"2"', '"5"']) expect(acmeSaw, text).not.toContain(text);
    const globexSaw = JSON.stringify([got.globex.items, gone.globex.items]);
    for (const text of ['acme', 'initech', '"6"', '"1"']) expect(globexSaw, text).not.toContain(text);
  });

  it('ends a socket at its token\'s exp, telling the viewer first', async () => {
    const token = await signEmbed(secret, { dashboard: dash.id, filters: tenant('acme'), exp: Math.floor(Date.now() / 1000) + 2 });
    const socket = await viewer(token);
    const removed = nextWhere(socket, 'dashboard:removed', (e) => e.dashboardId === dash.id, 10_000);
    const ended = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await removed;
    expect(await ended).toBe('io server disconnect');
  });

  it('counts views and refusals in /metrics by kind and reason, with no ids in the labels', async () => {
    const token = await signEmbed(secret, { dashboard: dash.id, filters: tenant('acme'), allowCsv: true });
    await view(token);
    await s.http('GET', `/api/embed/${token}/export`, { token: null });
    expect((await view(`${token}x`)).status).toBe(401);
    const text = await (await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const lines = text.split('\n').filter((l) => l.startsWith('livedash_embed_'));
    const value = (series: string) => Number(lines.find((l) => l.startsWith(`${series} `))?.split(' ')[1]);
    expect(value('livedash_embed_views_total{kind="view"}')).toBeGreaterThanOrEqual(1);
    expect(value('livedash_embed_views_total{kind="export"}')).toBeGreaterThanOrEqual(1);
    expect(value('livedash_embed_refusals_total{reason="signature"}')).toBeGreaterThanOrEqual(1);
    for (const l of lines) expect(l).not.toMatch(/[0-9a-f]{24}|eyJ/);
  });
});

describe('a viewer whose connection drops', () => {
  /** A viewer that reconnects by itself, as the web app's socket does (within the server's recovery window). */
  async function reconnecting(token: string): Promise<TestSocket> {
    const socket: TestSocket = connect(s.url, { transports: ['websocket'], forceNew: true, reconnectionDelay: 100, reconnectionDelayMax: 300 });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const joined = next(socket, 'view:joined');
    expect(await embedJoin(socket, token)).toMatchObject({ ok: true });
    await joined;
    return socket;
  }
  /** Drops the connection (not a disconnect on purpose), runs `meanwhile`, and lets it reconnect. */
  async function dropWhile(socket: TestSocket, meanwhile: () => Promise<unknown>) {
    socket.io.reconnection(false);
    const down = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    socket.io.engine.close();
    await down;
    await meanwhile();
    const back = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.io.reconnection(true);
    socket.connect();
    await back;
  }
  const roomsOf = (socket: TestSocket) => [...(s.app.realtime.io.of('/').sockets.get(socket.id!)?.rooms ?? [])];

  it('is recovered with its rooms and the rows it missed, its own only', async () => {
    const socket = await reconnecting(await signEmbed(secret, { dashboard: dash.id, filters: tenant('acme') }));
    const missed = collect(socket, 'records:upserted');
    await dropWhile(socket, () => s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [row(8, 'acme'), row(9, 'globex')] } }));
    expect(socket.recovered).toBe(true);
    await eventually(() => expect(missed.items.flatMap((e) => ids(e.records))).toEqual([8]));
    expect(roomsOf(socket).filter((r) => r.startsWith('embed'))).toHaveLength(2);
  });

  it('rotated while it was away, is told the dashboard is gone and gets none of its rooms back', async () => {
    const socket = await reconnecting(await signEmbed(secret, { dashboard: dash.id, filters: tenant('acme') }));
    const told = nextWhere(socket, 'dashboard:removed', (e) => e.dashboardId === dash.id, 5_000);
    await dropWhile(socket, () => makeSecret(dash.id));
    await told;
    expect(roomsOf(socket).filter((r) => r.startsWith('embed') || r.startsWith('source'))).toEqual([]);
  });
});
