/**
 * `npm run bench:import`: Import Data from upload to done — the 1,461-row Seattle weather CSV
 * (vega-datasets) into a new source keyed by date, and a generated 50,000-row CSV appended to a
 * source — rows/s against csv-parse of the same bytes alone (ratio, same run), peak RSS of this
 * process (the server runs in it) sampled every 20 ms during the 50,000-row import, then the export
 * of that source (rows/s, peak RSS). On the offline engine every write costs time that grows with
 * the square of the collection, so the 50,000-row source keeps its newest BENCH_RETENTION records
 * (default 500 there, none on MongoDB): the import still reads, checks and writes every row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parse } from 'csv-parse/sync';
import type { ImportPlan, ImportPreviewDto, ImportProgressDto } from '@common/schemas/imports';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../server/test/harness';
import { nextWhere, openSocket, type TestSocket } from '../../server/test/sockets';

const require = createRequire(import.meta.url);
const weather = fs.readFileSync(path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data', 'seattle-weather.csv'));
const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function generated(rows: number): Buffer {
  const lines = ['id,at,city,status,amount,note'];
  const cities = ['Zürich', 'Paris', 'São Paulo', 'Tokyo', 'Lagos'];
  for (let i = 1; i <= rows; i++) {
    lines.push(`${i},${new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString()},${cities[i % 5]},${['open', 'closed'][i % 2]},${(i % 997) / 10},"row ${i}, with a comma"`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Peak RSS of this process while `fn` runs, sampled every 20 ms. */
async function peakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peak: number; before: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const value = await fn();
    return { value, peak: Math.max(peak, process.memoryUsage().rss), before };
  } finally {
    clearInterval(timer);
  }
}

