/**
 * Part of `npm run bench:ingest`: a source's own URL.
 * - single-record POSTs from 16 keep-alive connections (req/s) against a bare node:http server that
 *   parses the same body and answers 200, on a source holding 1,000 records (the POSTs update them,
 *   so it stays at 1,000 as retention would keep it), then into an append-only source at its
 *   retention of 1,000 (each flush inserts and evicts), against the engine's own single-document
 *   inserts from 16 concurrent loops into a collection of the same size (goal ≥ 0.5);
 * - NDJSON, 5,000 lines a request (BENCH_NDJSON_LINES; records/s) against JSON.parse of the same lines;
 * - from a POST's answer to a connected viewer holding the record, p50/p99 at 100 viewers.
 * Ratios against baselines measured in the same run; absolute numbers depend on the engine.
 */
import http from 'node:http';
import mongoose from 'mongoose';
import type { AddressInfo } from 'node:net';
import { ADMIN_TOKEN, type TestServer } from '../../server/test/harness';
import { join, openSocket, type TestSocket } from '../../server/test/sockets';
import { flushCount } from '../../server/records/writer/sourceWriter';

/**
 * The engine's own write rates for bench:ingest's ratios: a collection with the records
 * collection's indexes, and documents shaped as the writer stores them, written by the driver
 * alone (no HTTP, no validation, no group commit).
 */
type Raw = ReturnType<TestServer['app']['ctx']['conn']['collection']>;

/** An empty collection `name` with the same indexes as the records collection. */
export async function rawRecordsCollection(s: TestServer, name: string): Promise<Raw> {
  const { conn, models } = s.app.ctx;
  const raw = conn.collection(name);
  // Emptied, not dropped: the offline engine has no drop command.
  await raw.deleteMany({});
  for (const ix of await models.Record.collection.indexes()) {
    if (ix.name === '_id_') continue;
    await raw.createIndex(ix.key, { name: ix.name, ...(ix.unique ? { unique: true } : {}), ...(ix.partialFilterExpression ? { partialFilterExpression: ix.partialFilterExpression } : {}) });
  }
  return raw;
}

const source = new mongoose.Types.ObjectId();

/** A record as the writer stores it (data, key order, revision and times). */
export function storedRecord(recordId: string, data: Record<string, unknown>) {
  const now = new Date();
  return { _id: new mongoose.Types.ObjectId(), dataSourceId: source, recordId, data, keyOrder: Object.keys(data), revision: 1, createdAt: now, lastUpdated: now, recordedAt: now };
}

/** Single-document inserts from `connections` concurrent loops for `seconds`, into a collection already holding `held` documents; answers inserts/s. */
export async function singleInsertRate(s: TestServer, held: number, connections: number, seconds: number, record: (n: number) => Record<string, unknown>): Promise<number> {
  const raw = await rawRecordsCollection(s, 'bench_raw_single');
  for (let i = 0; i < held; i += 1000) await raw.insertMany(Array.from({ length: Math.min(1000, held - i) }, (_, j) => storedRecord(`held-${i + j}`, record(i + j))));
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const i = n++;
        await raw.insertOne(storedRecord(`single-${i}`, record(i)));
      }
    }),
  );
  const rate = (n / (performance.now() - t0)) * 1000;
  await raw.deleteMany({});
  return rate;
}

const CONNECTIONS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const NDJSON_LINES = Number(process.env.BENCH_NDJSON_LINES ?? 5_000);
const NDJSON_REQUESTS = Number(process.env.BENCH_NDJSON_REQUESTS ?? 1);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 100);
const LATENCY_POSTS = Number(process.env.BENCH_LATENCY_POSTS ?? 50);

const ticket = (i: number, round: number) => ({
  ticket_id: `T-${String(i).padStart(6, '0')}`,
  subject: `Customer cannot complete checkout on step ${i % 7} (round ${round})`,
  status: ['open', 'in progress', 'closed'][i % 3],
  priority: ['high', 'medium', 'low'][i % 3],
  created_at: new Date(1_700_000_000_000 + i * 60_000).toISOString(),
});

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

