import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DryRunDto, ImportPlan, ImportPreviewDto, ImportProgressDto } from '@common/schemas/imports';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';
import { buildPerson } from '../test/factories';
import { nextWhere, openSocket, type TestSocket } from '../test/sockets';
import { cancelImport } from './runImport';
import { requireJob } from './importJobs';
import { activityHandle } from '../core/activity';

/** Real data nobody here wrote (vega-datasets): 1,461 days of Seattle weather with a date column, a TSV. */
const require = createRequire(import.meta.url);
const dataDir = path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data');
const weatherCsv = fs.readFileSync(path.join(dataDir, 'seattle-weather.csv'));
const unemploymentTsv = fs.readFileSync(path.join(dataDir, 'unemployment.tsv'));

/** Uploads stay under 200 KB here, so the 413 is tested without a 50 MB body. */
const MAX = 200_000;
let s: TestServer;
let socket: TestSocket;
beforeAll(async () => {
  s = await startTestServer({ IMPORT_MAX_BYTES: String(MAX) });
  socket = await openSocket(s.url, ADMIN_TOKEN);
});
afterAll(async () => {
  socket?.close();
  await s?.close();
});
beforeEach(() => s.reset());

type Auth = { token?: string; cookie?: string };
const headersOf = (auth: Auth = {}): Record<string, string> => (auth.cookie ? { cookie: auth.cookie, origin: s.url } : { authorization: `Bearer ${auth.token ?? ADMIN_TOKEN}` });

