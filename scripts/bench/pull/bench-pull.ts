/**
 * `npm run bench:pull`: rows per second pulled into a data source by an integration — from
 * PostgreSQL (Debian's PostgreSQL 15, started here) and from an HTTP JSON API (a child process on
 * loopback) — against the engine's own insertMany of the same records in the same batch sizes
 * (goal ≥ 0.8; as bench:ingest measures it: each round from an empty collection, the median of
 * BENCH_ROUNDS alternating rounds). The pull is the whole path: POST /sync, the provider's reads
 * (a count and keyset batches of 1,000 rows, or cursor pages of 1,000), the ingest writer, the
 * cursor and progress stored per page; it ends at the `sync.completed` event. Beside it, the ingest
 * writer alone with the same records (what the room calls per page), to tell the providers' and
 * the room's share of the time from the writer's. Rounds alternate which source goes first.
 *
 * Then memory: peak RSS and heap of this process (the server runs in it) over a baseline, sampled
 * every 20 ms, while it pulls 10,000 and BENCH_BIG_ROWS (100,000) rows from PostgreSQL — flat when
 * the two peaks are alike. On the offline engine every write costs time growing with the square
 * of the collection, so there the big source keeps its newest BENCH_RETENTION records (default
 * 1,000; none on MongoDB): every row is still read, checked and written.
 */
import { spawn } from 'node:child_process';
import type { IntegrationDto } from '@common/schemas/integration';
import { findDataSource } from '../../../server/core';
import { ensureIntegrationDataSource } from '../../../server/dataSources';
import { upsertRecordsIntoSource } from '../../../server/records';
import { postgresPages } from '../../../server/integrations/postgres/reader';
import { startTestServer, type TestServer } from '../../../server/test/harness';
import { startPostgres, type SqlServer } from '../../../server/integrations/sql/test/sqlServers';
import { rawRecordsCollection, storedRecord } from '../benchSourceUrl';

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000);
const BIG = Number(process.env.BENCH_BIG_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 1_000;
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** The same ~300-byte tickets as the API child, as a table. */
async function fillTickets(db: SqlServer, rows: number): Promise<void> {
  await db.sql(`CREATE TABLE tickets (n integer PRIMARY KEY, ticket_id text NOT NULL, subject text, status text, priority text, assignee text, created_at timestamptz, channel text, region text)`);
  await db.sql(`INSERT INTO tickets SELECT g, 'T-' || lpad(g::text, 7, '0'), 'Customer cannot complete checkout on step ' || (g % 7),
    (ARRAY['open', 'in progress', 'closed'])[g % 3 + 1], (ARRAY['high', 'medium', 'low'])[g % 3 + 1], (ARRAY['Ada Lovelace', 'Grace Hopper', 'Alan Turing'])[g % 3 + 1],
    to_timestamp(1700000000 + g * 60), 'email', 'EMEA' FROM generate_series(1, ${rows}) g`);
  await db.addReader('bench', 'bench-reader-pw');
}

async function startUpstream(): Promise<{ url: string; hostPort: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/pull/upstream.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /PORT=(\d+)/.exec(d.toString());
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the API child exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, hostPort: `127.0.0.1:${port}`, stop: () => child.kill() };
}

/** Creates an integration, runs one sync to its end and answers the rows it read per second (and the integration). */
async function pull(s: TestServer, type: string, config: Record<string, unknown>, before?: (dto: IntegrationDto) => Promise<void>): Promise<{ rows: number; ms: number; dto: IntegrationDto }> {
  const created = await s.http<IntegrationDto>('POST', '/api/integrations', { body: { name: `bench ${type}`, type, config } });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
  const dto = created.body;
  await before?.(dto);
  const done = new Promise<{ records: number }>((resolve, reject) => {
    const offDone = s.app.ctx.events.on('sync.completed', (e) => e.integrationId === dto.id && (offDone(), offFail(), resolve({ records: e.recordsProcessed })));
    const offFail = s.app.ctx.events.on('sync.failed', (e) => e.integrationId === dto.id && (offDone(), offFail(), reject(new Error(`the sync failed: ${e.message}`))));
  });
  const t = performance.now();
  const offTrace = process.env.BENCH_TRACE ? s.app.ctx.events.on('sync.progress', (e) => e.integrationId === dto.id && console.log(`  ${(performance.now() - t).toFixed(0)} ms ${e.progress.message}`)) : () => {};
  const started = await s.http('POST', `/api/integrations/${dto.id}/sync`, { body: {} });
  if (started.status !== 202) throw new Error(`sync answered ${started.status}: ${started.text}`);
  const { records } = await done;
  offTrace();
  return { rows: records, ms: performance.now() - t, dto };
}

