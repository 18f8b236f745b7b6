/**
 * `npm run bench:hostile`: hostile ingest bodies against the real server (run in this process, so
 * its event loop can be watched) while another thread (its own event loop) asks `/api/health` every
 * 10 ms. Per body: the answer's status, the longest event-loop delay of the server process
 * (perf_hooks monitorEventLoopDelay) and the worst `/api/health` latency seen while it was handled.
 * Goals: event loop ≤ 50 ms, health ≤ 100 ms. BENCH_ONLY=<substring> runs only the bodies whose label
 * holds it, BENCH_SKIP=<substring> all others.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import { startTestServer } from '../../server/test/harness';

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
    try { await (await fetch(workerData.url + '/api/health')).arrayBuffer(); } catch {}
    if (asked === generation) worst = Math.max(worst, performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
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
  const s = await startTestServer({ RATE_LIMIT_INGEST: '1000000', RATE_LIMIT_AUTH_FAILURES: '1000000' });
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
  const only = process.env.BENCH_ONLY;
  const skip = process.env.BENCH_SKIP;
  const rows: string[][] = [];
  console.log(`engine: ${s.app.ctx.db.mode}; goals: event loop ≤ ${LOOP_GOAL_MS} ms, /api/health ≤ ${HEALTH_GOAL_MS} ms`);
  for (const b of bodies(ds.sourceId)) {
    if ((only && !b.label.includes(only)) || (skip && b.label.includes(skip))) continue;
    // Encoded before the watch starts: only the server's work is measured.
    const built = b.body();
    const body = new Uint8Array(typeof built === 'string' ? Buffer.from(built) : built);
    const size = body.length;
    await new Promise((r) => setTimeout(r, 50));
    loop.reset();
    await ask('reset');
    const t = performance.now();
    const headers: Record<string, string> = { 'content-type': b.type, 'x-ingest-key': ds.ingestKey };
    if (b.encoding) headers['content-encoding'] = b.encoding;
    const path = b.path === 'ingest' ? '/api/data/ingest' : `/api/data/sources/${ds.sourceId}/records`;
    let message: string;
    const res = await send(s.url + path, headers, body);
    const status = String(res.status);
    if (res.error) message = res.error;
    else message = res.status !== 'reset' && res.status >= 400 ? ((JSON.parse(res.text) as { error?: { message?: string } }).error?.message ?? '').slice(0, 70) : '';
    const answerMs = performance.now() - t;
    // Work the answer left behind (announcements, caches) counts too.
    await new Promise((r) => setTimeout(r, 100));
    const loopMs = loop.max / 1e6;
    const healthMs = await ask('read');
    rows.push([b.label, `${(size / 1024 / 1024).toFixed(1)} MB`, status, `${Math.round(answerMs)}`, `${Math.round(loopMs)}${loopMs > LOOP_GOAL_MS ? ' ✗' : ''}`, `${Math.round(healthMs)}${healthMs > HEALTH_GOAL_MS ? ' ✗' : ''}`, message]);
    console.log(rows[rows.length - 1].join(' | '));
  }
  console.log('\n| body | size | status | answer ms | event loop max ms | /api/health worst ms | message |\n|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  await ask('stop');
  await sender.terminate();
  await poller.terminate();
  await s.close();
  const failed = rows.filter((r) => r[4].includes('✗') || r[5].includes('✗')).length;
  console.log(failed ? `\n${failed} bod${failed === 1 ? 'y' : 'ies'} over a goal` : '\nevery body within the goals');
  // Bounded: whatever handle the server left open (a keep-alive, a worker) does not hold the run.
  process.exit(failed ? 1 : 0);
}

void main();
