import zlib from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IngestResult } from '@common/schemas/records/ingest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../test/harness';

let s: TestServer;
beforeAll(async () => {
  // debug: every log line the server may write is written, so the test sees any key in them.
  s = await startTestServer({ LOG_LEVEL: 'debug', RATE_LIMIT_AUTH_FAILURES: '100000' });
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

interface Source {
  id: string;
  sourceId: string;
  ingestKey: string;
}
async function newSource(body: Record<string, unknown> = {}): Promise<Source> {
  const res = await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets', ...body } });
  expect(res.status).toBe(201);
  return res.body;
}
const url = (ds: Source, query = '') => `/api/data/sources/${ds.sourceId}/records${query}`;
const post = (path: string, raw: string, type: string, token: string | null = ADMIN_TOKEN) =>
  s.http<IngestResult & { error: { code: string; message: string; fields: { path: string; message: string }[] } }>('POST', path, { raw, token, headers: { 'content-type': type } });
const postJson = (path: string, body: unknown, token: string | null = ADMIN_TOKEN) => s.http<IngestResult & { error: { code: string; message: string; fields: { path: string; message: string }[] } }>('POST', path, { body, token });
const raw = async (ds: Source) => (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=1000`)).body as { total: number; records: { recordId: string; data: Record<string, unknown>; createdAt: string }[] };
const source = async (ds: Source) => (await s.http('GET', '/api/data/sources')).body.find((d: { id: string }) => d.id === ds.id);

describe('POST /api/data/sources/:sourceId/records: the four body shapes', () => {
  it('takes one JSON object as one record, by sourceId or by id', async () => {
    const ds = await newSource();
    const one = await postJson(url(ds), { ticket_id: 1, subject: 'Printer on fire' });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ success: true, format: 'object', received: 1, inserted: 1, updated: 0, rejected: 0, warnings: [] });
    const byId = await postJson(`/api/data/sources/${ds.id}/records`, { ticket_id: 2 });
    expect(byId.body).toMatchObject({ inserted: 1 });
    expect((await raw(ds)).total).toBe(2);
  });

  it('takes a JSON array of objects; a record that is not an object is rejected by index', async () => {
    const ds = await newSource();
    const res = await postJson(url(ds), [{ a: 1 }, 'text', { a: 2 }]);
    expect(res.body).toMatchObject({ format: 'array', received: 3, inserted: 2, rejected: 1 });
    expect(res.body.rejections).toEqual([{ index: 1, sourceId: ds.sourceId, reason: 'record is not a JSON object' }]);
  });

  it('takes NDJSON (x-ndjson, jsonl, ndjson); an unreadable line is rejected alone with its index, blank lines are not records', async () => {
    const ds = await newSource();
    const body = '{"id":1,"v":"a"}\n{"id":2,\n\n{"id":3,"v":"c"}\r\n';
    for (const type of ['application/x-ndjson', 'application/jsonl', 'application/ndjson']) {
      const res = await post(url(ds, '?primaryKey=id'), body, type);
      expect(res.status, type).toBe(200);
      expect(res.body).toMatchObject({ format: 'ndjson', received: 3, rejected: 1 });
      expect(res.body.rejections[0]).toMatchObject({ index: 1 });
      expect(res.body.rejections[0].reason).toMatch(/^line 2 is not valid JSON/);
    }
    const stored = await raw(ds);
    expect(stored.records.map((r) => r.data)).toEqual([{ id: 1, v: 'a' }, { id: 3, v: 'c' }]);
  });

  it('takes CSV with a header row: values stay text, empty cells leave the field out, a row with the wrong cell count is rejected alone', async () => {
    const ds = await newSource();
    const csv = '\uFEFFid,name,"note, quoted"\n1,Ada,"says ""hi"""\n2,,x\n3,Grace\n4,Alan,\n5,O"Neil,x"y\n';
    const res = await post(url(ds, '?primaryKey=id'), csv, 'text/csv; charset=utf-8');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ format: 'csv', received: 5, inserted: 4, rejected: 1 });
    expect(res.body.rejections).toEqual([{ index: 2, sourceId: ds.sourceId, reason: 'row on line 4 has 2 cells, the header names 3 columns' }]);
    const byId = Object.fromEntries((await raw(ds)).records.map((r) => [r.recordId, r.data]));
    expect(byId).toEqual({ '1': { id: '1', name: 'Ada', 'note, quoted': 'says "hi"' }, '2': { id: '2', 'note, quoted': 'x' }, '4': { id: '4', name: 'Alan' }, '5': { id: '5', name: 'O"Neil', 'note, quoted': 'x"y' } });
  });

  it('reads gzip and br bodies, and answers 415 naming the accepted types for any other Content-Type', async () => {
    const ds = await newSource();
    for (const [encoding, zip] of [['gzip', zlib.gzipSync], ['br', zlib.brotliCompressSync]] as const) {
      const res = await fetch(s.url + url(ds), {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson', 'content-encoding': encoding },
        body: zip(Buffer.from('{"x":1}\n{"x":2}\n')),
      });
      expect(res.status, encoding).toBe(200);
      expect(await res.json()).toMatchObject({ inserted: 2 });
    }
    const bad = await post(url(ds), 'a=1', 'application/x-www-form-urlencoded');
    expect(bad.status).toBe(415);
    expect(bad.body.error.code).toBe('unsupported_media_type');
    for (const t of ['application/json', 'application/x-ndjson', 'text/csv']) expect(bad.body.error.message).toContain(t);
  });

  it('applies the ingest limits (records per request, bytes)', async () => {
    const small = await startTestServer({ INGEST_MAX_RECORDS: '3', INGEST_MAX_BYTES: '200' });
    try {
      const ds = (await small.http('POST', '/api/admin/data-sources', { body: { name: 'x' } })).body as Source;
      const many = await small.http('POST', url(ds), { raw: 'a\n1\n2\n3\n4\n', headers: { 'content-type': 'text/csv' } });
      expect(many.status).toBe(400);
      expect(many.body.error.code).toBe('too_many_records');
      const big = await small.http('POST', url(ds), { body: { text: 'x'.repeat(300) } });
      expect(big.status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('leaves POST /api/data/ingest as it was, with warnings added to its report', async () => {
    const ds = await newSource();
    const res = await postJson('/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: 1 }, { id: 2 }] });
    expect(res.body).toMatchObject({ format: 'standard', inserted: 2, warnings: [] });
    const json = await post(url(ds), '{"id":1}', 'text/plain');
    expect(json.status).toBe(415);
  });
});

describe('credentials of a source URL', () => {
  it('takes the ingest key as a bearer header or as ?key=, never the admin token in the URL', async () => {
    const ds = await newSource();
    expect((await postJson(url(ds), { a: 1 }, ds.ingestKey)).body).toMatchObject({ inserted: 1 });
    expect((await postJson(url(ds, `?key=${encodeURIComponent(ds.ingestKey)}`), { a: 2 }, null)).body).toMatchObject({ inserted: 1 });
    const noKey = await postJson(url(ds), { a: 3 }, null);
    expect(noKey.status).toBe(401);
    expect(noKey.body.error.code).toBe('ingest_credential_required');
    const adminInUrl = await postJson(url(ds, `?key=${ADMIN_TOKEN}`), { a: 3 }, null);
    expect(adminInUrl.status).toBe(401);
    expect(adminInUrl.body.error.code).toBe('invalid_ingest_credential');
  });

  it('ignores query parameters a webhook sender appends (naming them in warnings) and still validates the known ones', async () => {
    const ds = await newSource({ primaryKey: 'id' });
    const key = encodeURIComponent(ds.ingestKey);
    const res = await postJson(url(ds, `?key=${key}&timestamp=1700000000&signature=abc&signature=def&mode=merge`), { id: 1, a: 1 }, null);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ inserted: 1, rejected: 0 });
    expect(res.body.warnings).toEqual([{ index: -1, message: 'ignored query parameters "timestamp", "signature": this URL reads only primaryKey, mode, key' }]);
    // The known ones still count: mode=merge keeps the stored field, a bad mode or a repeated known one is refused.
    expect((await postJson(url(ds, '?mode=merge&ts=1'), { id: 1, b: 2 })).body.warnings).toHaveLength(1);
    expect((await raw(ds)).records[0].data).toEqual({ id: 1, a: 1, b: 2 });
    const bad = await postJson(url(ds, '?mode=bogus&ts=1'), { id: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields[0].path).toBe('mode');
    expect((await postJson(url(ds, '?mode=merge&mode=replace'), { id: 2 })).status).toBe(400);
    expect((await postJson(url(ds), { id: 3 })).body.warnings).toEqual([]);
  });

  it('never writes the key of ?key= into a log line, the activity log or an answer', async () => {
    const ds = await newSource();
    const other = await newSource({ name: 'Other' });
    const lines: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void lines.push(a.map(String).join(' '))));
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => (lines.push(String(c)), true));
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => (lines.push(String(c)), true));
    const answers: string[] = [];
    try {
      const q = `?key=${encodeURIComponent(ds.ingestKey)}`;
      for (const r of [
        await postJson(url(ds, q), { a: 1 }, null),
        await post(url(ds, q), '{"broken', 'application/json', null),
        await post(url(ds, q), 'x', 'text/plain', null),
        await postJson(url(other, q), { a: 1 }, null),
        await postJson(url(ds, `${q}&mode=sideways`), { a: 1 }, null),
        await postJson(url(ds, `?key=ik_wrong${ds.ingestKey.slice(8)}`), { a: 1 }, null),
      ]) answers.push(r.text + JSON.stringify([...r.headers]));
    } finally {
      [...spies, out, err].forEach((sp) => sp.mockRestore());
    }
    const activity = await s.http('GET', '/api/admin/activity?limit=100');
    expect(activity.body.some((e: { kind: string }) => e.kind === 'ingest')).toBe(true);
    expect(activity.body.some((e: { kind: string }) => e.kind === 'auth.failed')).toBe(true);
    const secret = ds.ingestKey.slice(3);
    expect(JSON.stringify(activity.body)).not.toContain(secret);
    expect(answers.join('\n')).not.toContain(secret);
    expect(lines.join('\n')).not.toContain(secret);
  });

  it('answers the same 403 to an ingest key naming another source and a missing one; the admin gets 404 for a missing one', async () => {
    const ds = await newSource();
    const other = await newSource({ name: 'Other' });
    const missing = { ...other, sourceId: 'CSTM_NO_SUCH_SOURCE', id: '0123456789abcdef01234567' };
    const answers = [];
    for (const target of [other, missing]) {
      for (const path of [url(target), `/api/data/sources/${target.id}/records`]) {
        const res = await postJson(path, { a: 1 }, ds.ingestKey);
        answers.push([res.status, res.body.error.code, res.body.error.message.replace(target.sourceId, 'X').replace(target.id, 'X')]);
      }
      const legacy = await postJson('/api/data/ingest', { sourceId: target.sourceId, records: [{ a: 1 }] }, ds.ingestKey);
      answers.push([legacy.status, legacy.body.error.code, legacy.body.error.message.replace(target.sourceId, 'X')]);
      const legacyArray = await postJson('/api/data/ingest', [{ sourceId: target.sourceId, a: 1 }], ds.ingestKey);
      answers.push([legacyArray.status, legacyArray.body.error.code, legacyArray.body.error.message.replace(target.sourceId, 'X')]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0].slice(0, 2)).toEqual([403, 'ingest_key_forbidden']);
    const admin = await postJson(url(missing), { a: 1 });
    expect(admin.status).toBe(404);
  });
});

describe('keys without loss', () => {
  it('makes a source with no key append-only on its URL: every record kept with a server id and its received time', async () => {
    const ds = await newSource();
    const res = await postJson(url(ds), [{ title: 'Same' }, { title: 'Same' }, { title: 'Other' }]);
    expect(res.body).toMatchObject({ inserted: 3, updated: 0, warnings: [] });
    expect(res.body.sources[0].primaryKey).toBe('');
    expect(await source(ds)).toMatchObject({ appendOnly: true, primaryKey: null });
    const again = await postJson(url(ds), { title: 'Same' });
    expect(again.body).toMatchObject({ inserted: 1 });
    const stored = await raw(ds);
    expect(stored.total).toBe(4);
    expect(new Set(stored.records.map((r) => r.recordId)).size).toBe(4);
    expect(stored.records.every((r) => /^[0-9a-f]{24}$/.test(r.recordId) && r.createdAt)).toBe(true);
    const keyed = await postJson(url(ds, '?primaryKey=title'), { title: 'x' });
    expect(keyed.status).toBe(409);
    expect(keyed.body.error.code).toBe('primary_key_conflict');
  });

  it('keys by ?primaryKey= while the source is empty and names the records of one batch that share a key', async () => {
    const ds = await newSource();
    const res = await postJson(url(ds, '?primaryKey=id'), [{ id: 1, v: 'a' }, { id: 2 }, { id: 1, v: 'b' }, { id: 1, v: 'c' }]);
    expect(res.body).toMatchObject({ inserted: 2, updated: 2 });
    expect(res.body.warnings).toEqual([
      { index: 0, key: '1', message: 'replaced by record #2' },
      { index: 2, key: '1', message: 'replaced by record #3' },
    ]);
    expect(await source(ds)).toMatchObject({ primaryKey: 'id', appendOnly: false });
    expect((await raw(ds)).records.find((r) => r.recordId === '1')!.data).toEqual({ id: 1, v: 'c' });
  });

  it('refuses, on /api/data/ingest, a first field that repeats or is missing, naming the duplicates and the two ways out', async () => {
    const ds = await newSource();
    const dup = await postJson('/api/data/ingest', { sourceId: ds.sourceId, records: [{ Title: 'A', y: 1 }, { Title: 'B' }, { Title: 'A', y: 2 }] });
    expect(dup.status).toBe(400);
    expect(dup.body.error.code).toBe('primary_key_ambiguous');
    expect(dup.body.error.message).toContain('records #0 and #2 share "A"');
    expect(dup.body.error.message).toContain('primaryKey');
    expect(dup.body.error.message).toContain('"appendOnly": true');
    const missing = await postJson('/api/data/ingest', { sourceId: ds.sourceId, records: [{ Title: 'A' }, { Other: 'B' }] });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('missing or empty in record #1');
    expect((await raw(ds)).total).toBe(0);
    expect(await source(ds)).toMatchObject({ primaryKey: null, appendOnly: false });
    // The two ways out work.
    const named = await postJson('/api/data/ingest?primaryKey=y', { sourceId: ds.sourceId, records: [{ Title: 'A', y: 1 }, { Title: 'A', y: 2 }] });
    expect(named.body).toMatchObject({ inserted: 2 });
    const other = await newSource({ name: 'Log', appendOnly: true });
    const kept = await postJson('/api/data/ingest', { sourceId: other.sourceId, records: [{ Title: 'A' }, { Title: 'A' }] });
    expect(kept.body).toMatchObject({ inserted: 2 });
    // A unique first field still becomes the key.
    const third = await newSource({ name: 'Third' });
    expect((await postJson('/api/data/ingest', { sourceId: third.sourceId, records: [{ k: 1 }, { k: 2 }] })).body.sources[0].primaryKey).toBe('k');
  });

  it('refuses an ingest naming another key than the source\'s, on both routes (one primary key per source)', async () => {
    const ds = await newSource();
    await postJson('/api/data/ingest', { sourceId: ds.sourceId, records: [{ ticket_id: 1, subject: 'a' }] });
    for (const res of [
      await postJson('/api/data/ingest?primaryKey=subject', { sourceId: ds.sourceId, records: [{ ticket_id: 1, subject: 'b' }] }),
      await postJson('/api/data/ingest', { sourceId: ds.sourceId, primaryKey: 'subject', records: [{ ticket_id: 1, subject: 'b' }] }),
      await postJson(url(ds, '?primaryKey=subject'), { ticket_id: 1, subject: 'b' }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('primary_key_conflict');
      expect(res.body.error.message).toContain('"ticket_id"');
      expect(res.body.error.message).toContain('"subject"');
    }
    expect((await raw(ds)).total).toBe(1);
    const same = await postJson(url(ds, '?primaryKey=ticket_id'), { ticket_id: 1, subject: 'c' });
    expect(same.body).toMatchObject({ updated: 1 });
  });

  it('reads a nested key path, rejecting a record whose path is missing with a reason naming the path', async () => {
    const ds = await newSource({ primaryKey: 'issue.id' });
    const res = await postJson(url(ds), [{ issue: { id: 7 }, v: 1 }, { issue: {} }, { issue: { id: 7 }, v: 2 }, { 'issue.id': 8 }]);
    expect(res.body).toMatchObject({ inserted: 2, updated: 1, rejected: 1 });
    expect(res.body.rejections[0]).toMatchObject({ index: 1, reason: 'record has no primary key field "issue.id"' });
    expect((await raw(ds)).records.map((r) => r.recordId).sort()).toEqual(['7', '8']);
  });

  it('rejects a record holding a number too large to store (1e309), naming its path, in JSON and NDJSON alike', async () => {
    const ds = await newSource({ primaryKey: 'id' });
    const res = await post(url(ds), '[{"id":1,"a":{"b":[1,1e309]}},{"id":1e309},{"id":2,"v":-1e400},{"id":3,"v":1e308}]', 'application/json');
    expect(res.body).toMatchObject({ inserted: 1, rejected: 3 });
    expect(res.body.rejections.map((r) => r.reason)).toEqual([
      'field "a.b.1" is a number too large to store (Infinity): send it as a string, or as a number within ±1.8e308',
      'field "id" is a number too large to store (Infinity): send it as a string, or as a number within ±1.8e308',
      'field "v" is a number too large to store (-Infinity): send it as a string, or as a number within ±1.8e308',
    ]);
    const nd = await post(url(ds), '{"id":4,"x":1e999}\n{"id":5}', 'application/x-ndjson');
    expect(nd.body).toMatchObject({ inserted: 1, rejected: 1 });
    expect((await raw(ds)).records.map((r) => r.recordId).sort()).toEqual(['3', '5']);
    const legacy = await s.http('POST', '/api/data/ingest', { raw: `{"sourceId":"${ds.sourceId}","records":[{"id":9,"n":1e309}]}` });
    expect(legacy.status).toBe(400);
    expect(legacy.body.error.fields[0].message).toContain('field "n" is a number too large');
  });
});

describe('merge or replace', () => {
  it('merges only the fields sent with mode=merge (query or wrapper body), null stores null; replace stores the record as sent', async () => {
    const ds = await newSource({ primaryKey: 'Title' });
    await postJson(url(ds), { Title: 'Heat', Year: 1995, 'IMDB Rating': 8.2, Director: 'Mann' });
    const merged = await postJson(url(ds, '?mode=merge'), { Title: 'Heat', 'IMDB Rating': 8.3, Director: null });
    expect(merged.body).toMatchObject({ updated: 1 });
    expect((await raw(ds)).records[0].data).toEqual({ Title: 'Heat', Year: 1995, 'IMDB Rating': 8.3, Director: null });
    await postJson('/api/data/ingest', { sourceId: ds.sourceId, mode: 'merge', records: [{ Title: 'Heat', Genre: 'Crime' }] });
    expect((await raw(ds)).records[0].data).toMatchObject({ Year: 1995, Genre: 'Crime' });
    await postJson(url(ds, '?mode=replace'), { Title: 'Heat', 'IMDB Rating': 9 });
    expect((await raw(ds)).records[0].data).toEqual({ Title: 'Heat', 'IMDB Rating': 9 });
    const bad = await postJson(url(ds, '?mode=sideways'), { Title: 'Heat' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields[0].path).toBe('mode');
  });

  it('uses the source\'s default updateMode, editable; repeated keys in one merge batch build one record', async () => {
    const ds = await newSource({ primaryKey: 'id', updateMode: 'merge' });
    await postJson(url(ds), [{ id: 1, a: 1 }, { id: 1, b: 2 }]);
    expect((await raw(ds)).records[0].data).toEqual({ id: 1, a: 1, b: 2 });
    const patched = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { updateMode: 'replace' } });
    expect(patched.body.updateMode).toBe('replace');
    await postJson(url(ds), { id: 1, c: 3 });
    expect((await raw(ds)).records[0].data).toEqual({ id: 1, c: 3 });
  });
});

describe('a source\'s settings on create and PATCH', () => {
  it('changes primaryKey and appendOnly only while the source is empty (409 naming the field), exclusive with each other', async () => {
    const ds = await newSource();
    const both = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { primaryKey: 'id', appendOnly: true } });
    expect(both.status).toBe(400);
    expect(both.body.error.fields[0].path).toBe('appendOnly');
    expect((await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { appendOnly: true } })).body).toMatchObject({ appendOnly: true, primaryKey: null });
    expect((await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { primaryKey: 'ticket_id' } })).body).toMatchObject({ appendOnly: false, primaryKey: 'ticket_id' });
    await postJson(url(ds), { ticket_id: 1 });
    for (const [body, field] of [[{ primaryKey: 'other' }, 'primaryKey'], [{ primaryKey: null }, 'primaryKey'], [{ appendOnly: true }, 'appendOnly']] as const) {
      const res = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.error.code).toBe('source_not_empty');
      expect(res.body.error.fields[0].path).toBe(field);
    }
    // The same key again, and the other settings, still change.
    const ok = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { primaryKey: 'ticket_id', updateMode: 'merge', timeField: 'created.at', retention: { maxRecords: 500 }, dateOrder: 'dmy', fieldTypes: { 'a.b': 'number', year: 'text' } } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ primaryKey: 'ticket_id', updateMode: 'merge', timeField: 'created.at', retention: { maxRecords: 500, maxAgeSeconds: null }, dateOrder: 'dmy', fieldTypesSet: { 'a.b': 'number', year: 'text' } });
    const removed = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { fieldTypes: { year: null } } });
    expect(removed.body.fieldTypesSet).toEqual({ 'a.b': 'number' });
  });

  it('takes the settings on create', async () => {
    const res = await s.http('POST', '/api/admin/data-sources', { body: { name: 'x', primaryKey: 'issue.id', updateMode: 'merge', fieldTypes: { 'x.y': 'datetime' } } });
    expect(res.body).toMatchObject({ primaryKey: 'issue.id', appendOnly: false, updateMode: 'merge', fieldTypesSet: { 'x.y': 'datetime' } });
    const both = await s.http('POST', '/api/admin/data-sources', { body: { name: 'x', primaryKey: 'id', appendOnly: true } });
    expect(both.status).toBe(400);
  });
});
