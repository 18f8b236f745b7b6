/**
 * `npm run bench:redis-outage`: ingest and admin reads while Redis is up, killed, back, and hung
 * (SIGSTOP: connections open, no answer), against a real redis-server, the server in this process.
 * Per phase, for BENCH_SECONDS (default 10), two closed loops run side by side: single-record
 * POSTs to a source's URL with its ingest key, and `GET /api/admin/dashboards` with a session cookie
 * (both pass the rate limits, which used to wait on Redis). Printed: p50 / p99 per phase, and each
 * outage's p99 ÷ the p99 with Redis up measured in the same run (goal ≤ 2). The hung phase includes
 * the breaker's detection: the first request that asks the silent Redis waits REDIS_COMMAND_TIMEOUT_MS (250 ms).
 */
import { startTestServer } from '../../../server/test/harness';
import { startRedis } from '../../../server/test/processes';
import { buildPerson, buildSource } from '../../../server/test/factories';
import { redisHealthHandle } from '../../../server/core';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const GOAL = 2;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Runs `call` in a closed loop for SECONDS; answers the sorted latencies (ms). A non-2xx answer stops the bench. */
async function loop(label: string, call: () => Promise<Response>): Promise<number[]> {
  const until = performance.now() + SECONDS * 1000;
  const times: number[] = [];
  while (performance.now() < until) {
    const t = performance.now();
    const res = await call();
    await res.arrayBuffer();
    if (res.status >= 300) throw new Error(`${label}: status ${res.status}`);
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

async function main() {
  let redis = await startRedis();
  const s = await startTestServer({ REDIS_URL: redis.url, RATE_LIMIT_INGEST: '1000000', RATE_LIMIT_INGEST_SOURCE: '1000000' });
  const health = redisHealthHandle.of(s.app.ctx);
  // Append-only, keeping 500 records: on the offline engine a write's cost grows with the collection.
  const ds = await buildSource(s, { name: 'Outage', appendOnly: true, retention: { maxRecords: 500 } });
  const admin = await buildPerson(s, 'admin');
  let n = 0;
  const ingest = () => fetch(`${s.url}/api/data/sources/${ds.sourceId}/records`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ds.ingestKey}` }, body: JSON.stringify({ n: n++, at: new Date().toISOString() }) });
  const read = () => fetch(`${s.url}/api/admin/dashboards`, { headers: { cookie: admin.cookie } });
  const phase = async (name: string) => {
    const [ingests, reads] = await Promise.all([loop(`${name} ingest`, ingest), loop(`${name} read`, read)]);
    const row = { name, ingest: ingests, read: reads, redisUp: health.up };
    console.log(`${name.padEnd(22)} ingest p50/p99 ${pct(ingests, 50).toFixed(1)} / ${pct(ingests, 99).toFixed(1)} ms (${ingests.length})   admin read p50/p99 ${pct(reads, 50).toFixed(1)} / ${pct(reads, 99).toFixed(1)} ms (${reads.length})   breaker: Redis ${health.up ? 'up' : 'down'}`);
    return row;
  };
  try {
    await phase('warm-up');
    const up = await phase('Redis up');
    await redis.stop();
    const gone = await phase('Redis killed');
    redis = await startRedis(redis.port);
    const deadline = Date.now() + 30_000;
    while (!health.up && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const back = await phase('Redis back');
    redis.pause();
    const hung = await phase('Redis hung (SIGSTOP)');
    redis.resume();
    console.log(`\nratios of p99 to the p99 with Redis up (goal ≤ ${GOAL}):`);
    let over = 0;
    for (const r of [gone, back, hung]) {
      const ri = pct(r.ingest, 99) / pct(up.ingest, 99);
      const rr = pct(r.read, 99) / pct(up.read, 99);
      over += Number(ri > GOAL) + Number(rr > GOAL);
      console.log(`  ${r.name.padEnd(22)} ingest ${ri.toFixed(2)}${ri > GOAL ? ' ✗' : ''}   admin read ${rr.toFixed(2)}${rr > GOAL ? ' ✗' : ''}`);
    }
    console.log(over ? `\n${over} figure(s) over the goal` : '\nevery figure within the goal');
    process.exitCode = over ? 1 : 0;
  } finally {
    await s.close();
    await redis.stop();
  }
  process.exit();
}

void main();