async function upload(body: Buffer | string, fileName: string, auth?: Auth) {
  const res = await fetch(`${s.url}/api/admin/imports?fileName=${encodeURIComponent(fileName)}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headersOf(auth) }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  return { status: res.status, body: (await res.json()) as ImportPreviewDto & { error: { code: string; message: string } } };
}

/** The plan the preview suggests: every column as detected, into a new source. */
const planOf = (p: ImportPreviewDto, more: Partial<ImportPlan> = {}): ImportPlan => ({
  settings: p.settings, columns: p.columns.map((c) => ({ name: c.name, field: c.name, type: c.type })), target: { kind: 'new', name: 'Imported' }, key: null, mode: 'append', ...more,
});

const dryRun = (id: string, plan: ImportPlan) => s.http<DryRunDto & { error: { message: string } }>('POST', `/api/admin/imports/${id}/dry-run`, { body: plan });

/** Starts an import and waits for its end over Socket.IO, keeping every progress event seen. */
async function runToEnd(id: string, plan: ImportPlan) {
  const ack = await new Promise<{ ok: boolean }>((resolve) => socket.emit('import:join', id, resolve));
  expect(ack.ok).toBe(true);
  const seen: ImportProgressDto[] = [];
  const on = (e: ImportProgressDto) => e.id === id && seen.push(e);
  socket.on('import:progress', on);
  const end = nextWhere(socket, 'import:progress', (e) => e.id === id && e.state !== 'running', 60_000);
  const started = await s.http('POST', `/api/admin/imports/${id}/run`, { body: plan });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const last = await end;
  socket.off('import:progress', on);
  return { last, seen };
}

const countOf = async (id: string) => (await s.http('GET', `/api/data/raw?dataSourceId=${id}&limit=1`)).body.total as number;
const newSource = async (body: Record<string, unknown>) => (await s.http('POST', '/api/admin/data-sources', { body: { retention: { maxRecords: 10_000 }, ...body } })).body as { id: string; sourceId: string };

describe('Import Data: reading the file', () => {
  const text = 'name,city,amount\nZoë,Café Noir,12.5\n"Smith, J",Zürich,7\n';
  const encodings: [string, Buffer, string][] = [
    ['UTF-8', Buffer.from(text, 'utf8'), 'utf-8'],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]), 'utf-8'],
    ['UTF-16 LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'utf-16le'],
    ['UTF-16 BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), 'utf-16be'],
    ['Windows-1252', Buffer.from(text, 'latin1'), 'windows-1252'],
  ];
  for (const [label, bytes, encoding] of encodings) {
    it(`detects ${label} and reads its accented text`, async () => {
      const res = await upload(bytes, 'people.csv');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.settings).toEqual({ format: 'csv', encoding, delimiter: ',', quote: '"', header: true });
      expect(res.body.columns).toEqual([{ name: 'name', type: 'text' }, { name: 'city', type: 'text' }, { name: 'amount', type: 'number' }]);
      expect(res.body.rows).toEqual([['Zoë', 'Café Noir', '12.5'], ['Smith, J', 'Zürich', '7']]);
    });
  }

  it('detects a TSV (a real one), semicolons, a missing header row, a JSON array and NDJSON; other settings re-read the preview', async () => {
    const tsv = await upload(unemploymentTsv, 'unemployment.tsv');
    expect(tsv.body.settings).toMatchObject({ format: 'csv', delimiter: '\t', header: true });
    expect(tsv.body.columns).toEqual([{ name: 'id', type: 'number' }, { name: 'rate', type: 'number' }]);
    expect(tsv.body.rows[0]).toEqual(['1001', '.097']);

    const semi = await upload('a;b\n"x;y";2\nz;3\n', 'semi.csv');
    expect(semi.body.settings).toMatchObject({ delimiter: ';', header: true });
    expect(semi.body.rows[0]).toEqual(['x;y', '2']);

    const bare = await upload('1,2024-03-01,red\n2,2024-03-02,blue\n', 'bare.csv');
    expect(bare.body.settings.header).toBe(false);
    expect(bare.body.columns.map((c) => c.name)).toEqual(['column 1', 'column 2', 'column 3']);
    expect(bare.body.columns[1].type).toBe('datetime');
    // The person says the first row is a header after all.
    const corrected = await s.http<ImportPreviewDto>('POST', `/api/admin/imports/${bare.body.id}/preview`, { body: { settings: { ...bare.body.settings, header: true } } });
    expect(corrected.body.columns.map((c) => c.name)).toEqual(['1', '2024-03-01', 'red']);
    expect(corrected.body.rows).toEqual([['2', '2024-03-02', 'blue']]);

    const json = await upload(JSON.stringify([{ id: 1, tags: ['a'], note: 'x, "y"' }, { id: 2, note: 'z]' }, 7]), 'rows.json');
    expect(json.body.settings.format).toBe('json');
    expect(json.body.rows).toEqual([[1, '["a"]', 'x, "y"'], [2, null, 'z]']]);
    expect(json.body.problems).toEqual([{ row: 3, reason: 'element 3 is not a JSON object' }]);

    const ndjson = await upload('{"id":1,"at":"2024-03-01T10:00:00Z"}\n\n{"id":2,"at":"2024-03-02T10:00:00Z"}\nnot json\n', 'rows.ndjson');
    expect(ndjson.body.settings.format).toBe('ndjson');
    expect(ndjson.body.columns).toEqual([{ name: 'id', type: 'number' }, { name: 'at', type: 'datetime' }]);
    expect(ndjson.body.problems).toHaveLength(1);
    expect(ndjson.body.problems[0].row).toBe(3);
  });

  it('refuses a file over the limit with a 413 that says the limit, read as a stream', async () => {
    // Sent in chunks without a Content-Length: the server counts as it writes.
    const chunk = Buffer.alloc(64 * 1024, 'a,b\n');
    const body = new ReadableStream({
      start(c) {
        for (let i = 0; i < 5; i++) c.enqueue(chunk);
        c.close();
      },
    });
    const res = await fetch(`${s.url}/api/admin/imports?fileName=big.csv`, { method: 'POST', headers: headersOf(), body, duplex: 'half' } as unknown as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toEqual({ code: 'payload_too_large', message: 'The file is larger than the limit of 195.3 KB: split it into smaller files and import each' });
    // Announced too large: refused before reading.
    const announced = await upload(Buffer.alloc(MAX + 1, 'a'), 'big.csv');
    expect(announced.status).toBe(413);
  });
});

describe('Import Data: dry run and import', () => {
  it('imports the 1,461-row Seattle weather CSV into a new source keyed by date: dry run, progress, activity log', async () => {
    const up = await upload(weatherCsv, 'seattle-weather.csv');
    expect(up.status).toBe(201);
    expect(up.body.rows).toHaveLength(100);
    const types = Object.fromEntries(up.body.columns.map((c) => [c.name, c.type]));
    expect(types).toEqual({ date: 'datetime', precipitation: 'number', temp_max: 'number', temp_min: 'number', wind: 'number', weather: 'category' });
    const plan = planOf(up.body, { target: { kind: 'new', name: 'Seattle weather' }, key: 'date' });
    const dry = await dryRun(up.body.id, plan);
    expect(dry.body).toMatchObject({ read: 1461, inserted: 1461, updated: 0, rejected: 0, removed: 0, duplicates: [], rejections: [] });
    expect((await s.http('GET', '/api/data/sources')).body).toHaveLength(0);

    const { last, seen } = await runToEnd(up.body.id, plan);
    expect(last).toMatchObject({ state: 'done', read: 1461, written: 1461, rejected: 0 });
    expect(last.message).toBe('Imported 1,461 rows into the data source "Seattle weather": 1,461 rows inserted, 0 rows updated, 0 rows rejected.');
    // Progress after each whole batch of 500.
    expect(seen.filter((e) => e.state === 'running').map((e) => e.written)).toEqual(expect.arrayContaining([500, 1000, 1461]));
    const ds = (await s.http('GET', '/api/data/sources')).body[0];
    expect(ds).toMatchObject({ name: 'Seattle weather', primaryKey: 'date', recordCount: 1461 });
    expect(ds.fieldTypes).toMatchObject({ date: 'datetime', precipitation: 'number', weather: 'category' });
    const first = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=1000`)).body.records.find((r: { data: { date: string } }) => r.data.date === '2012-01-02');
    expect(first.data).toEqual({ date: '2012-01-02', precipitation: 10.9, temp_max: 10.6, temp_min: 2.8, wind: 4.5, weather: 'rain' });
    await activityHandle.of(s.app.ctx).flush();
    const log = (await s.http('GET', '/api/admin/activity?kind=records.imported')).body;
    expect(log[0]).toMatchObject({ actor: 'admin token', objectName: 'Seattle weather', details: { read: 1461, written: 1461, rejected: 0 } });
    expect(log[0].summary).toContain('"seattle-weather.csv"');
    // The temp file is gone once the import ended.
    expect((await s.http('POST', `/api/admin/imports/${up.body.id}/dry-run`, { body: plan })).body.error.code).toBe('import_file_gone');
  }, 120_000);

  it('lists a key\'s duplicates with their row numbers over the whole file and writes nothing', async () => {
    const up = await upload(weatherCsv, 'seattle-weather.csv');
    const plan = planOf(up.body, { key: 'weather' });
    const dry = await dryRun(up.body.id, plan);
    expect(dry.body.duplicates.find((d) => d.key === 'drizzle')!.rows.slice(0, 3)).toEqual([1, 27, 46]);
    expect(dry.body.duplicates.map((d) => d.key)).toEqual(['drizzle', 'rain', 'sun', 'snow', 'fog']);
    expect(dry.body.duplicates.reduce((n, d) => n + d.count, 0)).toBe(1461);
    const { last } = await runToEnd(up.body.id, plan);
    expect(last.state).toBe('failed');
    expect(last.message).toBe('The key "weather" is not unique in the file, so nothing was written: 5 values repeat ("drizzle" on rows 1, 27, 46, 86, 104, … (53 rows); "rain" on rows 2, 3, 4, 5, 6, … (641 rows); "sun" on rows 8, 11, 12, 13, 33, … (640 rows); …). Pick another key, or none (append-only)');
    expect((await s.http('GET', '/api/data/sources')).body).toHaveLength(0);
  }, 60_000);

  it('counts inserts, updates and rejections of an upsert into an existing source, and downloads the rejections as CSV', async () => {
    const ds = await newSource({ name: 'Orders', primaryKey: 'order' });
    await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: [{ order: 'A1', total: 1 }, { order: 'A2', total: 2 }, { order: 'Z9', total: 9 }] });
    const csv = 'Order No,Total,Shipped,Note\nA1,10,2024-03-01,=HYPERLINK("x")\nA3,thirty,2024-03-02,\nA4,40,someday,\n,50,2024-03-04,\nA5,50,2024-03-05,ok\n';
    const up = await upload(csv, 'orders.csv');
    const columns = [
      { name: 'Order No', field: 'order', type: 'text' as const },
      { name: 'Total', field: 'total', type: 'number' as const },
      { name: 'Shipped', field: 'shipped', type: 'datetime' as const },
      { name: 'Note', field: 'Note', type: 'text' as const, skip: true },
    ];
    const plan: ImportPlan = { settings: up.body.settings, columns, target: { kind: 'existing', dataSourceId: ds.id }, key: 'order', mode: 'upsert' };
    const dry = await dryRun(up.body.id, plan);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ read: 5, inserted: 1, updated: 1, rejected: 3, removed: 0, duplicates: [], mismatches: { newFields: ['shipped'], missingFields: [] } });
    expect(dry.body.rejections).toEqual([
      { row: 2, reason: 'column "Total": "thirty" is not a number' },
      { row: 3, reason: 'column "Shipped": "someday" is not a date or time' },
      { row: 4, reason: 'record has no primary key field "order"' },
    ]);
    const rejected = await fetch(`${s.url}/api/admin/imports/${up.body.id}/rejections`, { headers: headersOf() });
    expect(rejected.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(rejected.headers.get('content-disposition')).toContain('orders - rejected rows.csv');
    expect(Buffer.from(await rejected.arrayBuffer()).toString('utf8')).toBe('\uFEFFrow,reason\r\n2,"column ""Total"": ""thirty"" is not a number"\r\n3,"column ""Shipped"": ""someday"" is not a date or time"\r\n4,"record has no primary key field ""order"""\r\n');

    // Replace: the records the file does not hold would go.
    expect((await dryRun(up.body.id, { ...plan, mode: 'replace' })).body).toMatchObject({ inserted: 1, updated: 1, removed: 2 });
    // Append into a keyed source: a key already there is a rejection.
    expect((await dryRun(up.body.id, { ...plan, mode: 'append' })).body).toMatchObject({ inserted: 1, updated: 0, rejected: 4 });
    // Another key than the source's: refused before reading.
    const other = await dryRun(up.body.id, { ...plan, key: 'total' });
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe('Data source "Orders" is keyed by "order": pick the column that lands in "order" as the key');

    const { last } = await runToEnd(up.body.id, plan);
    expect(last).toMatchObject({ state: 'done', written: 2, rejected: 3 });
    const rows = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=10`)).body.records.map((r: { data: unknown }) => r.data);
    expect(rows).toEqual(expect.arrayContaining([{ order: 'A1', total: 10, shipped: '2024-03-01' }, { order: 'A5', total: 50, shipped: '2024-03-05' }, { order: 'Z9', total: 9 }]));
  }, 60_000);
});

describe('Import Data: retention', () => {
  it('says when the source\'s retention kept fewer records than were imported', async () => {
    const ds = await newSource({ name: 'Recent weather', appendOnly: true, retention: { maxRecords: 1000 } });
    const up = await upload(weatherCsv, 'seattle-weather.csv');
    const { last } = await runToEnd(up.body.id, planOf(up.body, { target: { kind: 'existing', dataSourceId: ds.id } }));
    expect(last.message).toBe('Imported 1,461 rows into the data source "Recent weather": 1,461 rows inserted, 0 rows updated, 0 rows rejected. The source\'s retention keeps 1,000 records: the oldest went (Data Sources › its card › Retention).');
    expect(await countOf(ds.id)).toBe(1000);
  }, 60_000);
});

describe('Import Data: cancelling', () => {
  /**
   * Cancels the import, as its cancel route does, on the first progress it announces that `when`
   * picks: the event bus calls its listeners at once, so the import has not gone on meanwhile.
   */
  const cancelWhen = (when: (p: ImportProgressDto) => boolean) => {
    const off = s.app.ctx.events.on('import.progress', (p) => {
      if (p.state !== 'running' || !when(p)) return;
      off();
      cancelImport(requireJob(s.app.ctx, { via: 'adminToken', role: 'admin', user: null, credentialHash: null }, p.id));
    });
  };
  /** Writing begins: the file is read (`read` counted) and nothing is written yet. */
  const writingBegins = (p: ImportProgressDto) => p.read > 0 && p.written === 0;

  it('replace: a cancelled import leaves the source as it was', async () => {
    const ds = await newSource({ name: 'Weather', primaryKey: 'date' });
    await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: [{ date: '1999-01-01', weather: 'old' }] });
    const up = await upload(weatherCsv, 'seattle-weather.csv');
    cancelWhen(writingBegins);
    const { last } = await runToEnd(up.body.id, planOf(up.body, { target: { kind: 'existing', dataSourceId: ds.id }, key: 'date', mode: 'replace' }));
    expect(last.state).toBe('cancelled');
    expect(last.message).toBe('Cancelled: nothing was replaced, the data source "Weather" is as it was.');
    const rows = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=10`)).body.records.map((r: { data: unknown }) => r.data);
    expect(rows).toEqual([{ date: '1999-01-01', weather: 'old' }]);
  }, 60_000);

  it('append: a cancelled import keeps whole batches only, and says so', async () => {
    const ds = await newSource({ name: 'Weather log', appendOnly: true });
    const up = await upload(weatherCsv, 'seattle-weather.csv');
    cancelWhen((p) => p.written > 0);
    const { last } = await runToEnd(up.body.id, planOf(up.body, { target: { kind: 'existing', dataSourceId: ds.id } }));
    expect(last).toMatchObject({ state: 'cancelled', written: 500 });
    expect(last.message).toBe('Cancelled after 1 whole batch: 500 rows written stay in the data source "Weather log"; the rest of the file was not imported.');
    expect(await countOf(ds.id)).toBe(500);
  }, 60_000);
});