/** One POST with node:http (no client timeout: a large body on the offline engine takes minutes). */
function postOnce(url: string, headers: Record<string, string>, payload: string): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(payload) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** POSTs from `CONNECTIONS` keep-alive connections for SECONDS; answers req/s. */
async function hammer(url: string, headers: Record<string, string>, body: (n: number) => string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const target = new URL(url);
  let sent = 0;
  let done = 0;
  const end = performance.now() + SECONDS * 1000;
  const post = (payload: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(payload) } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(payload);
    });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        await post(body(sent++));
        done++;
      }
    }),
  );
  agent.destroy();
  return (done / (performance.now() - t0)) * 1000;
}

/** The baseline: a bare node:http server that reads and parses the body, then answers 200. */
async function bareServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

export async function benchSourceUrl(s: TestServer): Promise<void> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` };
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'bench url', primaryKey: 'ticket_id' } })).body;
  const fill = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: Array.from({ length: 1000 }, (_, i) => ticket(i, 0)) });
  if (fill.status !== 200) throw new Error(`pre-fill answered ${fill.status}`);
  const url = `${s.url}/api/data/sources/${ds.sourceId}/records`;

  // 1. single-record POSTs, 16 keep-alive connections.
  const bare = await bareServer();
  const bareRate = await hammer(bare.url, headers, (n) => JSON.stringify(ticket(n % 1000, 1)));
  await bare.close();
  const flushesBefore = flushCount(s.app.ctx);
  let apiRequests = 0;
  const apiRate = await hammer(url, headers, (n) => {
    apiRequests++;
    return JSON.stringify(ticket(n % 1000, 2));
  });
  const flushes = flushCount(s.app.ctx) - flushesBefore;
  const count = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=1`)).body.total;
  console.log(`\nA source's URL (engine ${s.app.ctx.db.mode}):`);
  console.log(`single-record POSTs, ${CONNECTIONS} keep-alive connections, ${count.toLocaleString()} records held: ${Math.round(apiRate)} req/s; bare node:http parsing the same bodies: ${Math.round(bareRate)} req/s; ratio ${(apiRate / bareRate).toFixed(3)}`);
  console.log(`  ${apiRequests} requests written in ${flushes} flushes (${(apiRequests / Math.max(1, flushes)).toFixed(1)} requests a flush)`);

  // 1b. the same into an append-only source holding its retention of 1,000 records: every flush inserts and evicts.
  const log = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'bench url append-only', appendOnly: true, retention: { maxRecords: 1000 } } })).body;
  const logFill = await s.http('POST', `/api/data/sources/${log.sourceId}/records`, { body: Array.from({ length: 1000 }, (_, i) => ticket(i, 0)) });
  if (logFill.status !== 200) throw new Error(`pre-fill answered ${logFill.status}`);
  const logFlushesBefore = flushCount(s.app.ctx);
  let logRequests = 0;
  const logRate = await hammer(`${s.url}/api/data/sources/${log.sourceId}/records`, headers, (n) => {
    logRequests++;
    return JSON.stringify(ticket(n, 2));
  });
  const logFlushes = flushCount(s.app.ctx) - logFlushesBefore;
  const held = (await s.http('GET', `/api/data/raw?dataSourceId=${log.id}&limit=1`)).body.total;
  // The engine's own single-document inserts, 16 at a time, into a collection of the size the records collection had meanwhile.
  const collectionSize = await s.app.ctx.models.Record.estimatedDocumentCount();
  const insertRate = await singleInsertRate(s, collectionSize, CONNECTIONS, SECONDS, (n) => ticket(n, 2));
  console.log(`single-record POSTs into an append-only source at its retention (${held.toLocaleString()} records held after): ${Math.round(logRate)} req/s; ratio ${(logRate / bareRate).toFixed(3)}; ${logRequests} requests in ${logFlushes} flushes`);
  console.log(
    `  the engine's own insertOne, ${CONNECTIONS} at a time, into a collection of ${collectionSize.toLocaleString()} documents: ${Math.round(insertRate)} inserts/s; ` +
      `append-only POSTs ÷ it ${(logRate / insertRate).toFixed(2)}${logRate / insertRate < 0.5 ? ' ✗' : ''} (goal ≥ 0.5); keyed POSTs (updates) ÷ it ${(apiRate / insertRate).toFixed(2)}`,
  );
  await s.http('DELETE', `/api/admin/data-sources/${log.id}`);

  // 2. NDJSON, BENCH_NDJSON_LINES lines a request, into a source keyed by ticket_id (the first request inserts, the next update).
  const nd = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'bench ndjson', primaryKey: 'ticket_id' } })).body;
  const bodies = Array.from({ length: NDJSON_REQUESTS }, (_, r) => Array.from({ length: NDJSON_LINES }, (_, i) => JSON.stringify(ticket(i, r))).join('\n'));
  let t = performance.now();
  for (const b of bodies) for (const line of b.split('\n')) JSON.parse(line);
  const parseRate = ((NDJSON_LINES * NDJSON_REQUESTS) / (performance.now() - t)) * 1000;
  t = performance.now();
  for (const b of bodies) {
    const res = await postOnce(`${s.url}/api/data/sources/${nd.sourceId}/records`, { ...headers, 'content-type': 'application/x-ndjson' }, b);
    if (res.status !== 200) throw new Error(`NDJSON answered ${res.status}: ${res.text.slice(0, 200)}`);
  }
  const ndRate = ((NDJSON_LINES * NDJSON_REQUESTS) / (performance.now() - t)) * 1000;
  console.log(`NDJSON, ${NDJSON_LINES.toLocaleString()} lines a request × ${NDJSON_REQUESTS}: ${Math.round(ndRate)} records/s; JSON.parse of the same lines: ${Math.round(parseRate)} records/s; ratio ${(ndRate / parseRate).toFixed(4)}`);
  // The viewers' part runs on the 1,000-record source; the NDJSON source goes (the offline engine's writes grow with the collection).
  await s.http('DELETE', `/api/admin/data-sources/${nd.id}`);

  // 3. from a POST's answer to 100 connected viewers holding the record.
  const dash = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'bench viewers', description: '', dataSourceId: ds.id, configuration: { keyMappings: {}, refreshInterval: 30_000 } } })).body;
  await s.http('PATCH', `/api/admin/dashboards/${dash.id}`, { body: { isPublished: true } });
  const viewers: TestSocket[] = [];
  for (let i = 0; i < VIEWERS; i++) {
    const v = await openSocket(s.url);
    const ack = await join(v, 'dashboard:join', dash.id);
    if (!ack.ok) throw new Error('viewer could not join');
    viewers.push(v);
  }
  const afterAnswer: number[] = [];
  const afterSend: number[] = [];
  let beforeAnswer = 0;
  for (let n = 0; n < LATENCY_POSTS; n++) {
    const record = { ...ticket(5000 + n, 3), ticket_id: `L-${n}` };
    const arrivals = viewers.map(
      (v) =>
        new Promise<number>((resolve) => {
          const on = (e: { records: { recordId: string }[] }) => {
            if (!e.records.some((r) => r.recordId === record.ticket_id)) return;
            v.off('records:upserted', on);
            resolve(performance.now());
          };
          v.on('records:upserted', on);
        }),
    );
    const sent = performance.now();
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(record) });
    await res.text();
    const answered = performance.now();
    for (const at of await Promise.all(arrivals)) {
      afterSend.push(at - sent);
      if (at < answered) beforeAnswer++;
      afterAnswer.push(Math.max(0, at - answered));
    }
  }
  for (const v of viewers) v.disconnect();

  console.log(`POST → ${VIEWERS} viewers holding the record (${LATENCY_POSTS} POSTs): from the answer p50 ${percentile(afterAnswer, 50).toFixed(1)} ms, p99 ${percentile(afterAnswer, 99).toFixed(1)} ms (${beforeAnswer} of ${afterAnswer.length} arrived before the answer: 0); from sending p50 ${percentile(afterSend, 50).toFixed(1)} ms, p99 ${percentile(afterSend, 99).toFixed(1)} ms`);
}
