/**
 * `npm run bench:ingest`: records/s through POST /api/data/ingest (batches of 1,000 records of
 * ~300 bytes; new keys, then the same keys again) against a raw-driver bulkWrite of the same
 * records on the same engine in the same run, and (new keys) against the engine's own insertMany
 * of the same records in the same batch sizes (goal ≥ 0.8; after a warm-up request, the median of
 * BENCH_ROUNDS alternating rounds, each from an empty collection), and CPU per record of the ingest pipeline against
 * JSON.parse of the same bytes. Then a source's own URL (scripts/benchSourceUrl.ts): single-record
 * POSTs against a bare node:http server, NDJSON against JSON.parse, POST → 100 viewers latency.
 * Prints ratios; absolute numbers depend on the engine. BENCH_ONLY=url runs the source URL part only.
 */
import { ADMIN_TOKEN, startTestServer } from '../../server/test/harness';
import { ingestRecords } from '../../server/records/ingest/ingestRecords';
import { benchSourceUrl, rawRecordsCollection, storedRecord } from './benchSourceUrl';

const BATCH = 1000;
const BATCHES = Number(process.env.BENCH_BATCHES ?? 2);
/** Records of each batch the raw bulkWrite upsert baseline writes (BENCH_UPSERT_SAMPLE; all of them: 1000). */
const UPSERT_SAMPLE = Number(process.env.BENCH_UPSERT_SAMPLE ?? 100);
/** Rounds of the API ÷ insertMany comparison (BENCH_ROUNDS): the median is reported. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

function record(i: number, round: number) {
  return {
    ticket_id: `T-${String(i).padStart(7, '0')}`,
    subject: `Customer cannot complete checkout on step ${i % 7} (round ${round})`,
    status: ['open', 'in progress', 'closed'][i % 3],
    priority: ['high', 'medium', 'low'][i % 3],
    assignee: ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'][i % 3],
    created_at: new Date(1_700_000_000_000 + i * 60_000).toISOString(),
    custom_fields: [{ id: 360001, value: 'email' }, { id: 360002, value: 'EMEA' }],
  };
}

const batches = (round: number) => Array.from({ length: BATCHES }, (_, b) => Array.from({ length: BATCH }, (_, j) => record(b * BATCH + j, round)));
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);

async function main() {
  if (process.env.BENCH_ONLY === 'url') {
    const u = await startTestServer({ RATE_LIMIT_INGEST: '1000000' });
    await benchSourceUrl(u);
    await u.close();
    process.exit(0);
  }
  const s = await startTestServer({ INGEST_MAX_RECORDS: String(Math.max(BATCH, 10_000)), RATE_LIMIT_INGEST: '1000000' });
  const { conn } = s.app.ctx;
  console.log(`engine: ${s.app.ctx.db.mode}; ${BATCHES} batches of ${BATCH} records, ~${JSON.stringify(record(1, 1)).length} bytes each`);
  const raw = conn.collection('bench_raw');
  await raw.createIndex({ dataSourceId: 1, recordId: 1 }, { unique: true });
  const post = async (sourceId: string, records: unknown[]) => {
    const res = await fetch(`${s.url}/api/data/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ sourceId, records }),
    });
    if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
  };
  const newSource = async (name: string) => (await s.http('POST', '/api/admin/data-sources', { body: { name } })).body as { sourceId: string };
  // Warm-up: the process's first request compiles its code paths; the engine's insertMany below runs warm too.
  await post((await newSource('warm-up')).sourceId, batches(0)[0]);

  // New keys, API against the engine's own insertMany of the same records in the same batch sizes,
  // each from an empty collection (the offline engine's insert costs grow with the collection),
  // alternating over BENCH_ROUNDS rounds: the median ratio (one round swings with the engine's pauses).
  const inserts = await rawRecordsCollection(s, 'bench_raw_insert');
  const ratios: number[] = [];
  let apiRate = 0;
  let insertRate = 0;
  for (let r = 0; r < ROUNDS; r++) {
    await s.reset();
    const ds = await newSource('bench');
    let t = performance.now();
    for (const records of batches(1)) await post(ds.sourceId, records);
    const api = rate(BATCHES * BATCH, performance.now() - t);
    await inserts.deleteMany({});
    t = performance.now();
    for (const records of batches(1)) await inserts.insertMany(records.map((rec) => storedRecord(rec.ticket_id, rec)));
    const ins = rate(BATCHES * BATCH, performance.now() - t);
    await inserts.deleteMany({});
    ratios.push(api / ins);
    apiRate += api / ROUNDS;
    insertRate += ins / ROUNDS;
  }
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
  console.log(`new keys, api / insertMany by round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${median.toFixed(2)}`);

  const results: Record<string, { api: number; raw: number; insertMany?: number; ratio?: number }> = {};
  for (const [label, round] of [['new keys', 1], ['repeated keys', 2]] as const) {
    // The raw driver's ordered bulkWrite upserts of the same records (the first UPSERT_SAMPLE of
    // each batch: on the offline engine each upsert costs time growing with the collection, tens a
    // second, and the whole set took minutes). Repeated keys: the API path again, over the last round's source.
    let api = Math.round(apiRate);
    if (label === 'repeated keys') {
      const ds = (await s.http('GET', '/api/data/sources')).body.find((d: { name: string }) => d.name === 'bench');
      const t = performance.now();
      for (const records of batches(round)) await post(ds.sourceId, records);
      api = rate(BATCHES * BATCH, performance.now() - t);
    }
    const t = performance.now();
    for (const records of batches(round)) {
      await raw.bulkWrite(
        records.slice(0, UPSERT_SAMPLE).map((r) => ({
          updateOne: { filter: { dataSourceId: 'bench', recordId: r.ticket_id }, update: { $set: { data: r, lastUpdated: new Date() }, $setOnInsert: { createdAt: new Date() } }, upsert: true },
        })),
        { ordered: true },
      );
    }
    const rawMs = performance.now() - t;
    results[label] = { api, raw: rate(BATCHES * Math.min(BATCH, UPSERT_SAMPLE), rawMs) };
    if (label === 'new keys') Object.assign(results[label], { insertMany: Math.round(insertRate), ratio: median });
  }

  // CPU per record: the in-process pipeline (format detection, key checks, escaping, presenting)
  // against JSON.parse of the same bytes. The database's own CPU is in another process.
  const cpuDs = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'cpu' } })).body;
  const bodies = batches(3).map((records) => JSON.stringify({ sourceId: cpuDs.sourceId, records }));
  let c = process.cpuUsage();
  for (const b of bodies) JSON.parse(b);
  const parseUs = process.cpuUsage(c);
  c = process.cpuUsage();
  for (const b of bodies) await ingestRecords(s.app.ctx, JSON.parse(b), { admin: true });
  const pipeUs = process.cpuUsage(c);
  const perRecord = (u: NodeJS.CpuUsage) => (u.user + u.system) / (BATCHES * BATCH);

  console.log(`\nraw bulkWrite: upserts of the first ${Math.min(BATCH, UPSERT_SAMPLE)} records of each batch; engine insertMany: the same records as the API, in the same batches`);
  console.log('scenario        api rec/s   raw bulkWrite rec/s   api / raw   engine insertMany rec/s   api / insertMany (goal ≥ 0.8)');
  for (const [label, r] of Object.entries(results)) {
    const ins = r.insertMany && r.ratio ? `${String(r.insertMany).padStart(23)}   ${r.ratio.toFixed(2)} (median of ${ROUNDS})${r.ratio < 0.8 ? ' ✗' : ''}` : '';
    console.log(`${label.padEnd(15)} ${String(r.api).padStart(9)}   ${String(r.raw).padStart(19)}   ${(r.api / r.raw).toFixed(2).padStart(9)}   ${ins}`);
  }
  console.log(`\nCPU per record: ingest pipeline ${perRecord(pipeUs).toFixed(1)} µs, JSON.parse ${perRecord(parseUs).toFixed(1)} µs, ratio ${(perRecord(pipeUs) / perRecord(parseUs)).toFixed(1)}×`);
  await raw.deleteMany({});
  await s.reset();
  await benchSourceUrl(s);
  await s.close();
  // Bounded: a keep-alive or viewer socket left open does not hold the run.
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
