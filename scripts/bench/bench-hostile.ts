/**
 * `npm run bench:hostile`: hostile ingest bodies against the real server (run in this process, so
 * its event loop can be watched) while another thread (its own event loop) asks `/livez` every
 * 20 ms; then a large source (hostile/largeSource.ts, BENCH_RECORDS records, default 60,000): 10
 * heavy alert rules created, a write with them, the first anonymous view, the CSV export. Per case:
 * the answer's status, the longest event-loop delay of the server process (perf_hooks
 * monitorEventLoopDelay) and the worst `/livez` latency seen while it was handled (the loop alone:
 * no database in it, so the offline engine's own slowness on a large collection does not count).
 * Goals: event loop ≤ 50 ms, /livez ≤ 100 ms. BENCH_ONLY=<substring> runs only the cases whose label
 * holds it, BENCH_SKIP=<substring> all others; BENCH_LARGE=0 leaves the large source out, BENCH_LARGE=only
 * runs it alone.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import { startTestServer } from '../../server/test/harness';
import { largeSourceCases } from './hostile/largeSource';

const LOOP_GOAL_MS = 50;
const HEALTH_GOAL_MS = 100;

/** The health poller: its own thread, so a blocked server loop shows as a slow answer, not a late question. */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
let worst = 0, stopped = false, generation = 0;
parentPort.on('message', (m) => {
  const answer = worst;
  // A question sent before the reset (the server was busy with the last body) does not count for the next.
  if (m === 'reset') { worst = 0; generation++; }
  if (m === 'stop') stopped = true;
  parentPort.postMessage(answer);
});
(async () => {
  while (!stopped) {
    const t = performance.now(), asked = generation;
    try { await (await fetch(workerData.url + '/livez')).arrayBuffer(); } catch {}
    if (asked === generation) worst = Math.max(worst, performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  process.exit(0);
})();
`;

/**
 * The sender: its own thread too, so the client's work on a 15 MB body (copying it to the socket,
 * reading the answer) is not counted as the server's loop.
 */
const SENDER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ url, headers, body }) => {
  try {
    if (!body) {
      // A GET: the answer's bytes are counted here, not carried back (a 20 MB view read by this process would count as the server's work).
      const res = await fetch(url, { headers });
      const size = (await res.arrayBuffer()).byteLength;
      return parentPort.postMessage({ status: res.status, text: '', size });
    }
    const res = await fetch(url, { method: 'POST', headers, body: new Uint8Array(body) });
    parentPort.postMessage({ status: res.status, text: await res.text() });
  } catch (e) {
    parentPort.postMessage({ status: 'reset', text: '', error: e instanceof Error ? e.message : String(e) });
  }
});
`;

interface HostileBody {
  label: string;
  path: 'source' | 'ingest';
  type: string;
  body: () => Buffer | string;
  encoding?: string;
}

const csvRow = (n: number, cell: (i: number) => string) => Array.from({ length: n }, (_, i) => cell(i)).join(',');
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

/**
 * 1 GB of spaces as gzip, built in milliseconds: the same 1 MB member repeated (a gzip stream may
 * hold several members; the reader inflates them one after another). gzipSync of 1 GB took seconds
 * of this process's own loop, which the health poller then read as the server's.
 */
function gzipBomb(): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 });
  return Buffer.concat(Array.from({ length: 1024 }, () => member));
}

