import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { ApiErrorBody } from '@common/schemas/errors';
import type { IngestResult } from '@common/schemas/records/ingest';
import type { RawDataResponse } from '@common/schemas/records/record';
import { FIELD_NAME_MAX_LENGTH, FIELDS_PER_SOURCE_MAX } from '@common/constants';
import { startTestServer, type TestServer } from '../../test/harness';
import { ingestRecords } from '../ingest/ingestRecords';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

async function newSource(name = 'Orders') {
  const res = await s.http<{ id: string; sourceId: string }>('POST', '/api/admin/data-sources', { body: { name } });
  expect(res.status).toBe(201);
  return res.body;
}
const source = async (id: string) => (await s.http<DataSourceDto[]>('GET', '/api/data/sources')).body.find((d) => d.id === id)!;
const raw = async (id: string) => (await s.http<RawDataResponse>('GET', `/api/data/raw?dataSourceId=${id}&limit=1000`)).body;
const ingest = (body: unknown) => s.http<IngestResult>('POST', '/api/data/ingest', { body });
/** Sends the JSON text as written: `__proto__` stays a key, as JSON.parse keeps it. */
const ingestText = (text: string) => s.http<IngestResult>('POST', '/api/data/ingest', { raw: text });

describe('concurrent first ingests', () => {
  it('20 requests with different field orders into an empty source: one primary key, no duplicates, losers checked against it', async () => {
    const ds = await newSource();
    const keys = ['id', 'email', 'name', 'code'];
    const N = 6;
    const person = (i: number): Record<string, unknown> => ({ id: i, email: `u${i}@example.com`, name: `User ${i}`, code: `C${i}` });
    const reorder = (rec: Record<string, unknown>, first: string) => Object.fromEntries([[first, rec[first]], ...Object.entries(rec).filter(([k]) => k !== first)]);
    // Request k leads with keys[k % 4]; its last record carries only that field, so it lands only
    // when that field won the primary key, and is rejected (alone, by index) otherwise.
    const bodies = Array.from({ length: 20 }, (_, k) => {
      const lead = keys[k % keys.length];
      const records = Array.from({ length: N }, (_, i) => reorder(person(i + 1), lead));
      records.push({ [lead]: `probe-${k}` });
      return { lead, body: { sourceId: ds.sourceId, records } };
    });
    const answers = await Promise.all(bodies.map((b) => ingest(b.body)));
    for (const a of answers) expect(a.status, a.text).toBe(200);

    const after = await source(ds.id);
    const winner = after.primaryKey!;
    expect(keys).toContain(winner);
    answers.forEach((a, k) => {
      expect(a.body.sources[0].primaryKey).toBe(winner);
      if (bodies[k].lead === winner) {
        expect(a.body.rejections).toEqual([]);
      } else {
        expect(a.body.rejections).toEqual([{ index: N, sourceId: ds.sourceId, reason: `record has no primary key field "${winner}"` }]);
      }
    });
    const winners = bodies.filter((b) => b.lead === winner).length;
    const all = await raw(ds.id);
    const ids = all.records.map((r) => r.recordId);
    expect(all.total, `records: ${ids.join(', ')}`).toBe(N + winners);
    expect(after.recordCount).toBe(N + winners);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of all.records) expect(r.recordId).toBe(String(r.data[winner]));
    expect(new Set(after.fields)).toEqual(new Set(keys));
  });
});