describe('Import Data: roles', () => {
  it('lets an editor import into an existing source but not create one; viewers cannot upload; an upload is its uploader\'s', async () => {
    const editor = await buildPerson(s, 'editor');
    const other = await buildPerson(s, 'editor');
    const viewer = await buildPerson(s, 'viewer');
    expect((await upload('a\n1\n', 'a.csv', { cookie: viewer.cookie })).status).toBe(403);
    const up = await upload('id,n\n1,2\n', 'a.csv', { cookie: editor.cookie });
    expect(up.status).toBe(201);
    const newTarget = await editor.http('POST', `/api/admin/imports/${up.body.id}/dry-run`, { headers: { origin: s.url }, body: planOf(up.body) });
    expect(newTarget.status).toBe(403);
    expect(newTarget.body.error.message).toBe('Creating a data source needs the admin role: import into an existing data source instead');
    expect((await other.http('GET', `/api/admin/imports/${up.body.id}`)).status).toBe(404);
    const ds = await newSource({ name: 'Numbers', appendOnly: true });
    const dry = await editor.http('POST', `/api/admin/imports/${up.body.id}/dry-run`, { headers: { origin: s.url }, body: planOf(up.body, { target: { kind: 'existing', dataSourceId: ds.id } }) });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ inserted: 1, mismatches: { newFields: ['id', 'n'], missingFields: [] } });
    // Discarded: the upload and its temp file are gone.
    expect((await editor.http('DELETE', `/api/admin/imports/${up.body.id}`, { headers: { origin: s.url } })).status).toBe(200);
    expect((await editor.http('GET', `/api/admin/imports/${up.body.id}`)).status).toBe(404);
  });
});

describe('Import Data: temp files', () => {
  it('deletes an upload left unused for IMPORT_IDLE_SECONDS', async () => {
    const idle = await startTestServer({ IMPORT_IDLE_SECONDS: '1' });
    try {
      const res = await fetch(`${idle.url}/api/admin/imports?fileName=a.csv`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: 'a,b\n1,2\n' });
      const { id } = (await res.json()) as ImportPreviewDto;
      const file = path.join(os.tmpdir(), `livedash-import-${process.pid}-${id}`);
      expect(fs.existsSync(file)).toBe(true);
      await expect.poll(() => fs.existsSync(file), { timeout: 15_000, interval: 100 }).toBe(false);
    } finally {
      await idle.close();
    }
  });
});