/** The engine's own insertMany of the same records in batches of 1,000, into an empty collection with the records' indexes. */
async function insertManyRate(s: TestServer, records: Record<string, unknown>[], key: string): Promise<number> {
  const raw = await rawRecordsCollection(s, 'bench_pull_insert');
  const docs = records.map((r) => storedRecord(String(r[key]), r));
  const t = performance.now();
  for (let i = 0; i < docs.length; i += BATCH) await raw.insertMany(docs.slice(i, i + BATCH));
  const ms = performance.now() - t;
  await raw.deleteMany({});
  return rate(docs.length, ms);
}

/**
 * The ingest writer alone (what the room calls for each page) with the same records in the same
 * batches, into a new source: what a pull could reach if reading, cursors and progress cost nothing.
 */
async function writerRate(s: TestServer, records: Record<string, unknown>[], key: string): Promise<number> {
  const created = await s.http<{ sourceId: string }>('POST', '/api/admin/data-sources', { body: { name: 'bench writer' } });
  const t = performance.now();
  for (let i = 0; i < records.length; i += BATCH) {
    const ds = (await findDataSource(s.app.ctx, created.body.sourceId))!;
    await upsertRecordsIntoSource(s.app.ctx, ds, records.slice(i, i + BATCH).map((record, index) => ({ index, record })), key);
  }
  return rate(records.length, performance.now() - t);
}

/**
 * Peak RSS of this process over what it held before, sampled every 20 ms while `fn` runs, and its
 * peak live heap: the heap right after a forced collection every 2 s (the heap's size between
 * collections is garbage waiting, not what the pull holds).
 */
async function peakOf<T>(fn: () => Promise<T>): Promise<{ value: T; rss: number; live: number }> {
  gc();
  const before = process.memoryUsage();
  let rss = before.rss;
  let live = before.heapUsed;
  const fast = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 20);
  const slow = setInterval(() => {
    gc();
    live = Math.max(live, process.memoryUsage().heapUsed);
  }, 2_000);
  try {
    const value = await fn();
    return { value, rss: rss - before.rss, live: live - before.heapUsed };
  } finally {
    clearInterval(fast);
    clearInterval(slow);
  }
}