function bodies(sourceId: string): HostileBody[] {
  return [
    { label: 'wide CSV, 100,000 columns', path: 'source', type: 'text/csv', body: () => `${csvRow(100_000, (i) => `c${i}`)}\n${csvRow(100_000, () => '1')}\n` },
    { label: 'wide CSV, 150,000 columns', path: 'source', type: 'text/csv', body: () => `${csvRow(150_000, (i) => `c${i}`)}\n${csvRow(150_000, () => '1')}\n` },
    { label: 'CSV rows of 100,000 cells (header of 3)', path: 'source', type: 'text/csv', body: () => `a,b,c\n${Array.from({ length: 20 }, () => csvRow(100_000, () => 'x')).join('\n')}\n` },
    { label: 'CSV, one 15 MB cell', path: 'source', type: 'text/csv', body: () => `a,b\n1,${'x'.repeat(15 * 1024 * 1024)}\n` },
    { label: 'CSV, 1,000 rows', path: 'source', type: 'text/csv', body: () => `id,name,score\n${Array.from({ length: 1_000 }, (_, i) => `${i},name ${i},${i % 97}`).join('\n')}\n` },
    { label: 'CSV, 1,000,000 tiny rows', path: 'source', type: 'text/csv', body: () => `a\n${'1\n'.repeat(1_000_000)}` },
    { label: 'JSON nested 100,000 levels (source URL)', path: 'source', type: 'application/json', body: () => deep(100_000) },
    { label: 'JSON nested 100,000 levels (/ingest)', path: 'ingest', type: 'application/json', body: () => `{"sourceId":"${sourceId}","records":${deep(100_000)}}` },
    { label: 'JSON nested 5,000,000 levels (10 MB)', path: 'source', type: 'application/json', body: () => deep(5_000_000) },
    { label: 'JSON array, 1,000,000 small records', path: 'source', type: 'application/json', body: () => `[${'{"v":1},'.repeat(999_999)}{"v":1}]` },
    { label: 'JSON, one record of 100,000 fields', path: 'source', type: 'application/json', body: () => JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`f${i}`, i]))) },
    { label: 'JSON, one 15 MB string', path: 'source', type: 'application/json', body: () => JSON.stringify({ a: 'x'.repeat(15 * 1024 * 1024) }) },
    { label: 'JSON (/ingest), 1,000 records of 100 fields', path: 'ingest', type: 'application/json', body: () => JSON.stringify({ sourceId, records: Array.from({ length: 1_000 }, (_, i) => Object.fromEntries(Array.from({ length: 100 }, (_, f) => [`f${f}`, i]))) }) },
    { label: 'NDJSON, 1,000,000 small lines', path: 'source', type: 'application/x-ndjson', body: () => '{"v":1}\n'.repeat(1_000_000) },
    { label: 'NDJSON, one 15 MB line', path: 'source', type: 'application/x-ndjson', body: () => `{"a":"${'x'.repeat(15 * 1024 * 1024)}"}\n` },
    { label: 'NDJSON, 10,000 lines nested 1,000 deep', path: 'source', type: 'application/x-ndjson', body: () => `${deep(1_000)}\n`.repeat(10_000) },
    { label: 'gzip bomb, 1 GB of zeros (1 MB sent)', path: 'source', type: 'application/json', encoding: 'gzip', body: gzipBomb },
  ];
}

