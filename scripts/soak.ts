/**
 * `npm run soak`: a day of traffic, compressed — single-record POSTs from four senders into an
 * append-only source keeping 500 records, anonymous viewers on its published dashboard, health
 * sampled every 5 s. Prints one row per minute: POST p50/p99, answer → first viewer holding the
 * record p50/p99, the server's RSS and heap after a full GC, the engine's RSS, the most records
 * held (API count, raw read, any viewer) and health latency.
 *
 * The server runs as a child process (`node --expose-gc`, the probe in scripts/soak/probe.ts
 * preloaded) on the offline engine, so its memory is its own. Flags or env:
 *   --minutes N (SOAK_MINUTES, 10)   --viewers N (SOAK_VIEWERS, 200)   --rate N req/s (SOAK_RATE, 20)
 *   --snapshots a,b  (SOAK_SNAPSHOTS: heap snapshots at the end of those minutes, into SOAK_DIR; a
 *                    snapshot stops the server for seconds, a minute under heavy load: not in a run you time)
 *   SOAK_NODE_OPTIONS: node flags for the server, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof
 * Extra server settings pass through the environment (e.g. RATE_LIMIT_INGEST).
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../server/test/processes';

const { values: flags } = parseArgs({
  options: { minutes: { type: 'string' }, viewers: { type: 'string' }, rate: { type: 'string' }, snapshots: { type: 'string' } },
});
const MINUTES = Number(flags.minutes ?? process.env.SOAK_MINUTES ?? 10);
const VIEWERS = Number(flags.viewers ?? process.env.SOAK_VIEWERS ?? 200);
const RATE = Number(flags.rate ?? process.env.SOAK_RATE ?? 20);
const SNAPSHOTS = new Set((flags.snapshots ?? process.env.SOAK_SNAPSHOTS ?? '').split(',').filter(Boolean).map(Number));
const DIR = process.env.SOAK_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'soak-'));
const SENDERS = 4;
const KEEP = 500;
const TOKEN = 'soak-admin-token-0123456789';

const now = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const mb = (bytes: number) => bytes / 1024 / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident memory of a process, from /proc (0 when it is gone). */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The offline engine the server started: its child process named jongodb. */
function enginePid(serverPid: number): number | null {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === serverPid && stat.includes('(jongodb')) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

interface Minute {
  post: number[];
  toViewer: number[];
  refused: number;
  apiCount: number;
  rawCount: number;
  viewerHeld: number;
  health: number[];
  healthFailed: number;
}
const minute = (): Minute => ({ post: [], toViewer: [], refused: 0, apiCount: 0, rawCount: 0, viewerHeld: 0, health: [], healthFailed: 0 });

