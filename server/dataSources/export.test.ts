import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { joinFieldList } from '@common/schemas/export';
import { encodeKeys } from '../core/db/fieldNames';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

async function sourceWith(name: string, records: Record<string, unknown>[]): Promise<{ id: string; sourceId: string }> {
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name } })).body;
  const ingested = await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, primaryKey: 'id', records } });
  expect(ingested.status).toBe(200);
  return ds;
}

const rows = [
  { id: 1, name: 'Alice', formula: '=SUM(A1:A9)', 'a,b': 'comma field', at: '2024-05-01T09:00:00Z' },
  { id: 2, name: 'Bob', formula: '+cmd', 'a,b': 'x', at: '2024-05-03T09:00:00Z' },
  { id: 3, name: 'Zoë, "the" one', formula: 'plain', 'a,b': 'y', at: '2024-05-05T09:00:00Z' },
];

describe('GET /api/admin/data-sources/:id/export', () => {
  it('exports CSV by the server\'s rules: BOM, CRLF, a header row, formulas neutralised, a file name safe for any name', async () => {
    const ds = await sourceWith('Sales: "Q1"/2024 ✓', rows);
    const res = await fetch(`${s.url}/api/admin/data-sources/${ds.id}/export?format=csv`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Sales_ _Q1__2024 _.csv"; filename*=UTF-8''Sales_%20_Q1__2024%20%E2%9C%93.csv`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('id,name,formula,"a,b",at');
    expect(lines[1]).toBe(`1,Alice,'=SUM(A1:A9),comma field,2024-05-01T09:00:00Z`);
    expect(lines[2]).toBe(`2,Bob,'+cmd,x,2024-05-03T09:00:00Z`);
    expect(lines[3]).toBe('3,"Zoë, ""the"" one",plain,y,2024-05-05T09:00:00Z');
  });

  it('neutralises cells and names starting with a full-width ＝ ＋ － ＠ like their ASCII twins', async () => {
    const ds = await sourceWith('Wide', [{ id: 1, '＝name': '＝HYPERLINK("http://x")', a: '＋1', b: '－1', c: '＠SUM(A1)', d: '１＋１' }]);
    const csv = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=csv`);
    expect(csv.text.replace(/^\ufeff/, '').split('\r\n').filter(Boolean)).toEqual([`id,'＝name,a,b,c,d`, `1,"'＝HYPERLINK(""http://x"")",'＋1,'－1,'＠SUM(A1),１＋１`]);
  });

  it('exports a JSON array and NDJSON with only the fields asked for (a comma inside a name escaped)', async () => {
    const ds = await sourceWith('People', rows);
    const fields = encodeURIComponent(joinFieldList(['name', 'a,b']));
    const json = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=json&fields=${fields}`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('content-disposition')).toContain('filename="People.json"');
    expect(json.body).toEqual(rows.map((r) => ({ name: r.name, 'a,b': r['a,b'] })));
    const nd = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=ndjson&fields=id`);
    expect(nd.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(nd.text).toBe('{"id":1}\n{"id":2}\n{"id":3}\n');
    const csv = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?fields=${fields}`);
    expect(csv.text.replace(/^\ufeff/, '').split('\r\n')[0]).toBe('name,"a,b"');
  });

  it('keeps only the records in a time range on a data field, or on the time they were written', async () => {
    const ds = await sourceWith('Timed', rows);
    const ranged = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=json&field=at&from=2024-05-02T00:00:00Z&to=2024-05-04T00:00:00Z`);
    expect(ranged.body.map((r: { id: number }) => r.id)).toEqual([2]);
    const future = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=json&from=2999-01-01T00:00:00Z`);
    expect(future.body).toEqual([]);
    const recent = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=ndjson&from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`);
    expect(recent.text.trim().split('\n')).toHaveLength(3);
  });

  it('writes date-time fields as ISO 8601 in CSV and ranges on the source\'s time field (a path) by default', async () => {
    const ds = await sourceWith('Events', [
      { id: 1, meta: { at: 1714554000 } },
      { id: 2, meta: { at: 1714726800 } },
    ]);
    // Set in the database: the settings' PATCH belongs to the "Any client, any shape" work.
    await s.app.ctx.models.DataSource.updateOne({ _id: ds.id }, { $set: { timeField: 'meta.at', fieldTypesSet: encodeKeys({ 'meta.at': 'datetime' }) } });
    const csv = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?fields=id,meta.at`);
    expect(csv.text.replace(/^\ufeff/, '').split('\r\n').slice(0, 3)).toEqual(['id,meta.at', '1,2024-05-01T09:00:00.000Z', '2,2024-05-03T09:00:00.000Z']);
    const ranged = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=json&fields=id&from=2024-05-02T00:00:00Z`);
    expect(ranged.body).toEqual([{ id: 2 }]);
  });

  it('streams a source larger than one cursor batch whole, in every format', async () => {
    const many = Array.from({ length: 1_100 }, (_, i) => ({ id: i, label: `row ${i}` }));
    const ds = await sourceWith('Many', many);
    const json = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=json`);
    expect(json.body).toHaveLength(1_100);
    expect(json.body[1_099]).toEqual({ id: 1_099, label: 'row 1099' });
    const nd = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=ndjson`);
    expect(nd.text.trim().split('\n')).toHaveLength(1_100);
    const csv = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=csv`);
    expect(csv.text.split('\r\n').filter(Boolean)).toHaveLength(1_101);
    const empty = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Empty' } })).body;
    expect((await s.http('GET', `/api/admin/data-sources/${empty.id}/export?format=json`)).body).toEqual([]);
  });

  it('refuses a bad format, a bad range, an unknown source and a caller without the admin token', async () => {
    const ds = await sourceWith('Checked', rows.slice(0, 1));
    const bad = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?format=xlsx`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_failed', fields: [{ path: 'format', message: 'format must be csv, json or ndjson' }] });
    const date = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?from=yesterday`);
    expect(date.status).toBe(400);
    expect(date.body.error.fields[0].path).toBe('from');
    const reversed = await s.http('GET', `/api/admin/data-sources/${ds.id}/export?from=2024-05-02T00:00:00Z&to=2024-05-01T00:00:00Z`);
    expect(reversed.body.error.message).toBe('from: from must not be after to');
    expect((await s.http('GET', '/api/admin/data-sources/6500000000000000000000aa/export')).status).toBe(404);
    expect((await s.http('GET', `/api/admin/data-sources/${ds.id}/export`, { token: null })).status).toBe(401);
  });
});
