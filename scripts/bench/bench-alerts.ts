/**
 * `npm run bench:alerts`: how fast an alert reaches its receiver, and what 100 rules cost the
 * write path, in one run on the configured engine (the offline one unless MONGODB_URI is set).
 *
 * 1. Ingest rate into a source with 100 rules and into a twin without, in alternating blocks (same
 *    batches): the ratio is what evaluating on write costs.
 * 2. Latency: 1,000 records/s arrive (20 batches of 50 a second) while "spike" writes make 10 rules
 *    at a time fire, then resolve; from each spike's ingest answer to the first delivery attempt
 *    of each changed rule reaching a local webhook receiver: p50 and p99 over ≥ 200 state changes.
 *
 * Bounded: about a minute. BENCH_SPIKES sets the number of spike cycles (2 state changes × 10 rules each).
 */
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../server/test/harness';
import { startReceiver } from '../../server/test/receiver';

const RULES = 100;
const GROUPS = 10;
const KEYS = 50;
const BATCHES_PER_SECOND = 20;
const SPIKES = Number(process.env.BENCH_SPIKES ?? 12);
const RATE_BATCHES = Number(process.env.BENCH_RATE_BATCHES ?? 100);

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function post(s: TestServer, sourceId: string, records: unknown[]): Promise<number> {
  const res = await fetch(`${s.url}/api/data/ingest`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ sourceId, records }),
  });
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return performance.timeOrigin + performance.now();
}

/** Background records: the same keys again and again (the offline engine's writes grow with the collection's size), values that break no rule. */
let round = 0;
const batch = () => {
  round++;
  return Array.from({ length: KEYS }, (_, i) => ({ id: `k${i}`, g: `g${i % GROUPS}`, v: (i * 7 + round) % 40, note: `round ${round}` }));
};

async function ingestRate(s: TestServer, sourceId: string, batches: number): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < batches; i++) await post(s, sourceId, batch());
  return (batches * KEYS) / ((performance.now() - t) / 1000);
}

async function main() {
  const rx = await startReceiver();
  // 100 rules on one source: past the default cap (ALERT_MAX_RULES_PER_SOURCE, 50).
  const s = await startTestServer({ OUTBOUND_ALLOWED_HOSTS: rx.hostPort, RATE_LIMIT_INGEST: '1000000', RATE_LIMIT_INGEST_SOURCE: '1000000', ALERT_MAX_RULES_PER_SOURCE: '1000', LOG_LEVEL: 'warn' });
  try {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Bench alerts', primaryKey: 'id' } })).body as { id: string; sourceId: string };
    await post(s, ds.sourceId, batch());
    console.log(`engine: ${s.app.ctx.db.mode}; ${RULES} rules on one source, ${KEYS} keys, batches of ${KEYS} records`);

    // 1. The write path's cost of 100 rules: the same batches into a twin source without rules,
    // alternating in blocks so the shared machine's noise falls on both alike.
    const twin = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Bench twin', primaryKey: 'id' } })).body as { id: string; sourceId: string };
    await post(s, twin.sourceId, batch());
    for (let i = 0; i < RULES; i++) {
      const res = await s.http('POST', '/api/admin/alerts', {
        body: {
          name: `Rule ${i}`, dataSourceId: ds.id, metric: 'max', valueField: 'v', filters: [{ field: 'g', operator: 'eq', value: `g${i % GROUPS}` }],
          condition: { operator: 'gt', value: 50 + Math.floor(i / GROUPS) }, channels: [{ type: 'webhook', url: `${rx.url}/r/${i}` }],
        },
      });
      if (res.status !== 201) throw new Error(`alert refused: ${JSON.stringify(res.body)}`);
    }
    await ingestRate(s, twin.sourceId, 10); // warm-up
    let withRules = 0;
    let without = 0;
    for (let block = 0; block < 5; block++) {
      without += await ingestRate(s, twin.sourceId, RATE_BATCHES / 5);
      withRules += await ingestRate(s, ds.sourceId, RATE_BATCHES / 5);
    }
    without /= 5;
    withRules /= 5;
    const n = (x: number) => Math.round(x).toLocaleString('en-US');
    console.log(`ingest rate (one batch at a time): ${n(without)} records/s into a source without rules, ${n(withRules)} into the source with ${RULES} rules — ratio ${(withRules / without).toFixed(2)}`);

    // 2. Latency under 1,000 records/s: batches sent on a schedule, several in flight (concurrent
    // writes of a source are committed together), whatever the answers' pace.
    let running = true;
    let sent = 0;
    const inFlight = new Set<Promise<unknown>>();
    const background = (async () => {
      let next = performance.now();
      while (running) {
        if (inFlight.size < 16) {
          const p = post(s, ds.sourceId, batch()).then(() => (sent += KEYS));
          inFlight.add(p);
          void p.finally(() => inFlight.delete(p));
        }
        next += 1000 / BATCHES_PER_SECOND;
        const wait = next - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      await Promise.all(inFlight);
    })();
    const latencies: number[] = [];
    const started = performance.now();
    for (let spike = 0; spike < SPIKES * 2; spike++) {
      const group = spike % GROUPS;
      const firing = Math.floor(spike / GROUPS) % 2 === 0;
      const rules = Array.from({ length: RULES / GROUPS }, (_, j) => j * GROUPS + group);
      const seen = new Map(rules.map((r) => [r, rx.on(`/r/${r}`).length]));
      const answeredAt = await post(s, ds.sourceId, [{ id: `spike-${group}`, g: `g${group}`, v: firing ? 1000 : 0 }]);
      const deadline = Date.now() + 20_000;
      for (const r of rules) {
        for (;;) {
          const calls = rx.on(`/r/${r}`);
          if (calls.length > seen.get(r)!) {
            latencies.push(calls[seen.get(r)!].at - answeredAt);
            break;
          }
          if (Date.now() > deadline) throw new Error(`rule ${r} sent nothing within 20 s of spike ${spike}`);
          await new Promise((res) => setTimeout(res, 5));
        }
      }
    }
    running = false;
    await background;
    const seconds = (performance.now() - started) / 1000;
    console.log(`latency, ingest answer → first delivery attempt at the receiver, over ${latencies.length} state changes, while ${Math.round(sent / seconds).toLocaleString('en-US')} records/s were written (${BATCHES_PER_SECOND * KEYS} sent for) over ${seconds.toFixed(0)} s:`);
    console.log(`  p50 ${Math.round(quantile(latencies, 0.5))} ms, p99 ${Math.round(quantile(latencies, 0.99))} ms, max ${Math.round(Math.max(...latencies))} ms`);
  } finally {
    await s.close();
    await rx.close();
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