async function main() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server: ChildProcess = fork('server/main.ts', [], {
    // SOAK_NODE_OPTIONS adds node flags to the server (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
    execArgv: ['--expose-gc', '--import', 'tsx', '--import', './scripts/soak/probe.ts', ...(process.env.SOAK_NODE_OPTIONS ?? '').split(' ').filter(Boolean)],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN: TOKEN, DB_ENGINE: 'jongodb', DATA_DIR: ':memory:', SEED_DEMO: 'false', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let asked = 0;
  const ask = <T>(msg: Record<string, unknown>) =>
    new Promise<T>((resolve) => {
      const id = ++asked;
      const on = (m: { id?: number }) => {
        if (m?.id !== id) return;
        server.off('message', on);
        resolve(m as T);
      };
      server.on('message', on);
      server.send({ ...msg, id });
    });
  const stopServer = () => {
    if (server.exitCode === null) server.kill('SIGTERM');
  };
  process.on('SIGINT', () => process.exit(130));
  // Whatever ends this script ends the server (and so its engine) too.
  process.on('exit', () => server.kill('SIGKILL'));

  const api = async (method: string, p: string, body?: unknown, token = TOKEN) => {
    const res = await fetch(url + p, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error('the server exited while starting');
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }

  const ds = (await api('POST', '/api/admin/data-sources', { name: 'Soak', appendOnly: true, timeField: 'at', retention: { maxRecords: KEEP } })).body;
  const dash = (await api('POST', '/api/admin/dashboards', { name: 'Soak', dataSourceId: ds.id, isPublished: true })).body;

  // Viewers in a process of their own (scripts/soak/viewers.ts): it reports when the first of them
  // held each record, the most records any held, and how many were lost.
  const firstHeld = new Map<number, number>();
  const answered = new Map<number, { at: number; m: number }>();
  const minutes: Minute[] = Array.from({ length: MINUTES }, minute);
  let t0 = now();
  const minuteOf = (t: number) => Math.min(MINUTES - 1, Math.max(0, Math.floor((t - t0) / 60_000)));
  const pair = (seq: number) => {
    const a = answered.get(seq);
    const h = firstHeld.get(seq);
    if (a === undefined || h === undefined) return;
    minutes[a.m].toViewer.push(Math.max(0, h - a.at));
    answered.delete(seq);
    firstHeld.delete(seq);
  };
  // 50 viewers a process, as 200 browsers would not share one event loop either.
  const lost = new Map<number, number>();
  const procs = Array.from({ length: Math.ceil(VIEWERS / 50) }, (_, i) => {
    const p = fork('scripts/soak/viewers.ts', [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    p.on('message', (m: { type: string; firsts?: [number, number][]; maxHeld?: number; lost?: number }) => {
      if (m.type !== 'tick') return;
      for (const [seq, t] of m.firsts!) {
        if ((firstHeld.get(seq) ?? Infinity) <= t) continue;
        firstHeld.set(seq, t);
        pair(seq);
      }
      const min = minutes[minuteOf(now() - 1000)];
      min.viewerHeld = Math.max(min.viewerHeld, m.maxHeld!);
      lost.set(i, m.lost!);
    });
    return p;
  });
  await Promise.all(
    procs.map(
      (p, i) =>
        new Promise<void>((resolve, reject) => {
          p.once('message', () => resolve());
          p.once('exit', (code) => reject(new Error(`a viewers' process exited with ${code}`)));
          p.send({ url, dashboardId: dash.id, count: Math.min(50, VIEWERS - i * 50) });
        }),
    ),
  );
  t0 = now();

  console.log(`soak: ${MINUTES} min, ${VIEWERS} viewers, ${RATE} POST/s from ${SENDERS} senders, source keeps ${KEEP}; server pid ${server.pid}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const end = t0 + MINUTES * 60_000;
  let seq = 0;
  // Open loop: each sender keeps its schedule whatever the answers take (a slow server does not slow the load).
  const inFlight = new Set<Promise<void>>();
  const post = async (k: number) => {
    const mine = ++seq;
    const sent = now();
    const res = await fetch(`${url}/api/data/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ds.ingestKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sourceId: ds.sourceId, records: [{ seq: mine, sender: k, at: new Date().toISOString(), value: Math.random() }] }),
    }).catch(() => null);
    const done = now();
    await res?.arrayBuffer();
    const m = minuteOf(sent);
    minutes[m].post.push(done - sent);
    if (!res || res.status >= 300) {
      minutes[m].refused++;
      return;
    }
    answered.set(mine, { at: done, m });
    pair(mine);
  };
  const sender = async (k: number) => {
    const every = (1000 * SENDERS) / RATE;
    for (let n = 0; ; n++) {
      const due = t0 + k * (every / SENDERS) + n * every;
      if (due >= end) return;
      if (due > now()) await sleep(due - now());
      const p = post(k);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
  };
  const sampler = (async () => {
    while (now() < end) {
      const t = now();
      const m = minutes[minuteOf(t)];
      try {
        const h0 = now();
        await fetch(`${url}/api/health`).then((r) => r.arrayBuffer());
        m.health.push(now() - h0);
        const [one, raw] = await Promise.all([api('GET', '/api/data/sources'), api('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=1000`)]);
        const mine = (one.body as { id: string; recordCount: number }[]).find((d) => d.id === ds.id);
        m.apiCount = Math.max(m.apiCount, mine?.recordCount ?? 0);
        m.rawCount = Math.max(m.rawCount, Math.max(raw.body?.total ?? 0, raw.body?.records?.length ?? 0));
      } catch {
        m.healthFailed++;
      }
      await sleep(Math.max(0, t + 5000 - now()));
    }
  })();

  const header = 'min  POSTs  refused  POST p50/p99 ms  answer→viewer p50/p99 ms  server RSS MB  heap after GC MB  engine RSS MB  held API/raw/viewer  health p50/max ms  load';
  const rows: string[] = [];
  const figures: { p99: number; rss: number; heap: number }[] = [];
  const report = (async () => {
    for (let i = 0; i < MINUTES; i++) {
      await sleep(Math.max(0, t0 + (i + 1) * 60_000 - now()));
      // Receipts of old records (from the slower viewer processes) are of no use any more.
      for (const k of firstHeld.keys()) if (k < seq - 5000) firstHeld.delete(k);
      const mem = await ask<{ rss: number; heapAfterGc: number }>({ probe: 'memory' });
      const engine = enginePid(server.pid!);
      const m = minutes[i];
      const f = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(0));
      const row = [
        String(i).padStart(3),
        String(m.post.length).padStart(6),
        String(m.refused).padStart(8),
        `${f(pct(m.post, 50))} / ${f(pct(m.post, 99))}`.padStart(16),
        `${f(pct(m.toViewer, 50))} / ${f(pct(m.toViewer, 99))}`.padStart(25),
        mb(mem.rss).toFixed(0).padStart(14),
        mb(mem.heapAfterGc).toFixed(1).padStart(17),
        (engine ? mb(rssOf(engine)).toFixed(0) : '-').padStart(14),
        `${m.apiCount}/${m.rawCount}/${m.viewerHeld}`.padStart(20),
        `${f(pct(m.health, 50))} / ${m.health.length ? f(Math.max(...m.health)) : '-'}${m.healthFailed ? ` (${m.healthFailed} failed)` : ''}`.padStart(18),
        os.loadavg()[0].toFixed(2).padStart(5),
      ].join(' ');
      if (i === 0) console.log(header);
      console.log(row);
      rows.push(row);
      figures.push({ p99: pct(m.toViewer, 99), rss: mem.rss, heap: mem.heapAfterGc });
      if (SNAPSHOTS.has(i)) {
        const file = path.join(DIR, `server-min${i}.heapsnapshot`);
        await ask({ probe: 'snapshot', file });
        console.log(`     heap snapshot: ${file}`);
      }
    }
  })();
  await Promise.all([...Array.from({ length: SENDERS }, (_, k) => sender(k)), sampler, report]);
  await Promise.all(inFlight);
  procs.forEach((p) => p.kill());
  const lostViewers = [...lost.values()].reduce((a, b) => a + b, 0);
  if (lostViewers) console.log(`viewers lost their connection: ${lostViewers} of ${VIEWERS}`);
  const first = figures.length > 2 ? 2 : 0;
  const [a, z] = [figures[first], figures[figures.length - 1]];
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`goals (minute ${first} → last):`);
  console.log(`  answer→viewer p99 ${a.p99.toFixed(0)} → ${z.p99.toFixed(0)} ms (≤ 1.25×: ${verdict(z.p99 <= 1.25 * a.p99)})`);
  console.log(`  server RSS ${mb(a.rss).toFixed(0)} → ${mb(z.rss).toFixed(0)} MB, ${(((z.rss - a.rss) / a.rss) * 100).toFixed(1)}% (< 10%: ${verdict(z.rss < 1.1 * a.rss)})`);
  console.log(`  heap after GC ${mb(a.heap).toFixed(1)} → ${mb(z.heap).toFixed(1)} MB`);
  const t = Date.now();
  stopServer();
  await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
  console.log(`server stopped with ${server.exitCode ?? server.signalCode} in ${Date.now() - t} ms`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
