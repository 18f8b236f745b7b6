import zlib from 'node:zlib';
import { Types } from 'mongoose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DataSourceDoc } from '../../core/models';
import { closeChange, openChange } from '../../core/models/ingestJournal';
import { loadPublishedDashboard, publicDashboardView } from '../../dashboards/dashboards';
import { removeRecords } from '../../records/writer/removeRecords';
import { buildDashboard, buildSource } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/harness';
import { VIEW_EVENTS, ViewCache, viewCacheOf, type ViewEvent } from './index';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

/** A small deterministic generator, so a failing sequence can be replayed. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

/**
 * Reads of what a public view is built from (dashboards, data sources, records) while fn runs.
 * Writes are left out: background work of earlier requests (the activity log's batched flush, view
 * counters) may land in the window, and a view served from the database always reads. Other
 * collections are left out too: the alerts engine and the Zendesk scheduler poll theirs on timers
 * of their own (seen landing in the window on a loaded CI machine).
 */
const READS = new Set(['find', 'findOne', 'aggregate', 'countDocuments', 'estimatedDocumentCount', 'distinct']);
const VIEW_COLLECTIONS = new Set(['dashboards', 'datasources', 'records']);
async function databaseCalls(fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  s.app.ctx.conn.set('debug', (collection: string, method: string) => void (READS.has(method) && VIEW_COLLECTIONS.has(collection) && n++));
  try {
    await fn();
  } finally {
    s.app.ctx.conn.set('debug', false);
  }
  return n;
}

/** What a fresh database read says the public view is (or 404). */
async function fromDatabase(dashboardId: string): Promise<unknown> {
  try {
    const { dashboard, dataSource } = await loadPublishedDashboard(s.app.ctx, dashboardId);
    return JSON.parse(JSON.stringify(await publicDashboardView(s.app.ctx, dashboard, dataSource)));
  } catch {
    return 404;
  }
}

async function served(dashboardId: string): Promise<unknown> {
  const res = await s.http('GET', `/api/dashboards/${dashboardId}`, { token: null });
  return res.status === 200 ? res.body : res.status;
}

const sourceDoc = async (id: string) => (await s.app.ctx.models.DataSource.findById(id).lean<DataSourceDoc>())!;

async function setup() {
  // buildSource settles the field types before the dashboards exist: views are compared (and
  // database calls counted) at rest.
  const a = await buildSource(s, { name: 'Tickets', records: [{ id: 1, status: 'open' }, { id: 2, status: 'done' }] });
  const b = await buildSource(s, { name: 'Orders', records: [{ no: 'x', total: 3 }] });
  const d1 = await buildDashboard(s, { source: a, name: 'One', published: true });
  const d2 = await buildDashboard(s, { source: a, name: 'Two', published: true });
  const d3 = await buildDashboard(s, { source: b, name: 'Three', published: true });
  return { sources: [a, b], dashboards: [d1.id, d2.id, d3.id] as string[] };
}

