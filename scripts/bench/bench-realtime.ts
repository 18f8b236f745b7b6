/**
 * `npm run bench:realtime`: ingest-to-viewer latency (p50 / p99) with 100, 1,000 and 10,000
 * connected viewers, against a bare Socket.IO broadcast of the same payload to the same viewers in
 * the same run, and the bytes a viewer receives per minute from pushes versus the old 30 s full
 * refetch. Viewers live in child processes (scripts/bench/bench-viewers.ts); everything runs on
 * loopback and stops by itself. BENCH_VIEWERS=100,1000 to change sizes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { rooms, type RecordsUpserted } from '../../common/realtime';
import { demoTickets } from '../../server/demo/seedDemo';
import { ADMIN_TOKEN, startTestServer } from '../../server/test/harness';

const SIZES = (process.env.BENCH_VIEWERS ?? '100,1000,10000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const PER_PROCESS = 2500;

type Reply = { type: 'up' } | { type: 'grown'; count: number } | { type: 'armed' } | { type: 'received'; times: number[]; bytes: number };

const now = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

function viewerProcess(): ChildProcess {
  return fork('scripts/bench/bench-viewers.ts', { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}
const reply = <T extends Reply['type']>(p: ChildProcess, type: T) =>
  new Promise<Extract<Reply, { type: T }>>((resolve) => {
    const on = (m: Reply) => {
      if (m.type !== type) return;
      p.off('message', on);
      resolve(m as Extract<Reply, { type: T }>);
    };
    p.on('message', on);
  });

async function main() {
  const s = await startTestServer();
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'bench' } })).body;
  await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: demoTickets(150) } });
  const dash = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'bench', dataSourceId: ds.id, isPublished: true } })).body;
  const io = s.app.realtime.io;
  console.log(`engine: ${s.app.ctx.db.mode}; ${ROUNDS} rounds per size; one changed record per ingest; viewers in child processes`);
  console.log('viewers   ingest→viewer p50 / p99 ms   bare broadcast p50 / p99 ms   ratio p50 / p99');

  const procs: ChildProcess[] = [];
  let frameBytes = 0;
  try {
    for (const size of SIZES) {
      const need = Math.ceil(size / PER_PROCESS);
      while (procs.length < need) {
        const p = viewerProcess();
        await reply(p, 'up');
        procs.push(p);
      }
      const shares = procs.map((_, i) => Math.min(PER_PROCESS, Math.max(0, size - i * PER_PROCESS)));
      await Promise.all(procs.map((p, i) => {
        p.send({ cmd: 'grow', url: s.url, dashboardId: dash.id, count: shares[i] });
        return reply(p, 'grown');
      }));
      const active = procs.filter((_, i) => shares[i] > 0);
      const measure = async (trigger: (n: number) => Promise<void> | void) => {
        const lat: number[] = [];
        for (let n = 0; n < ROUNDS; n++) {
          await Promise.all(active.map((p) => {
            p.send({ cmd: 'arm' });
            return reply(p, 'armed');
          }));
          const received = Promise.all(active.map((p) => reply(p, 'received')));
          const t0 = now();
          await trigger(n);
          for (const r of await received) {
            frameBytes ||= r.bytes;
            lat.push(...r.times.map((t) => t - t0));
          }
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
  } finally {
    procs.forEach((p) => p.send({ cmd: 'stop' }));
  }

  const full = Buffer.byteLength((await s.http('GET', `/api/dashboards/${dash.id}`, { token: null })).text);
  console.log(`\nbytes per viewer per minute (150-record dashboard; push frame ${frameBytes} B, full refetch ${full} B):`);
  for (const changes of [1, 10, 60]) {
    console.log(`  ${String(changes).padStart(2)} changed records/min: push ${changes * frameBytes} B vs 30 s refetch ${2 * full} B — ${((2 * full) / (changes * frameBytes)).toFixed(1)}× less`);
  }
  console.log('  (with nothing changing, the fallback refetch answers 304 Not Modified with an empty body)');
  await s.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