async function main() {
  const s = await startTestServer({ RATE_LIMIT_INGEST: '1000000', RATE_LIMIT_AUTH_FAILURES: '1000000', LOG_LEVEL: 'warn' });
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'hostile', appendOnly: true } })).body as { sourceId: string; ingestKey: string };
  const poller = new Worker(POLLER, { eval: true, workerData: { url: s.url } });
  poller.on('error', (e) => console.error('health poller failed', e));
  const ask = (m: string) => new Promise<number>((resolve) => {
    poller.once('message', resolve);
    poller.postMessage(m);
  });
  const sender = new Worker(SENDER, { eval: true });
  sender.on('error', (e) => console.error('sender failed', e));
  const send = (url: string, headers: Record<string, string>, body: Uint8Array) => new Promise<{ status: number | 'reset'; text: string; error?: string }>((resolve) => {
    sender.once('message', resolve);
    sender.postMessage({ url, headers, body: body.buffer }, [body.buffer as ArrayBuffer]);
  });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  // The garbage collector's longest pause in each case: a pause holds the loop whatever the code does.
  let gcMax = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMax = Math.max(gcMax, e.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  const only = process.env.BENCH_ONLY;
  const skip = process.env.BENCH_SKIP;
  const wanted = (label: string) => !((only && !label.includes(only)) || (skip && label.includes(skip)));
  const rows: string[][] = [];
  /** Runs one case with the loop and the health poller watching; one row of the table. */
  const measure = async (label: string, size: number | undefined, work: () => Promise<{ status: string; size?: number; note?: string }>) => {
    await new Promise((r) => setTimeout(r, 50));
    loop.reset();
    gcMax = 0;
    await ask('reset');
    const t = performance.now();
    const res = await work();
    const answerMs = performance.now() - t;
    // Work the answer left behind (announcements, caches) counts too.
    await new Promise((r) => setTimeout(r, 100));
    const loopMs = loop.max / 1e6;
    const healthMs = await ask('read');
    const bytes = size ?? res.size;
    rows.push([
      label, bytes === undefined ? '' : `${(bytes / 1024 / 1024).toFixed(1)} MB`, res.status, `${Math.round(answerMs)}`, `${Math.round(loopMs)}${loopMs > LOOP_GOAL_MS ? ' ✗' : ''}`,
      `${Math.round(healthMs)}${healthMs > HEALTH_GOAL_MS ? ' ✗' : ''}`, `${Math.round(gcMax)}`, res.note ?? '',
    ]);
    console.log(rows[rows.length - 1].join(' | '));
  };
  console.log(`engine: ${s.app.ctx.db.mode}; goals: event loop ≤ ${LOOP_GOAL_MS} ms, /livez ≤ ${HEALTH_GOAL_MS} ms`);
  for (const b of process.env.BENCH_LARGE === 'only' ? [] : bodies(ds.sourceId)) {
    if (!wanted(b.label)) continue;
    // Encoded before the watch starts: only the server's work is measured.
    const built = b.body();
    const body = new Uint8Array(typeof built === 'string' ? Buffer.from(built) : built);
    await measure(b.label, body.length, async () => {
      const headers: Record<string, string> = { 'content-type': b.type, 'x-ingest-key': ds.ingestKey };
      if (b.encoding) headers['content-encoding'] = b.encoding;
      const path = b.path === 'ingest' ? '/api/data/ingest' : `/api/data/sources/${ds.sourceId}/records`;
      const res = await send(s.url + path, headers, body);
      const message = res.error ?? (res.status !== 'reset' && res.status >= 400 ? ((JSON.parse(res.text) as { error?: { message?: string } }).error?.message ?? '').slice(0, 70) : '');
      return { status: String(res.status), note: message };
    });
  }
  // A large source: heavy alert rules, a write with them, the first view, the export (hostile/largeSource.ts).
  const get = (path: string, headers: Record<string, string>) => new Promise<{ status: string; size: number }>((resolve) => {
    sender.once('message', (m: { status: number | string; size?: number }) => resolve({ status: String(m.status), size: m.size ?? 0 }));
    sender.postMessage({ url: s.url + path, headers });
  });
  const large = process.env.BENCH_LARGE === '0' ? [] : await largeSourceCases(s, get, (line) => console.log(line));
  for (const c of large) {
    if (!wanted(c.label)) continue;
    const rss = process.memoryUsage().rss;
    await measure(c.label, undefined, async () => {
      const res = await c.run();
      return { ...res, note: `${res.note ? `${res.note}; ` : ''}RSS ${Math.round(rss / 1048576)} → ${Math.round(process.memoryUsage().rss / 1048576)} MB` };
    });
  }
  console.log('\n| case | size | status | answer ms | event loop max ms | /livez worst ms | longest GC pause ms | message |\n|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  gc.disconnect();
  await ask('stop');
  await sender.terminate();
  await poller.terminate();
  await s.close();
  const failed = rows.filter((r) => r[4].includes('✗') || r[5].includes('✗')).length;
  console.log(failed ? `\n${failed} case${failed === 1 ? '' : 's'} over a goal` : '\nevery case within the goals');
  // Bounded: whatever handle the server left open (a keep-alive, a worker) does not hold the run.
  process.exit(failed ? 1 : 0);
}

void main();