describe('public view cache', () => {
  it('equals a fresh database read after random interleaved writes and reads', async () => {
    const { sources, dashboards } = await setup();
    const rand = rng(20261123);
    const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
    const key = () => (pick(sources) === sources[0] ? { id: Math.floor(rand() * 12) } : { no: pick(['x', 'y', 'z', 'w']) });
    const write = async (step: number) => {
      const r = rand();
      const ds = pick(sources);
      if (r < 0.45) {
        const records = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => ({ ...(ds === sources[0] ? { id: Math.floor(rand() * 12) } : { no: pick(['x', 'y', 'z', 'w']) }), step, 'a.b': rand() > 0.5 ? 'dot' : null }));
        await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records } });
      } else if (r < 0.6) {
        const doc = await sourceDoc(ds.id);
        const k = key();
        await removeRecords(s.app.ctx, doc, [String(Object.values(k)[0]), String(Math.floor(rand() * 12))]);
      } else if (r < 0.8) {
        const body = pick([
          { name: `Renamed ${step}` },
          { isPublished: rand() > 0.3 },
          { dataSourceId: pick(sources).id },
          { configuration: { keyMappings: { status: `Status ${step}` }, tabs: [{ id: 't', name: `Tab ${step}`, style: 'table' }] } },
        ]);
        await s.http('PATCH', `/api/admin/dashboards/${pick(dashboards)}`, { body });
      } else {
        await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: pick([{ name: `Source ${step}` }, { keyMappings: { id: `Key ${step}` } }]) });
      }
    };
    for (let step = 0; step < 60; step++) {
      // Reads race the writes, so some views are built while events are arriving.
      const racing = dashboards.map((id) => served(id));
      await Promise.all([write(step), ...racing]);
      if (step % 2 === 1) await Promise.all([write(step + 1000), served(pick(dashboards))]);
      await s.app.fieldTypes.settle();
      for (const id of dashboards) expect(await served(id), `dashboard ${id} after step ${step}`).toEqual(await fromDatabase(id));
    }
    expect(viewCacheOf(s.app.ctx).stats.sourceBuilds).toBeGreaterThan(0);
  });

  it('answers GET and 304 without touching the database once a view is known', async () => {
    const { dashboards } = await setup();
    const first = await s.http('GET', `/api/dashboards/${dashboards[0]}`, { token: null });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    const calls = await databaseCalls(async () => {
      for (let i = 0; i < 5; i++) {
        expect((await s.http('GET', `/api/dashboards/${dashboards[0]}`, { token: null })).body).toEqual(first.body);
        expect((await s.http('GET', `/api/dashboards/${dashboards[0]}`, { token: null, headers: { 'if-none-match': etag } })).status).toBe(304);
      }
    });
    expect(calls).toBe(0);
    // A counting probe that can fail: an uncached view does reach the database.
    viewCacheOf(s.app.ctx).clear();
    expect(await databaseCalls(() => s.http('GET', `/api/dashboards/${dashboards[0]}`, { token: null }))).toBeGreaterThan(0);
  });

  it('keeps a view current from the ingest events alone', async () => {
    const { sources, dashboards } = await setup();
    await served(dashboards[0]);
    await s.http('POST', '/api/data/ingest', { body: { sourceId: sources[0].sourceId, records: [{ id: 9, status: 'new' }] } });
    const calls = await databaseCalls(async () => {
      const view = (await served(dashboards[0])) as { records: { recordId: string }[]; revision: number };
      expect(view.records.map((r) => r.recordId)).toEqual(['1', '2', '9']);
    });
    expect(calls).toBe(0);
  });

  it('sends br or gzip as the client accepts, with the same bytes once decompressed', async () => {
    const { sources, dashboards } = await setup();
    await s.http('POST', '/api/data/ingest', { body: { sourceId: sources[0].sourceId, records: Array.from({ length: 50 }, (_, i) => ({ id: 100 + i, text: 'lorem ipsum '.repeat(5) })) } });
    await s.app.fieldTypes.settle();
    const url = `${s.url}/api/dashboards/${dashboards[0]}`;
    const raw = (encoding: string) => fetch(url, { headers: { 'accept-encoding': encoding } }).then(async (r) => ({ r, bytes: Buffer.from(await r.arrayBuffer()) }));
    // fetch decompresses by itself; node:http does not, so ask with it for the raw bytes.
    const plain = await rawGet(url, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await rawGet(url, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    const br = await rawGet(url, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect((await raw('gzip')).r.status).toBe(200);
  });

  it('drops least recently viewed sources beyond its memory budget and still answers right', async () => {
    const { dashboards } = await setup();
    const small = new ViewCache(s.app.ctx, 2_500);
    const offs = VIEW_EVENTS.map((name) => s.app.ctx.events.on(name, (payload) => small.apply({ name, payload } as ViewEvent)));
    try {
      const text = async (id: string) => JSON.parse((await small.view(id)).body.toString('utf8'));
      for (const id of [dashboards[0], dashboards[2], dashboards[0], dashboards[2]]) expect(await text(id)).toEqual(await fromDatabase(id));
      expect(small.stats.evictions).toBeGreaterThan(0);
      expect(small.bytes()).toBeLessThanOrEqual(2_500);
    } finally {
      offs.forEach((off) => off());
    }
  });
});

function rawGet(url: string, acceptEncoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return import('node:http').then(
    (http) =>
      new Promise((resolve, reject) => {
        http.get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        }).on('error', reject);
      }),
  );
}

describe('a read during a change of the records', () => {
  it('claims only the settled revision, from the cache, a fresh build, the database path and the raw data', async () => {
    const ds = await buildSource(s, { name: 'Busy', records: [{ id: 1 }] });
    const d = await buildDashboard(s, { source: ds, name: 'Busy', published: true });
    const revisionSeen = async () => ((await s.http('GET', `/api/dashboards/${d.id}`, { token: null })).body as { revision: number }).revision;
    const raw = async () => ((await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}`)).body as { revision: number }).revision;
    expect(await revisionSeen()).toBe(1);

    // A change opens (revision 2 taken, its records not written yet), as an ingest does before its first write.
    const change = (await openChange(s.app.ctx.models, new Types.ObjectId(ds.id)))!;
    expect(change.revision).toBe(2);
    const cache = viewCacheOf(s.app.ctx);
    expect(await revisionSeen()).toBe(1);
    cache.clear();
    expect(await revisionSeen()).toBe(1);
    cache.setEnabled(false);
    try {
      expect(await revisionSeen()).toBe(1);
      expect(await raw()).toBe(1);
      await closeChange(s.app.ctx.models, new Types.ObjectId(ds.id), change, { added: 0 });
      expect(await revisionSeen()).toBe(2);
      expect(await raw()).toBe(2);
    } finally {
      cache.setEnabled(true);
    }
  });
});