async function main() {
  const db = await startPostgres();
  await fillTickets(db, Math.max(ROWS, BIG));
  const upstream = await startUpstream();
  const s = await startTestServer({
    OUTBOUND_ALLOWED_HOSTS: `${db.hostPort},${upstream.hostPort}`,
    INTEGRATION_BATCH_RECORDS: String(BATCH),
    ZENDESK_SCHEDULER_TICK_MS: '0',
  });
  const offline = s.app.ctx.db.mode.includes('jongodb');
  const retention = Number(process.env.BENCH_RETENTION ?? (offline ? 1_000 : 0));
  const pgConfig = (rows: number) => ({ connectionString: db.url('bench', 'bench-reader-pw'), query: `SELECT * FROM tickets WHERE n <= ${rows}`, primaryKey: 'n' });
  const apiConfig = (rows: number) => ({ url: `${upstream.url}/tickets?limit=${BATCH}&total=${rows}`, recordsPath: 'data', pagination: { type: 'cursor', param: 'cursor', path: 'next' }, primaryKey: 'ticket_id' });
  console.log(`engine: ${s.app.ctx.db.mode}; ${ROWS.toLocaleString('en-US')} rows of ~${JSON.stringify((await import('./upstream')).ticket(1)).length} bytes a round, batches of ${BATCH}, ${ROUNDS} rounds`);

  // The records each pull stores, read once beforehand for the insertMany baseline.
  const pgRecords: Record<string, unknown>[] = [];
  for await (const page of postgresPages({ ...pgConfig(ROWS) }, null, { allowedHosts: [db.hostPort], maxBatch: BATCH })) pgRecords.push(...page.records);
  const { ticket } = await import('./upstream');
  const apiRecords = Array.from({ length: ROWS }, (_, i) => ticket(i + 1) as Record<string, unknown>);

  // Warm-up: the first pull compiles the code paths; insertMany below runs warm too.
  await pull(s, 'postgres', pgConfig(BATCH));
  await pull(s, 'api', apiConfig(BATCH));

  const results: Record<string, { pull: number[]; insert: number[]; writer: number[] }> = { PostgreSQL: { pull: [], insert: [], writer: [] }, 'HTTP API': { pull: [], insert: [], writer: [] } };
  for (let r = 0; r < ROUNDS; r++) {
    const order = [
      ['PostgreSQL', 'postgres', pgConfig(ROWS), pgRecords, 'n'],
      ['HTTP API', 'api', apiConfig(ROWS), apiRecords, 'ticket_id'],
    ] as const;
    for (const [label, type, config, records, key] of r % 2 ? [...order].reverse() : order) {
      await s.reset();
      const p = await pull(s, type, config);
      if (p.rows !== ROWS) throw new Error(`${label}: the pull read ${p.rows} rows, not ${ROWS}`);
      await s.reset();
      results[label].pull.push(rate(p.rows, p.ms));
      results[label].insert.push(await insertManyRate(s, records, key));
      await s.reset();
      results[label].writer.push(await writerRate(s, records, key));
    }
  }
  console.log('\nsource        pull rows/s   engine insertMany rows/s   pull / insertMany by round   median (goal ≥ 0.8)   ingest writer alone rows/s   pull / writer (median)');
  for (const [label, r] of Object.entries(results)) {
    const ratios = r.pull.map((p, i) => p / r.insert[i]);
    const m = median(ratios);
    const w = median(r.pull.map((p, i) => p / r.writer[i]));
    console.log(`${label.padEnd(12)} ${String(median(r.pull)).padStart(12)}   ${String(median(r.insert)).padStart(24)}   ${ratios.map((x) => x.toFixed(2)).join(', ').padEnd(27)}   ${`${m.toFixed(2)}${m < 0.8 ? ' ✗' : ''}`.padEnd(19)}   ${String(median(r.writer)).padStart(26)}   ${w.toFixed(2)}`);
  }

  // Memory: the same pull of 10,000 rows, then of BIG rows.
  const keep = async (dto: IntegrationDto) => {
    if (!retention) return;
    // The integration's source made now (the sync finds it), so that its retention holds from the first batch.
    const ds = await ensureIntegrationDataSource(s.app.ctx, { sourceId: `INT_${dto.id}`, name: dto.name, description: '', integrationId: dto.id, primaryKey: 'n' });
    const res = await s.http('PATCH', `/api/admin/data-sources/${ds._id}`, { body: { retention: { maxRecords: retention } } });
    if (res.status !== 200) throw new Error(`retention answered ${res.status}: ${res.text}`);
  };
  console.log(`\nmemory of this process (server and reader) over its baseline while pulling from PostgreSQL${retention ? `; the source keeps its newest ${retention.toLocaleString('en-US')} records (offline engine)` : ''}:`);
  console.log('rows        rows/s   peak RSS over baseline   peak live heap over baseline (after GC, every 2 s)');
  for (const rows of [10_000, BIG]) {
    await s.reset();
    const { value, rss, live } = await peakOf(() => pull(s, 'postgres', pgConfig(rows), keep));
    console.log(`${rows.toLocaleString('en-US').padEnd(10)} ${String(rate(value.rows, value.ms)).padStart(7)}   ${mb(rss).padStart(22)}   ${mb(live).padStart(20)}`);
  }

  await s.close();
  upstream.stop();
  await db.stop();
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
