import zlib from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { buildDashboard, buildSource } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/harness';
import { collect, socketsPerTest } from '../../test/sockets';

let s: TestServer;
const sockets = socketsPerTest(() => s.url);
let ds: { id: string; sourceId: string; ingestKey: string };
let other: { id: string; sourceId: string; ingestKey: string };
let dash: { id: string };

beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: '100000', RATE_LIMIT_INGEST: '100000' });
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.reset();
  ds = await buildSource(s, {
    name: 'Orders',
    records: [{ id: 'a', amount: 5, status: 'open' }, { id: 'b', amount: 50, status: 'closed' }, { id: 'c', amount: 500, status: 'Open' }, { id: 'd', amount: 7, status: 'pending' }],
  });
  other = await buildSource(s, { name: 'Other' });
  dash = await buildDashboard(s, { source: ds, name: 'Orders', published: true });
});
const viewer = () => sockets.viewerOf(dash.id);
const recordIds = async () => ((await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=1000`)).body.records as { recordId: string }[]).map((r) => r.recordId).sort();
/** The first of a collected event's payloads, once one has come. */
const first = <T>(c: { items: T[] }) => eventually(() => c.items[0] ?? null);

describe('DELETE /api/data/sources/:sourceId/records/:key', () => {
  it('deletes one record by its primary-key value with the source\'s ingest key, live to viewers', async () => {
    const v = await viewer();
    const removed = collect(v, 'records:removed');
    const res = await s.http('DELETE', `/api/data/sources/${ds.sourceId}/records/b`, { token: ds.ingestKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 1, recordId: 'b' });
    expect(await recordIds()).toEqual(['a', 'c', 'd']);
    expect((await first(removed))).toMatchObject({ recordIds: ['b'], total: 3, all: false });
    // The admin token, by the source's id.
    expect((await s.http('DELETE', `/api/data/sources/${ds.id}/records/a`)).status).toBe(200);
    expect(await recordIds()).toEqual(['c', 'd']);
  });

  it('answers 404 for a key that is not there, and the same 403 for another source\'s key whether that source exists or not', async () => {
    const missing = await s.http('DELETE', `/api/data/sources/${ds.sourceId}/records/zzz`, { token: ds.ingestKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    const foreign = await s.http('DELETE', `/api/data/sources/${ds.sourceId}/records/a`, { token: other.ingestKey });
    const nowhere = await s.http('DELETE', '/api/data/sources/CSTM_NOPE/records/a', { token: other.ingestKey });
    expect([foreign.status, nowhere.status]).toEqual([403, 403]);
    expect(foreign.body.error.code).toBe('ingest_key_forbidden');
    expect(nowhere.body.error.code).toBe('ingest_key_forbidden');
    expect((await s.http('DELETE', `/api/data/sources/${ds.sourceId}/records/a`, { token: null })).status).toBe(401);
    expect((await s.http('DELETE', '/api/data/sources/CSTM_NOPE/records/a')).status).toBe(404);
    expect(await recordIds()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('deletes a record of an append-only source by its record id', async () => {
    await s.app.ctx.models.DataSource.updateOne({ _id: other.id }, { $set: { appendOnly: true } });
    const put = await s.http('PUT', `/api/data/sources/${other.sourceId}/records`, { body: [{ msg: 'x' }, { msg: 'x' }], token: other.ingestKey });
    expect(put.body).toMatchObject({ stored: 2, removed: 0 });
    const rows = (await s.http('GET', `/api/data/raw?dataSourceId=${other.id}`)).body.records as { id: string; recordId: string }[];
    expect(rows).toHaveLength(2);
    expect((await s.http('DELETE', `/api/data/sources/${other.sourceId}/records/${rows[0].recordId}`, { token: other.ingestKey })).status).toBe(200);
    expect((await s.http('GET', `/api/data/raw?dataSourceId=${other.id}`)).body.total).toBe(1);
  });
});

describe('POST /api/data/sources/:sourceId/records/delete', () => {
  it('counts first with dryRun, then deletes what every filter matches, live to viewers', async () => {
    const filters = [{ field: 'status', operator: 'in', values: ['open', 'pending'] }, { field: 'amount', operator: 'lt', value: '100' }];
    const dry = await s.http('POST', `/api/data/sources/${ds.sourceId}/records/delete`, { body: { filters, dryRun: true }, token: ds.ingestKey });
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({ matched: 2, deleted: 0, dryRun: true });
    expect(await recordIds()).toEqual(['a', 'b', 'c', 'd']);
    const v = await viewer();
    const removed = collect(v, 'records:removed');
    const res = await s.http('POST', `/api/data/sources/${ds.sourceId}/records/delete`, { body: { filters }, token: ds.ingestKey });
    expect(res.body).toEqual({ matched: 2, deleted: 2, dryRun: false });
    expect(await recordIds()).toEqual(['b', 'c']);
    expect([...(await first(removed)).recordIds].sort()).toEqual(['a', 'd']);
    const log = (await s.http('GET', `/api/admin/activity?kind=records.deleted&objectId=${ds.id}`)).body;
    expect(log[0]).toMatchObject({ credential: 'ingestKey', details: { deleted: 2, filters: 2 } });
  });

  it('refuses a request without filters or with a bad one, naming the field', async () => {
    const none = await s.http('POST', `/api/data/sources/${ds.sourceId}/records/delete`, { body: { filters: [] } });
    expect(none.status).toBe(400);
    expect(none.body.error.fields[0].path).toBe('filters');
    const bad = await s.http('POST', `/api/data/sources/${ds.sourceId}/records/delete`, { body: { filters: [{ field: 'x', operator: 'like' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields[0].path).toBe('filters.0.operator');
    const foreign = await s.http('POST', `/api/data/sources/${ds.sourceId}/records/delete`, { body: { filters: [{ field: 'id', value: 'a' }] }, token: other.ingestKey });
    expect(foreign.status).toBe(403);
    expect(await recordIds()).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('PUT /api/data/sources/:sourceId/records', () => {
  it('replaces the whole set: viewers get the records that went and the new ones', async () => {
    const v = await viewer();
    const removed = collect(v, 'records:removed');
    const upserted = collect(v, 'records:upserted');
    const res = await s.http('PUT', `/api/data/sources/${ds.sourceId}/records`, { body: [{ id: 'c', amount: 1 }, { id: 'e', amount: 2 }], token: ds.ingestKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stored: 2, removed: 3, atomic: true });
    expect(await recordIds()).toEqual(['c', 'e']);
    expect([...(await first(removed)).recordIds].sort()).toEqual(['a', 'b', 'd']);
    const pushed = (await first(upserted));
    expect(pushed.records.map((r) => r.data)).toEqual([{ id: 'c', amount: 1 }, { id: 'e', amount: 2 }]);
    expect(pushed.total).toBe(2);
  });

  it('replaces nothing when a record is not valid, nor for a wrapper object that would become a set of one', async () => {
    const bad = await s.http('PUT', `/api/data/sources/${ds.sourceId}/records`, { body: [{ id: 'x' }, { amount: 3 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('records_rejected');
    expect(bad.body.error.message).toContain('#1: record has no primary key field "id"');
    const wrapper = await s.http('PUT', `/api/data/sources/${ds.sourceId}/records`, { body: { id: 'w', records: [{ id: 'x' }] } });
    expect(wrapper.status).toBe(400);
    expect(wrapper.body.error.message).toContain('send that array itself');
    expect(await recordIds()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('takes every body shape of the source URL: one JSON object, NDJSON, CSV, gzip; a CSV header alone empties the source', async () => {
    const put = (raw: string | Buffer, type: string, headers: Record<string, string> = {}) =>
      s.http('PUT', `/api/data/sources/${ds.sourceId}/records`, { raw: raw as string, token: ds.ingestKey, headers: { 'content-type': type, ...headers } });
    const data = async () => ((await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=1000`)).body.records as { data: unknown }[]).map((r) => r.data);

    expect((await put('{"id":"o","amount":1}', 'application/json')).body).toMatchObject({ stored: 1, removed: 4 });
    expect(await data()).toEqual([{ id: 'o', amount: 1 }]);
    expect((await put('{"id":"n1","amount":2}\n\n{"id":"n2","amount":3}\n', 'application/x-ndjson')).body).toMatchObject({ stored: 2, removed: 1 });
    expect(await data()).toEqual([{ id: 'n1', amount: 2 }, { id: 'n2', amount: 3 }]);
    expect((await put('id,amount,status\nc1,4,open\nc2,,closed\n', 'text/csv')).body).toMatchObject({ stored: 2, removed: 2 });
    expect(await data()).toEqual([{ id: 'c1', amount: '4', status: 'open' }, { id: 'c2', status: 'closed' }]);
    const zipped = zlib.gzipSync(JSON.stringify([{ id: 'g', amount: 5 }]));
    const gz = await fetch(`${s.url}/api/data/sources/${ds.sourceId}/records`, { method: 'PUT', body: zipped, headers: { authorization: `Bearer ${ds.ingestKey}`, 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect(await gz.json()).toMatchObject({ stored: 1, removed: 2 });
    expect((await put('id,amount\n', 'text/csv')).body).toMatchObject({ stored: 0, removed: 1 });
    expect(await data()).toEqual([]);
    const other415 = await put('id=1', 'application/x-www-form-urlencoded');
    expect(other415.status).toBe(415);
  });

  it('refuses the whole replace when a CSV row or an NDJSON line cannot be read, naming each by index (nothing replaced, no key set)', async () => {
    const put = (id: string, raw: string, type: string, query = '') => s.http('PUT', `/api/data/sources/${id}/records${query}`, { raw, headers: { 'content-type': type } });
    const csv = await put(ds.sourceId, 'id,amount\nx1,1\nx2,2,extra\nx3,3\n', 'text/csv');
    expect(csv.status).toBe(400);
    expect(csv.body.error.code).toBe('records_rejected');
    expect(csv.body.error.fields).toEqual([{ path: '1', message: 'row on line 3 has 3 cells, the header names 2 columns' }]);
    const nd = await put(ds.sourceId, '{"id":"y1"}\n{"id":\n{"amount":3}\n', 'application/x-ndjson');
    expect(nd.status).toBe(400);
    expect(nd.body.error.fields.map((f: { path: string }) => f.path)).toEqual(['1', '2']);
    expect(nd.body.error.fields[0].message).toMatch(/^line 2 is not valid JSON/);
    expect(nd.body.error.fields[1].message).toBe('record has no primary key field "id"');
    expect(await recordIds()).toEqual(['a', 'b', 'c', 'd']);
    // A source without a key: the refused replace does not key it either.
    const refused = await put(other.sourceId, '{"sku":"A"}\nnot json\n', 'application/x-ndjson', '?primaryKey=sku');
    expect(refused.status).toBe(400);
    const listed = ((await s.http('GET', '/api/data/sources')).body as { id: string; primaryKey: string | null }[]).find((d) => d.id === other.id)!;
    expect(listed.primaryKey).toBeNull();
  });

  it('lets concurrent readers see the old set or the new one, never a mix', async () => {
    const oldSet = Array.from({ length: 40 }, (_, i) => ({ id: `old${i}`, v: i }));
    const newSet = Array.from({ length: 40 }, (_, i) => ({ id: `new${i}`, v: i }));
    await s.http('PUT', `/api/data/sources/${ds.sourceId}/records`, { body: oldSet });
    const oldIds = oldSet.map((r) => r.id).sort().join();
    const newIds = newSet.map((r) => r.id).sort().join();
    let done = false;
    const seen: string[] = [];
    const reader = async () => {
      while (!done) seen.push((await recordIds()).join());
    };
    const readers = Array.from({ length: 6 }, reader);
    // Back and forth a few times: each switch is a chance for a reader to land mid-way.
    for (const set of [newSet, oldSet, newSet, oldSet]) await s.http('PUT', `/api/data/sources/${ds.sourceId}/records`, { body: set });
    const res = await s.http('PUT', `/api/data/sources/${ds.sourceId}/records`, { body: newSet });
    done = true;
    await Promise.all(readers);
    expect(res.body.atomic).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
    for (const ids of seen) expect(ids === oldIds || ids === newIds, `a read saw ${ids.split(',').length} records: ${ids.slice(0, 80)}…`).toBe(true);
    expect((await recordIds()).join()).toBe(newIds);
  });
});
