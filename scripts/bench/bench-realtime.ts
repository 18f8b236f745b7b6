/**
 * `npm run bench:realtime`: ingest-to-viewer latency (p50 / p99) against a baseline broadcast of the
 * same payload to the same kind of viewers in the same run, and the bytes a viewer receives per
 * minute from pushes versus the old 30 s full refetch. Viewers live in child processes
 * (scripts/bench/bench-viewers.ts); everything runs on loopback and stops by itself.
 * - socket.io-client viewers (BENCH_VIEWERS, default 100,1000): ingest vs a bare Socket.IO broadcast.
 *   Their own decoding shares the two cores, so at large sizes the clients dominate.
 * - minimal viewers (BENCH_MINIMAL_VIEWERS, default 1000,10000): raw WebSockets speaking the
 *   Engine.IO/Socket.IO frames, not decoding them — the server's own cost: ingest (from the POST's
 *   send, the HTTP write included) vs a bare `ws` broadcast of a frame of the same size to the same
 *   kind of clients; goal p99 ≤ 1.3 × the bare broadcast. Also the POST's own answer time (the
 *   sender is answered before the fan-out), and the fan-out alone: each arrival from its round's
 *   answer, against the same bare broadcast (the database write, the offline engine's, left out).
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { WebSocketServer } from 'ws';
import { rooms, type RecordsUpserted } from '../../common/realtime';
import { demoTickets } from '../../server/demo/seedDemo';
import { ADMIN_TOKEN, startTestServer } from '../../server/test/harness';
import type { ViewerKind } from './bench-viewers';

const SIZES = (process.env.BENCH_VIEWERS ?? '100,1000').split(',').filter(Boolean).map(Number);
const MINIMAL_SIZES = (process.env.BENCH_MINIMAL_VIEWERS ?? '1000,10000').split(',').filter(Boolean).map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
/** Viewers per child process (the open-file limit is per process; socket.io-client viewers also cost CPU each). */
const PER_PROCESS: Record<ViewerKind, number> = { socketio: 2500, minimal: 5000, ws: 5000 };
const GOAL_RATIO = 1.3;

type Reply = { type: 'up' } | { type: 'grown'; count: number } | { type: 'armed' } | { type: 'dropped' } | { type: 'received'; times: number[]; bytes: number };

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

/** The viewer processes, grown to `size` viewers of one kind for a measurement, then emptied. */
class Viewers {
  private readonly procs: ChildProcess[] = [];
  frameBytes = 0;

  async with<T>(kind: ViewerKind, size: number, url: string, dashboardId: string, fn: (measure: (trigger: (n: number) => Promise<void> | void, rounds?: number[][]) => Promise<number[]>) => Promise<T>): Promise<T> {
    const need = Math.ceil(size / PER_PROCESS[kind]);
    while (this.procs.length < need) {
      const p = viewerProcess();
      await reply(p, 'up');
      this.procs.push(p);
    }
    const shares = this.procs.map((_, i) => Math.min(PER_PROCESS[kind], Math.max(0, size - i * PER_PROCESS[kind])));
    await Promise.all(this.procs.map((p, i) => {
      p.send({ cmd: 'grow', kind, url, dashboardId, count: shares[i] });
      return reply(p, 'grown');
    }));
    const active = this.procs.filter((_, i) => shares[i] > 0);
    /** Every viewer's latency of every round, from the trigger; `rounds` gets them round by round. */
    const measure = async (trigger: (n: number) => Promise<void> | void, rounds?: number[][]) => {
      const lat: number[] = [];
      for (let n = 0; n < ROUNDS; n++) {
        await Promise.all(active.map((p) => {
          p.send({ cmd: 'arm' });
          return reply(p, 'armed');
        }));
        const received = Promise.all(active.map((p) => reply(p, 'received')));
        const t0 = now();
        await trigger(n);
        const round: number[] = [];
        for (const r of await received) {
          this.frameBytes ||= r.bytes;
          round.push(...r.times.map((t) => t - t0));
        }
        lat.push(...round);
        rounds?.push(round);
      }
      return lat;
    };
    try {
      return await fn(measure);
    } finally {
      await Promise.all(active.map((p) => {
        p.send({ cmd: 'drop' });
        return reply(p, 'dropped');
      }));
    }
  }

  stop() {
    this.procs.forEach((p) => p.send({ cmd: 'stop' }));
  }
}

const ms = (x: number) => x.toFixed(1);

const SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', async (body) => {
  const t = performance.now();
  const res = await fetch(workerData.url, { method: 'POST', headers: workerData.headers, body });
  await res.arrayBuffer();
  parentPort.postMessage({ status: res.status, ms: performance.now() - t });
});
`;

async function main() {
  const s = await startTestServer();
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'bench' } })).body;
  await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: demoTickets(150) } });
  const dash = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'bench', dataSourceId: ds.id, isPublished: true } })).body;
  const io = s.app.realtime.io;
  const url = `${s.url}/api/data/ingest`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` };
  // The sender is a thread of its own: the server's fan-out on this thread does not delay its reading of the answer.
  const sender = new Worker(SENDER, { eval: true, workerData: { url, headers } });
  /** One changed record through the API; answers the time from its send to its answer, as the sender saw it. */
  const ingestOne = (n: number) =>
    new Promise<number>((resolve, reject) => {
      sender.once('message', (m: { status: number; ms: number }) => (m.status === 200 ? resolve(m.ms) : reject(new Error(`ingest answered ${m.status}`))));
      sender.postMessage(JSON.stringify({ sourceId: ds.sourceId, records: [{ ...demoTickets(1)[0], status: n % 2 ? 'open' : 'closed' }] }));
    });
  const sample = (await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=1`)).body.records;
  const payload: RecordsUpserted = { dataSourceId: ds.id, revision: 0, total: 150, part: 0, parts: 1, records: sample };
  console.log(`engine: ${s.app.ctx.db.mode}; ${ROUNDS} rounds per size; one changed record per ingest; viewers in child processes`);

  const viewers = new Viewers();
  try {
    if (SIZES.length) {
      console.log('\nsocket.io-client viewers');
      console.log('viewers   ingest→viewer p50 / p99 ms   bare Socket.IO broadcast p50 / p99 ms   ratio p50 / p99');
    }
    for (const size of SIZES) {
      const [ingest, bare] = await viewers.with('socketio', size, s.url, dash.id, async (measure) => [
        await measure(async (n) => void (await ingestOne(n))),
        await measure(() => void io.to(rooms.dashboard(dash.id)).emit('records:upserted', payload)),
      ]);
      const [i50, i99, b50, b99] = [pct(ingest, 50), pct(ingest, 99), pct(bare, 50), pct(bare, 99)];
      console.log(`${String(size).padStart(7)}   ${ms(i50).padStart(12)} / ${ms(i99).padEnd(12)}   ${ms(b50).padStart(24)} / ${ms(b99).padEnd(12)}   ${(i50 / b50).toFixed(1)} / ${(i99 / b99).toFixed(1)}`);
    }

    if (MINIMAL_SIZES.length) {
      // The bare baseline: a `ws` server in this process (as the app's is) sending a frame of the
      // same text to every client, each send a write of its own.
      const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
      await new Promise<void>((r) => wss.once('listening', () => r()));
      const wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
      const frame = Buffer.from(`42${JSON.stringify(['records:upserted', payload])}`);
      console.log(`\nminimal viewers (raw Engine.IO/Socket.IO frames, not decoded) vs a bare ws broadcast of a ${frame.length}-byte frame; goal p99 ≤ ${GOAL_RATIO} ×`);
      console.log('viewers   ingest→viewer p50 / p99 ms   POST answered p50 / p99 ms   bare ws broadcast p50 / p99 ms   ratio p99   fan-out after the answer p50 / p99 ms, ratio p99');
      for (const size of MINIMAL_SIZES) {
        const answers: number[] = [];
        const rounds: number[][] = [];
        const ingest = await viewers.with('minimal', size, s.url, dash.id, (measure) => measure(async (n) => void answers.push(await ingestOne(n)), rounds));
        // The server's own fan-out: each viewer's arrival from its round's answer (the database write left out).
        const fanOut = rounds.flatMap((round, i) => round.map((t) => t - answers[i]));
        const bare = await viewers.with('ws', size, wsUrl, dash.id, (measure) =>
          measure(() => {
            for (const c of wss.clients) c.send(frame, { binary: false });
          }),
        );
        const ratio = pct(ingest, 99) / pct(bare, 99);
        const fanRatio = pct(fanOut, 99) / pct(bare, 99);
        console.log(
          `${String(size).padStart(7)}   ${ms(pct(ingest, 50)).padStart(12)} / ${ms(pct(ingest, 99)).padEnd(12)}   ${ms(pct(answers, 50)).padStart(15)} / ${ms(pct(answers, 99)).padEnd(10)}   ${ms(pct(bare, 50)).padStart(17)} / ${ms(pct(bare, 99)).padEnd(12)}   ${ratio.toFixed(2)}${ratio > GOAL_RATIO ? ' ✗' : '  '}      ${ms(pct(fanOut, 50)).padStart(12)} / ${ms(pct(fanOut, 99)).padEnd(8)} ${fanRatio.toFixed(2)}`,
        );
      }
      await new Promise<void>((r) => wss.close(() => r()));
    }
  } finally {
    viewers.stop();
    await sender.terminate();
  }
  const frameBytes = viewers.frameBytes;

  const full = Buffer.byteLength((await s.http('GET', `/api/dashboards/${dash.id}`, { token: null })).text);
  console.log(`\nbytes per viewer per minute (150-record dashboard; push frame ${frameBytes} B, full refetch ${full} B):`);
  for (const changes of [1, 10, 60]) {
    console.log(`  ${String(changes).padStart(2)} changed records/min: push ${changes * frameBytes} B vs 30 s refetch ${2 * full} B — ${((2 * full) / (changes * frameBytes)).toFixed(1)}× less`);
  }
  console.log('  (with nothing changing, the fallback refetch answers 304 Not Modified with an empty body)');
  await s.close();
  // Bounded: a viewer process or keep-alive left behind does not hold the run.
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
