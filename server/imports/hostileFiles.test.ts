import fs from 'node:fs';
import { eventually } from '../test/eventually';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_MAX_BYTES } from '@common/constants';
import type { DryRunDto, ImportPlan, ImportPreviewDto, ImportProgressDto } from '@common/schemas/imports';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';

/** Uploads left by processes that stopped (a pid that cannot run, and the older name without one), and one of this live process. */
const orphans = [path.join(os.tmpdir(), 'livedash-import-999999999-0badf11e'), path.join(os.tmpdir(), 'livedash-import-0bdf11e')];
const ours = path.join(os.tmpdir(), `livedash-import-${process.pid}-11fe`);

let s: TestServer;
beforeAll(async () => {
  for (const f of [...orphans, ours]) fs.writeFileSync(f, 'a\n1\n');
  s = await startTestServer();
});
afterAll(async () => {
  fs.rmSync(ours, { force: true });
  await s?.close();
});

async function upload(body: string, fileName: string) {
  const res = await fetch(`${s.url}/api/admin/imports?fileName=${encodeURIComponent(fileName)}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${ADMIN_TOKEN}` }, body });
  return { status: res.status, body: (await res.json()) as ImportPreviewDto & { error: { code: string; message: string } } };
}
const planOf = (p: ImportPreviewDto, name: string): ImportPlan => ({
  settings: p.settings, columns: p.columns.map((c) => ({ name: c.name, field: c.name, type: c.type })), target: { kind: 'new', name }, key: null, mode: 'append',
});
const dryRun = (id: string, plan: ImportPlan) => s.http<DryRunDto>('POST', `/api/admin/imports/${id}/dry-run`, { body: plan });

/** Starts an import and waits for it to end (its status polled). */
async function runToEnd(id: string, plan: ImportPlan): Promise<ImportProgressDto> {
  expect((await s.http('POST', `/api/admin/imports/${id}/run`, { body: plan })).status).toBe(202);
  return eventually(async () => {
    const p = (await s.http<ImportProgressDto>('GET', `/api/admin/imports/${id}`)).body;
    return p.state !== 'running' && p;
  }, { timeout: 30_000, interval: 50, what: 'the import to end' });
}
const sourceNames = async () => ((await s.http('GET', '/api/data/sources')).body as { name: string }[]).map((d) => d.name);

describe('Import Data: hostile files', () => {
  it('removes at start-up the uploads of processes that stopped, not those of a live one', () => {
    for (const f of orphans) expect(fs.existsSync(f), f).toBe(false);
    expect(fs.existsSync(ours)).toBe(true);
  });

  it('answers 400 naming the depth limit for a JSON or NDJSON file nested 100,000 levels; a deep row among others is rejected alone', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const json = await upload(`[${deep}]`, 'deep.json');
    expect(json.status).toBe(400);
    expect(json.body.error).toEqual({ code: 'json_too_deep', message: 'The file cannot be read: element 1 is nested deeper than the limit of 64 levels' });
    const nd = await upload(`{"a":${deep}}\n`, 'deep.ndjson');
    expect(nd.status).toBe(400);
    expect(nd.body.error.message).toBe('The file cannot be read: line 1 is nested deeper than the limit of 64 levels');
    const mixed = await upload(`{"a":1}\n{"a":${deep}}\n{"a":3}\n`, 'mixed.ndjson');
    expect(mixed.status).toBe(201);
    expect(mixed.body.problems).toEqual([{ row: 2, reason: 'line 2 is nested deeper than the limit of 64 levels' }]);
    expect((await dryRun(mixed.body.id, planOf(mixed.body, 'Mixed'))).body).toMatchObject({ read: 3, inserted: 2, rejected: 1 });
  });

  it(`rejects a row over ${RECORD_MAX_BYTES / 1024 / 1024} MB alone, in the dry run and the import; the others land`, async () => {
    const big = await upload(`id,text\n1,${'x'.repeat(RECORD_MAX_BYTES)}\n2,ok\n3,fine\n`, 'big.csv');
    expect(big.status).toBe(201);
    const plan = planOf(big.body, 'Big cells');
    const reason = 'record is 4 MB of text; the limit is 4 MB per record';
    expect((await dryRun(big.body.id, plan)).body).toMatchObject({ read: 3, inserted: 2, rejected: 1, rejections: [{ row: 1, reason }] });
    const end = await runToEnd(big.body.id, plan);
    expect(end).toMatchObject({ state: 'done', written: 2, rejected: 1 });
  });

  it('removes the new data source an import created when the import fails', async () => {
    const file = await upload('a,b\n1,x\n2,y\n', 'fails.csv');
    // The upload's temp file vanishes (a temp cleaner) once the import has made its source and begins to write.
    const off = s.app.ctx.events.on('import.progress', (p) => {
      if (p.id !== file.body.id || p.state !== 'running' || !p.dataSourceId) return;
      off();
      fs.rmSync(path.join(os.tmpdir(), `livedash-import-${process.pid}-${p.id}`));
    });
    const end = await runToEnd(file.body.id, planOf(file.body, 'Half made'));
    expect(end.state).toBe('failed');
    expect(end.message).toMatch(/^Failed: ENOENT: .+\. The data source "Half made" it created was removed\.$/);
    expect(await sourceNames()).not.toContain('Half made');
  });

  it('types a column named "__proto__" like any other; its rows are rejected with the reason, to rename or skip it', async () => {
    const file = await upload('__proto__,b\n12.5,x\n7,y\n', 'proto.csv');
    expect(file.status).toBe(201);
    expect(file.body.columns).toEqual([{ name: '__proto__', type: 'number' }, { name: 'b', type: 'text' }]);
    const run = await dryRun(file.body.id, planOf(file.body, 'Proto'));
    expect(run.body).toMatchObject({ inserted: 0, rejected: 2 });
    expect(run.body.rejections[0].reason).toContain('field name "__proto__" is not allowed');
    const renamed = planOf(file.body, 'Proto');
    renamed.columns[0].field = 'proto';
    expect((await dryRun(file.body.id, renamed)).body).toMatchObject({ inserted: 2, rejected: 0 });
  });
});
