import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { startTestServer, type TestServer } from '../../test/harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

async function newSource(name = 'Tickets') {
  const res = await s.http('POST', '/api/admin/data-sources', { body: { name } });
  expect(res.status).toBe(201);
  return res.body as { id: string; sourceId: string; ingestKey: string };
}

describe('POST /api/data/ingest', () => {
  it('accepts the standard format, sets the primary key from the first field, and upserts by key', async () => {
    const ds = await newSource();
    const first = await s.http('POST', '/api/data/ingest', {
      body: { sourceId: ds.sourceId, records: [{ ticket_id: 1, subject: 'A', status: 'open' }, { ticket_id: 2, subject: 'B', status: 'closed' }] },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, format: 'standard', inserted: 2, updated: 0, rejected: 0 });
    const sources = await s.http('GET', '/api/data/sources');
    expect(sources.body[0]).toMatchObject({ primaryKey: 'ticket_id', recordCount: 2 });

    const before = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}`)).body.records[0];
    // The clock moves past the first write, so the update's time differs from it.
    await eventually(() => Date.now() > Date.parse(before.lastUpdated) + 1, { interval: 1 });
    const second = await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ ticket_id: 1, subject: 'A2', status: 'closed' }] } });
    expect(second.body).toMatchObject({ inserted: 0, updated: 1 });
    const raw = await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}`);
    expect(raw.body.total).toBe(2);
    const rec = raw.body.records.find((r: { recordId: string }) => r.recordId === '1');
    expect(rec.data).toEqual({ ticket_id: 1, subject: 'A2', status: 'closed' });
    expect(rec.lastUpdated > before.lastUpdated).toBe(true);
    expect(rec.createdAt).toBe(before.createdAt);
  });

  it.each([
    ['zendesk', 'results'],
    ['generic', 'data'],
  ])('detects the %s format (%s array)', async (format, key) => {
    const ds = await newSource();
    const res = await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, [key]: [{ id: 7, subject: 'x' }] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ format, inserted: 1 });
  });

  it('takes a top-level array whose items name their sources, stripping sourceId from the data', async () => {
    const a = await newSource('A');
    const b = await newSource('B');
    const res = await s.http('POST', '/api/data/ingest', {
      body: [{ sourceId: a.sourceId, k: 'a1', v: 1 }, { sourceId: b.sourceId, k: 'b1', v: 2 }, { k: 'none' }, { sourceId: 'CSTM_NOPE', k: 'x' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ format: 'array', inserted: 2, rejected: 2 });
    expect(res.body.rejections).toEqual([
      { index: 2, sourceId: null, reason: 'record has no sourceId' },
      { index: 3, sourceId: 'CSTM_NOPE', reason: 'data source CSTM_NOPE not found' },
    ]);
    const raw = await s.http('GET', `/api/data/raw?dataSourceId=${b.sourceId}`);
    expect(raw.body.records[0].data).toEqual({ k: 'b1', v: 2 });
  });

  it('writes no source of a multi-source batch when one of them is refused (first-field duplicates, a key conflict)', async () => {
    const good = await newSource('Good');
    const dup = await newSource('Duplicates');
    const keyed = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Keyed', primaryKey: 'sku' } })).body as { id: string; sourceId: string };
    const count = async (id: string) => (await s.http('GET', `/api/data/raw?dataSourceId=${id}&limit=1`)).body.total as number;
    const res = await s.http('POST', '/api/data/ingest', {
      body: [
        { sourceId: good.sourceId, ticket_id: 1, subject: 'A' },
        { sourceId: dup.sourceId, title: 'Heat' },
        { sourceId: dup.sourceId, title: 'Heat' },
        { sourceId: good.sourceId, ticket_id: 2, subject: 'B' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('primary_key_ambiguous');
    expect(await count(good.id)).toBe(0);
    const sources = (await s.http('GET', '/api/data/sources')).body as { id: string; primaryKey: string | null; appendOnly: boolean }[];
    // The good source is not keyed either: nothing of the request happened.
    expect(sources.find((d) => d.id === good.id)).toMatchObject({ primaryKey: null, appendOnly: false });
    // A key conflict in one source (409) leaves the other unwritten too.
    const conflict = await s.http('POST', '/api/data/ingest?primaryKey=ticket_id', {
      body: [{ sourceId: good.sourceId, ticket_id: 1 }, { sourceId: keyed.sourceId, ticket_id: 9, sku: 'X' }],
    });
    expect(conflict.status).toBe(409);
    expect(await count(good.id)).toBe(0);
    expect(await count(keyed.id)).toBe(0);
    // Sent alone, the good records land as before.
    const ok = await s.http('POST', '/api/data/ingest', { body: [{ sourceId: good.sourceId, ticket_id: 1 }, { sourceId: keyed.sourceId, sku: 'X' }] });
    expect(ok.body).toMatchObject({ inserted: 2 });
  });

  it('rejects records without the key field by index while the rest land', async () => {
    const ds = await newSource();
    const res = await s.http('POST', '/api/data/ingest', {
      body: { sourceId: ds.sourceId, primaryKey: 'id', records: [{ id: 'a' }, { name: 'no id' }, 'text', { id: { nested: 1 } }, { id: 'b' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ inserted: 2, rejected: 3 });
    expect(res.body.rejections.map((r: { index: number; reason: string }) => [r.index, r.reason])).toEqual([
      [1, 'record has no primary key field "id"'],
      [2, 'record is not a JSON object'],
      [3, 'primary key field "id" must be a string, number or boolean'],
    ]);
  });

  it('round-trips field names with dots, dollars, spaces and unicode', async () => {
    const ds = await newSource();
    const record = { 'a.b': 1, $price: 2, 'two words': 3, 'ключ': 'значение', nested: { 'x.y': { $z: true } } };
    const body = `{"sourceId":"${ds.sourceId}","records":[${JSON.stringify(record)}]}`;
    const res = await s.http('POST', '/api/data/ingest', { raw: body });
    expect(res.status).toBe(200);
    const raw = await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}`);
    const stored = raw.body.records[0];
    expect(stored.keyOrder).toEqual(['a.b', '$price', 'two words', 'ключ', 'nested']);
    expect(JSON.stringify(stored.data)).toBe(body.slice(body.indexOf('[') + 1, -2));
  });

  it('answers clear errors for bad payloads', async () => {
    const ds = await newSource();
    const cases: [unknown, number, string][] = [
      [{ sourceId: ds.sourceId }, 400, 'No records array'],
      [{ sourceId: ds.sourceId, records: [] }, 400, 'The records array is empty: nothing to ingest'],
      [{ records: [{ a: 1 }] }, 400, 'sourceId is required'],
      [{ sourceId: 'CSTM_MISSING', records: [{ a: 1 }] }, 404, 'Data source CSTM_MISSING not found'],
      [{ sourceId: ds.sourceId, records: [{ a: 1 }], data: [] }, 400, 'Send only one of records, results or data'],
      [{ sourceId: ds.sourceId, records: [1, 2] }, 400, 'No record was ingested (2 rejected)'],
      ['just text', 400, 'The body must be a JSON object'],
    ];
    for (const [body, status, message] of cases) {
      const res = await s.http('POST', '/api/data/ingest', { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message).toContain(message);
    }
    const deep = `${'{"d":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const nested = await s.http('POST', '/api/data/ingest', { raw: `{"sourceId":"${ds.sourceId}","records":[{"id":"ok"},{"id":"deep","deep":${deep}}]}` });
    expect(nested.status).toBe(400);
    expect(nested.body.error).toEqual({ code: 'json_too_deep', message: 'The JSON body is nested deeper than the limit of 64 levels' });
    const malformed = await s.http('POST', '/api/data/ingest', { raw: '{"sourceId": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('malformed_json');
    expect(malformed.body.error.message).toMatch(/^Request body is not valid JSON/);
    const text = await s.http('POST', '/api/data/ingest', { raw: 'a,b', headers: { 'content-type': 'text/csv' } });
    expect(text.status).toBe(415);
  });

  it('enforces the record-count and body-size limits with the limit in the message', async () => {
    const small = await startTestServer({ INGEST_MAX_RECORDS: '3', INGEST_MAX_BYTES: '2048' });
    try {
      const ds = (await small.http('POST', '/api/admin/data-sources', { body: { name: 'x' } })).body;
      const many = await small.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }] } });
      expect(many.status).toBe(400);
      expect(many.body.error.message).toBe('Too many records: 4 in one request, the limit is 3; split the payload into batches');
      const big = await small.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ a: 'x'.repeat(5000) }] } });
      expect(big.status).toBe(413);
      expect(big.body.error.message).toBe('Request body is larger than the limit of 2 KB');
      expect((await small.http('GET', '/api/health')).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('needs a credential; an ingest key writes only to its own source', async () => {
    const a = await newSource('A');
    const b = await newSource('B');
    const payload = (sourceId: string) => ({ sourceId, records: [{ id: 1 }] });
    expect((await s.http('POST', '/api/data/ingest', { body: payload(a.sourceId), token: null })).status).toBe(401);
    const wrong = await s.http('POST', '/api/data/ingest', { body: payload(a.sourceId), token: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_ingest_credential');
    expect((await s.http('POST', '/api/data/ingest', { body: payload(a.sourceId), token: a.ingestKey })).status).toBe(200);
    // Its source named by id works too; naming the other source by id does not.
    expect((await s.http('POST', '/api/data/ingest', { body: payload(a.id), token: a.ingestKey })).status).toBe(200);
    expect((await s.http('POST', '/api/data/ingest', { body: payload(b.id), token: a.ingestKey })).status).toBe(403);
    const mixed = await s.http('POST', '/api/data/ingest', { body: [{ sourceId: a.sourceId, id: 2 }, { sourceId: b.sourceId, id: 3 }], token: a.ingestKey });
    expect(mixed.status).toBe(403);
    const other = await s.http('POST', '/api/data/ingest', { body: payload(b.sourceId), token: a.ingestKey });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('ingest_key_forbidden');
    expect(other.body.error.message).toContain(`cannot write to data source ${b.sourceId}`);
    const viaHeader = await s.http('POST', '/api/data/ingest', { body: payload(b.sourceId), token: null, headers: { 'x-ingest-key': b.ingestKey } });
    expect(viaHeader.status).toBe(200);

    const rotated = await s.http('POST', `/api/admin/data-sources/${a.id}/ingest-key`);
    expect(rotated.body.ingestKey).toMatch(/^ik_/);
    expect((await s.http('POST', '/api/data/ingest', { body: payload(a.sourceId), token: a.ingestKey })).status).toBe(401);
    expect((await s.http('POST', '/api/data/ingest', { body: payload(a.sourceId), token: rotated.body.ingestKey })).status).toBe(200);
  });
});