describe('reserved keys', () => {
  const batch = (sourceId: string, key: string) =>
    `{"sourceId":${JSON.stringify(sourceId)},"records":[{"id":1,"v":"a"},{"id":2,"${key}":{"polluted":true}},{"id":3,"nested":{"deep":[{"${key}":{"x":1}}]}},{"id":4,"v":"d"}]}`;

  it.each(['__proto__', 'constructor', 'prototype'])('a record with a "%s" key at any depth is rejected alone (service, JSON.parse input)', async (key) => {
    const ds = await newSource();
    const body: unknown = JSON.parse(batch(ds.sourceId, key));
    const result = await ingestRecords(s.app.ctx, body, { admin: true });
    expect(result).toMatchObject({ success: true, inserted: 2, rejected: 2 });
    expect(result.rejections.map((r) => r.index)).toEqual([1, 2]);
    expect(result.rejections[0].reason).toContain(`"${key}"`);
    expect(result.rejections[0].reason).toContain(`(at ${key})`);
    expect(result.rejections[1].reason).toContain(`(at nested.deep.0.${key})`);
    expect((await raw(ds.id)).records.map((r) => r.recordId)).toEqual(['1', '4']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a top-level array record with "__proto__" is rejected without being copied (service, JSON.parse input)', async () => {
    const ds = await newSource();
    const body: unknown = JSON.parse(`[{"sourceId":"${ds.sourceId}","id":1},{"sourceId":"${ds.sourceId}","id":2,"__proto__":{"sourceId":"CSTM_OTHER"}}]`);
    const result = await ingestRecords(s.app.ctx, body, { admin: true });
    expect(result).toMatchObject({ inserted: 1, rejected: 1 });
    expect(result.rejections).toEqual([{ index: 1, sourceId: ds.sourceId, reason: expect.stringContaining('"__proto__" is not allowed') }]);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('over HTTP, a "%s" key is rejected alone with its index and reason', async (key) => {
    const ds = await newSource();
    const res = await ingestText(batch(ds.sourceId, key));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ inserted: 2, rejected: 2 });
    expect(res.body.rejections.map((r) => [r.index, r.reason.includes(`"${key}" is not allowed`)])).toEqual([[1, true], [2, true]]);
  });

  it('a batch of only reserved-key records answers 400 all_records_rejected with each index, never a bare Bad request', async () => {
    const ds = await newSource();
    const res = await ingestText(`{"sourceId":"${ds.sourceId}","records":[{"id":1,"constructor":1},{"id":2,"prototype":2}]}`);
    expect(res.status).toBe(400);
    const { error } = res.body as unknown as ApiErrorBody;
    expect(error.code).toBe('all_records_rejected');
    expect(error.fields?.map((f) => f.path)).toEqual(['records.0', 'records.1']);
  });
});

describe('field name limits', () => {
  it(`a field name longer than ${FIELD_NAME_MAX_LENGTH} characters rejects its record alone`, async () => {
    const ds = await newSource();
    const long = 'f'.repeat(FIELD_NAME_MAX_LENGTH + 1);
    const ok = 'g'.repeat(FIELD_NAME_MAX_LENGTH);
    const res = await ingest({ sourceId: ds.sourceId, records: [{ id: 1, [ok]: 1 }, { id: 2, [long]: 2 }, { id: 3 }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ inserted: 2, rejected: 1 });
    expect(res.body.rejections[0]).toMatchObject({ index: 1 });
    expect(res.body.rejections[0].reason).toContain(`is ${FIELD_NAME_MAX_LENGTH + 1} characters long; the limit is ${FIELD_NAME_MAX_LENGTH}`);
    expect((await source(ds.id)).fields).toEqual(['id', ok]);
  });

  it(`a source collects at most ${FIELDS_PER_SOURCE_MAX} field names; records over the budget are rejected with a reason`, async () => {
    const ds = await newSource();
    const wide = (from: number, count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${from + i}`, i]));
    // 1 (id) + 300 fields land.
    const first = await ingest({ sourceId: ds.sourceId, records: [{ id: 1, ...wide(0, 300) }] });
    expect(first.status, first.text).toBe(200);
    // 150 more fit (451), the next 100 would make 551, a record with known fields only always fits.
    const second = await ingest({ sourceId: ds.sourceId, records: [{ id: 2, ...wide(300, 150) }, { id: 3, ...wide(450, 100) }, { id: 4, f0: 'x' }, { id: 5, ...wide(450, 49) }] });
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ inserted: 3, rejected: 1 });
    expect(second.body.rejections).toEqual([
      { index: 1, sourceId: ds.sourceId, reason: `record would bring data source ${ds.sourceId} to 551 field names; the limit is ${FIELDS_PER_SOURCE_MAX} per data source` },
    ]);
    const after = await source(ds.id);
    expect(after.fields.length).toBe(FIELDS_PER_SOURCE_MAX);
    expect(after.recordCount).toBe(4);
  });
});
