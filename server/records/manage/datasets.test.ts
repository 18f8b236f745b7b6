import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IngestResult } from '@common/schemas/records/ingest';
import { startTestServer, type TestServer } from '../../test/harness';

/** Public datasets nobody here wrote (vega-datasets): real duplicates, nulls, numbers as titles. */
const require = createRequire(import.meta.url);
// The package exports its loader only; its data files sit next to its entry point's folder.
const dataDir = path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data');
const dataFile = (name: string) => path.join(dataDir, name);
const movies = JSON.parse(fs.readFileSync(dataFile('movies.json'), 'utf8')) as Record<string, unknown>[];
const cars = JSON.parse(fs.readFileSync(dataFile('cars.json'), 'utf8')) as Record<string, unknown>[];
const stocksCsv = fs.readFileSync(dataFile('stocks.csv'), 'utf8');

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

// A retention above any engine's append-only default; the movies also land under the default itself.
const newSource = async (name: string, body: Record<string, unknown> = { retention: { maxRecords: 10_000 } }) =>
  (await s.http('POST', '/api/admin/data-sources', { body: { name, ...body } })).body as { id: string; sourceId: string; ingestKey: string };
const count = async (id: string) => (await s.http('GET', `/api/data/raw?dataSourceId=${id}&limit=1`)).body.total as number;

describe('datasets we did not write, through a source URL', () => {
  it('keeps all 3,201 movies (24 duplicate titles) in an append-only source with the default retention', async () => {
    expect(movies).toHaveLength(3201);
    // No retention of its own: the append-only default (5,000 on the offline engine too) keeps a typical file whole.
    const ds = await newSource('Movies', {});
    const res = await s.http<IngestResult>('POST', `/api/data/sources/${ds.sourceId}/records`, { body: movies, token: ds.ingestKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 3201, inserted: 3201, updated: 0, rejected: 0, warnings: [] });
    expect(await count(ds.id)).toBe(3201);
    const listed = (await s.http('GET', '/api/data/sources')).body.find((d: { id: string }) => d.id === ds.id);
    expect(listed).toMatchObject({ appendOnly: true, recordCount: 3201 });
  }, 120_000);

  it('names every duplicate title with ?primaryKey=Title, and rejects the movies without one', async () => {
    const ds = await newSource('Movies by title');
    const res = await s.http<IngestResult>('POST', `/api/data/sources/${ds.sourceId}/records?primaryKey=Title`, { body: movies, token: ds.ingestKey });
    expect(res.status).toBe(200);
    // What the data itself says: titles seen more than once, and movies with no title.
    const keyed = movies.filter((m) => m.Title !== null && m.Title !== undefined && m.Title !== '');
    const distinct = new Set(keyed.map((m) => String(m.Title)));
    expect(keyed.length - distinct.size).toBeGreaterThanOrEqual(24);
    expect(res.body.inserted).toBe(distinct.size);
    expect(res.body.updated).toBe(keyed.length - distinct.size);
    expect(res.body.warnings).toHaveLength(keyed.length - distinct.size);
    expect(res.body.rejected).toBe(movies.length - keyed.length);
    for (const w of res.body.warnings) {
      const later = Number(/#(\d+)$/.exec(w.message)![1]);
      expect(String(movies[w.index].Title)).toBe(w.key);
      expect(String(movies[later].Title)).toBe(w.key);
      expect(w.message).toBe(`replaced by record #${later}`);
    }
    expect(await count(ds.id)).toBe(distinct.size);
  }, 120_000);

  it('refuses the cars on /api/data/ingest when their first field (Name) repeats, instead of keeping 311 of 406', async () => {
    const ds = await newSource('Cars');
    const refused = await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: cars } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('primary_key_ambiguous');
    expect(refused.body.error.message).toContain('the first field "Name" repeats');
    expect(await count(ds.id)).toBe(0);
    const kept = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: cars });
    expect(kept.body).toMatchObject({ inserted: 406, rejected: 0 });
    expect(await count(ds.id)).toBe(406);
  });

  it('takes a CSV file as it comes (stocks.csv): one record a row', async () => {
    const rows = stocksCsv.trim().split('\n').length - 1;
    const ds = await newSource('Stocks');
    const res = await s.http<IngestResult>('POST', `/api/data/sources/${ds.sourceId}/records?key=${ds.ingestKey}`, { raw: stocksCsv, token: null, headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ format: 'csv', received: rows, inserted: rows, rejected: 0 });
    const first = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=1`)).body.records[0];
    expect(Object.keys(first.data)).toEqual(['symbol', 'date', 'price']);
  });
});