/** Upload → run → done (followed over Socket.IO as the screen does), in milliseconds; `onProgress` sees each push. */
async function importFile(s: TestServer, socket: TestSocket, bytes: Buffer, fileName: string, plan: (p: ImportPreviewDto) => ImportPlan, onProgress?: (e: ImportProgressDto) => void): Promise<{ ms: number; end: ImportProgressDto }> {
  const t = performance.now();
  const res = await fetch(`${s.url}/api/admin/imports?fileName=${fileName}`, { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: new Uint8Array(bytes) });
  const preview = (await res.json()) as ImportPreviewDto;
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(preview)}`);
  await new Promise((resolve) => socket.emit('import:join', preview.id, resolve));
  const on = (e: ImportProgressDto) => e.id === preview.id && onProgress?.(e);
  socket.on('import:progress', on);
  const end = nextWhere(socket, 'import:progress', (e) => e.id === preview.id && e.state !== 'running', 15 * 60_000);
  const started = await s.http('POST', `/api/admin/imports/${preview.id}/run`, { body: plan(preview) });
  if (started.status !== 202) throw new Error(`run answered ${started.status}: ${JSON.stringify(started.body)}`);
  const last = await end;
  socket.off('import:progress', on);
  if (last.state !== 'done') throw new Error(`import ${last.state}: ${last.message}`);
  return { ms: performance.now() - t, end: last };
}

/** csv-parse of the same bytes alone: the baseline. */
function parseMs(bytes: Buffer): number {
  const t = performance.now();
  const rows = parse(bytes, { bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  if (rows.length < 2) throw new Error('nothing parsed');
  return performance.now() - t;
}

const planOf = (p: ImportPreviewDto, target: ImportPlan['target'], key: string | null): ImportPlan => ({
  settings: p.settings, columns: p.columns.map((c) => ({ name: c.name, field: c.name, type: c.type })), target, key, mode: 'append',
});

async function main() {
  const s = await startTestServer({ LOG_LEVEL: 'error' });
  const offline = s.app.ctx.db.mode === 'embedded-jongodb';
  const retention = Number(process.env.BENCH_RETENTION ?? (offline ? 500 : 0));
  const socket = await openSocket(s.url, ADMIN_TOKEN);
  console.log(`engine: ${s.app.ctx.db.mode}; batches of 500 rows`);

  // 1. The 1,461-row CSV into a new source keyed by date.
  const small = await importFile(s, socket, weather, 'seattle-weather.csv', (p) => planOf(p, { kind: 'new', name: 'Seattle weather' }, 'date'));
  const smallParse = parseMs(weather);
  console.log(`1,461-row CSV (${(weather.length / 1024).toFixed(0)} KB): upload to done ${small.ms.toFixed(0)} ms, ${rate(1461, small.ms)} rows/s; csv-parse alone ${smallParse.toFixed(1)} ms (${rate(1461, smallParse)} rows/s); ratio ${(smallParse / small.ms).toFixed(3)}`);

  // The offline engine's writes grow with the whole records collection: the weather source goes first.
  await s.http('DELETE', `/api/admin/data-sources/${small.end.dataSourceId}`);

  // 2. 50,000 generated rows appended to a source (retention on the offline engine, see above).
  const big = generated(ROWS);
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Generated', appendOnly: true, ...(retention ? { retention: { maxRecords: retention } } : {}) } })).body;
  global.gc?.();
  // RSS as the rows go in: flat once the first batches are written (streamed, not held).
  const byTenth: string[] = [];
  const sample = (e: ImportProgressDto) => {
    if (e.written < ((byTenth.length + 1) * ROWS) / 5) return;
    // After a full collection (node --expose-gc) the heap shows what is really held.
    global.gc?.();
    const m = process.memoryUsage();
    byTenth.push(`${e.written.toLocaleString('en-US')}: RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)}`);
  };
  const run = await peakRss(() => importFile(s, socket, big, 'generated.csv', (p) => planOf(p, { kind: 'existing', dataSourceId: ds.id }, null), sample));
  const bigParse = parseMs(big);
  const { ms, end } = run.value;
  console.log(`${ROWS.toLocaleString('en-US')}-row CSV (${mb(big.length)}): upload to done ${(ms / 1000).toFixed(1)} s, ${rate(end.written, ms)} rows/s (${end.written} written, ${end.rejected} rejected${retention ? `, source keeps the newest ${retention}` : ''}); csv-parse alone ${bigParse.toFixed(0)} ms (${rate(ROWS, bigParse)} rows/s); ratio ${(bigParse / ms).toFixed(3)}`);
  console.log(`  peak RSS during the import ${mb(run.peak)} (before ${mb(run.before)}, +${mb(run.peak - run.before)}; the file is ${mb(big.length)}, the benchmark holds it too)`);
  console.log(`  memory by rows written: ${byTenth.join(', ')}`);
  // What Socket.IO keeps for connection recovery (every broadcast, RECOVERY_WINDOW_MS long).
  const kept = (s.app.realtime.io.of('/').adapter as unknown as { packets?: { data: unknown }[] }).packets ?? [];
  console.log(`  Socket.IO recovery buffer now: ${kept.length} packets, ~${mb(kept.reduce((n, p) => n + JSON.stringify(p.data).length, 0))} as JSON`);

  // 3. Export of the same source (CSV, streamed from a cursor).
  global.gc?.();
  const exp = await peakRss(async () => {
    const t = performance.now();
    const res = await fetch(`${s.url}/api/admin/data-sources/${ds.id}/export?format=csv`, { headers: auth });
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) for (const b of chunk) if (b === 10) lines++;
    return { rows: lines - 1, ms: performance.now() - t };
  });
  console.log(`export CSV of that source: ${exp.value.rows.toLocaleString('en-US')} rows in ${exp.value.ms.toFixed(0)} ms, ${rate(exp.value.rows, exp.value.ms)} rows/s; peak RSS ${mb(exp.peak)} (before ${mb(exp.before)}, +${mb(exp.peak - exp.before)})`);
  socket.close();
  await s.close();
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
