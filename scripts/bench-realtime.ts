/**
 * `npm run bench:realtime`: ingest-to-viewer latency (p50 / p99) with 100 and 1,000 connected
 * viewers, against a bare Socket.IO broadcast of the same payload to the same viewers in the same
 * run, and the bytes a viewer receives per minute from pushes versus the old 30 s full refetch.
 * Everything runs on loopback and stops by itself. BENCH_VIEWERS=100,1000,10000 to change sizes.
 */
import { rooms, type RecordsUpserted } from '../common/realtime';
import { demoTickets } from '../server/services/seedDemo';
import { ADMIN_TOKEN, startTestServer } from '../server/test/harness';
import { join, openSocket, type TestSocket } from '../server/test/sockets';

const SIZES = (process.env.BENCH_VIEWERS ?? '100,1000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function main() {
  const s = await startTestServer();
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'bench' } })).body;
  await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: demoTickets(150) } });
  const dash = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'bench', dataSourceId: ds.id, isPublished: true } })).body;
  const io = s.app.realtime.io;
  console.log(`engine: ${s.app.ctx.db.mode}; ${ROUNDS} rounds per size; one changed record per ingest`);
  console.log('viewers   ingest→viewer p50 / p99 ms   bare broadcast p50 / p99 ms   ratio p50 / p99');

  let frameBytes = 0;
  const viewers: TestSocket[] = [];
  for (const size of SIZES) {
    while (viewers.length < size) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, size - viewers.length) }, () => openSocket(s.url)));
      await Promise.all(batch.map((v) => join(v, 'dashboard:join', dash.id)));
      viewers.push(...batch);
    }
    const measure = async (trigger: (n: number) => Promise<void> | void) => {
      const lat: number[] = [];
      for (let n = 0; n < ROUNDS; n++) {
        const t0 = performance.now();
        const all = Promise.all(
          viewers.map((v) => new Promise<void>((resolve) => v.once('records:upserted', (e: RecordsUpserted) => {
            lat.push(performance.now() - t0);
            if (!frameBytes) frameBytes = Buffer.byteLength(JSON.stringify(['records:upserted', e]));
            resolve();
          }))),
        );
        await trigger(n);
        await all;
      }
      return lat;
    };
    const ingest = await measure(async (n) => {
      const res = await fetch(`${s.url}/api/data/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ sourceId: ds.sourceId, records: [{ ...demoTickets(1)[0], status: n % 2 ? 'open' : 'closed' }] }),
      });
      await res.arrayBuffer();
    });
    const sample = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=1`)).body.records;
    const payload: RecordsUpserted = { dashboardId: dash.id, dataSourceId: ds.id, revision: 0, total: 150, part: 0, parts: 1, records: sample };
    const bare = await measure(() => {
      io.to(rooms.dashboard(dash.id)).emit('records:upserted', payload);
    });
    const [i50, i99, b50, b99] = [pct(ingest, 50), pct(ingest, 99), pct(bare, 50), pct(bare, 99)];
    console.log(
      `${String(size).padStart(7)}   ${i50.toFixed(1).padStart(12)} / ${i99.toFixed(1).padEnd(12)}   ${b50.toFixed(1).padStart(13)} / ${b99.toFixed(1).padEnd(13)}   ${(i50 / b50).toFixed(1)} / ${(i99 / b99).toFixed(1)}`,
    );
  }
  viewers.forEach((v) => v.disconnect());

  const full = Buffer.byteLength((await s.http('GET', `/api/dashboards/${dash.id}`, { token: null })).text);
  const perMinute = (changesPerMinute: number) => changesPerMinute * frameBytes;
  console.log(`\nbytes per viewer per minute (150-record dashboard; push frame ${frameBytes} B, full refetch ${full} B):`);
  for (const changes of [1, 10, 60]) {
    console.log(`  ${String(changes).padStart(2)} changed records/min: push ${perMinute(changes)} B vs 30 s refetch ${2 * full} B — ${((2 * full) / perMinute(changes)).toFixed(1)}× less`);
  }
  console.log('  (with nothing changing, the fallback refetch answers 304 Not Modified with an empty body)');
  await s.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
