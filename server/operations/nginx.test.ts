import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config';
import { startDatabase, type DatabaseHandle } from '../core/db/startDatabase';
import { createLogger } from '../core/log';
import { eventually } from '../test/eventually';
import { ADMIN_TOKEN, TEST_ENGINE } from '../test/harness';
import { freePort, startRedis, startServerProcess } from '../test/processes';
import { collect, join, openSocket, type TestSocket } from '../test/sockets';

/**
 * Two server processes sharing a redis-server and a database, behind Debian's nginx running the
 * configuration we ship (server/operations/nginx.conf), only its ports changed.
 */
const NGINX = '/usr/sbin/nginx';
const present = fs.existsSync(NGINX);
if (!present) console.warn('SKIPPED: nginx is not installed (apt-get install nginx)');

type Proc = Awaited<ReturnType<typeof startServerProcess>>;
let redis: Awaited<ReturnType<typeof startRedis>>;
let db: DatabaseHandle;
const procs: Proc[] = [];
let nginx: ChildProcess;
let dir: string;
let front: string;
let dashboardId: string;
let sourceId: string;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

/** The shipped site file with our listen address and the two processes' ports. */
function siteConfig(listen: number, ports: number[]): string {
  const shipped = fs.readFileSync(path.join(import.meta.dirname, 'nginx.conf'), 'utf8');
  return shipped
    .replace(/listen 80;/, `listen 127.0.0.1:${listen};`)
    .replace(/server 127\.0\.0\.1:5001 max_fails=0;\n\s*server 127\.0\.0\.1:5002 max_fails=0;/g, ports.map((p) => `server 127.0.0.1:${p} max_fails=0;`).join('\n    '));
}

async function startNginx(ports: number[]): Promise<string> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'livedash-nginx-'));
  fs.chmodSync(dir, 0o777); // workers may run as nobody (nginx started by root): their temp files live here
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'livedash.conf'), siteConfig(port, ports));
  fs.writeFileSync(path.join(dir, 'nginx.conf'), [
    `pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log warn;`, 'worker_processes 1;', 'events { worker_connections 2048; }',
    'http {', `  access_log ${dir}/access.log;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
    `  include ${dir}/livedash.conf;`, '}',
  ].join('\n'));
  nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  nginx.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${url}/livez`).catch(() => null))?.status === 200, { timeout: 10_000, what: `nginx listening (${out})` });
  return url;
}

let ports: number[] = [];
/** One server process on `port`, sharing the database and Redis. */
const startProc = (port: number) =>
  startServerProcess({
    PORT: String(port), MONGODB_URI: db.uri, REDIS_URL: redis.url, ADMIN_TOKEN, SEED_DEMO: 'false', ZENDESK_SCHEDULER_TICK_MS: '0',
    TRUST_PROXY: '127.0.0.1', METRICS_PORT: '0', SHUTDOWN_GRACE_SECONDS: '1',
  });

beforeAll(async () => {
  if (!present) return;
  redis = await startRedis();
  db = await startDatabase(loadConfig({ SEED_DEMO: 'false', ...TEST_ENGINE }), createLogger('silent'));
  ports = [await freePort(), await freePort()];
  for (const port of ports) procs.push(await startProc(port));
  front = await startNginx(ports);
  const ds = (await (await fetch(`${front}/api/admin/data-sources`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Fleet', primaryKey: 'id' }) })).json()) as { id: string; sourceId: string };
  sourceId = ds.sourceId;
  dashboardId = ((await (await fetch(`${front}/api/admin/dashboards`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Fleet', dataSourceId: ds.id, isPublished: true }) })).json()) as { id: string }).id;
}, 90_000);

afterAll(async () => {
  if (!present) return;
  if (nginx && nginx.exitCode === null) {
    const gone = new Promise((r) => nginx.once('exit', r));
    nginx.kill('SIGTERM'); // fast shutdown: a graceful one waits for open WebSockets
    await gone;
  }
  for (const p of procs) await p.stop();
  await db?.stop();
  await redis?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 30_000);

/** Sockets each process holds, from its own metrics. */
async function socketsOn(p: Proc): Promise<number> {
  const url = await eventually(() => /metrics: (http:\/\/[^\s"]+)\/metrics/.exec(p.log())?.[1] ?? null);
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^livedash_socketio_connections (\d+)$/m.exec(text)?.[1] ?? NaN);
}

/** This run's part of the Idempotency-Keys: a retried test sends new keys, not the first try's with other bodies. */
const KEYS = `nginx-test-${Date.now().toString(36)}`;
let tries = 0;

/** One record written; with `keyed`, as a client that may send it again does (an Idempotency-Key: nginx's @keyed location). */
const write = async (base: string, id: string, keyed = false) => {
  const headers = keyed ? { ...admin, 'idempotency-key': `${KEYS}-${tries}-${id}`, 'x-request-id': `${KEYS}-${tries}-${id}` } : admin;
  const res = await fetch(`${base}/api/data/sources/${sourceId}/records`, { method: 'POST', headers, body: JSON.stringify([{ id, at: Date.now() }]) });
  return res.status;
};

const viewer = async () => {
  const s = await openSocket(front);
  expect((await join(s, 'dashboard:join', dashboardId)).ok).toBe(true);
  return s;
};

/** Record ids a viewer has received. */
const received = (s: TestSocket) => {
  const got = collect(s, 'records:upserted');
  return () => new Set(got.items.flatMap((m) => m.records.map((r) => r.recordId)));
};

describe.skipIf(!present)('two processes behind nginx', () => {
  it('passes WebSocket upgrades (and long polling, sticky) and hands the process the client address it saw', async () => {
    const ws = await viewer();
    expect(ws.io.engine.transport.name).toBe('websocket');
    ws.close();
    // Polling first, then the upgrade: every request of the session reached the same process.
    const polled: TestSocket = connect(front, { transports: ['polling', 'websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      polled.io.engine?.once('upgrade', () => resolve());
      polled.once('connect', () => polled.io.engine.once('upgrade', () => resolve()));
      polled.once('connect_error', reject);
    });
    expect(polled.io.engine.transport.name).toBe('websocket');
    polled.close();

    // From 127.0.0.2, with a forged X-Forwarded-For: the process logs the address nginx saw.
    const { hostname, port } = new URL(front);
    const status = await new Promise<number>((resolve, reject) => {
      http.get({ host: hostname, port, path: '/api/health', localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '203.0.113.5', 'x-request-id': 'through-nginx-1' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(status).toBe(200);
    const line = await eventually(() => procs.map((p) => p.log()).join('\n').split('\n').find((l) => l.includes('[through-nginx-1]')) ?? null);
    expect(line).toContain('address=127.0.0.2');
    // Each process is ready: its database and the shared Redis answer.
    for (const p of procs) expect(await (await fetch(`${p.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
  });

  it('a viewer on one process receives a write made through the other', async () => {
    const s = await viewer();
    const counts = await Promise.all(procs.map(socketsOn));
    const other = procs[counts[0] >= 1 ? 1 : 0];
    const got = received(s);
    try {
      expect(await write(other.url, 'across')).toBe(200);
      await eventually(() => got().has('across'));
    } finally {
      s.close();
    }
  });

  it('one process drained with SIGTERM while 100 viewers stay live through the other: no viewer misses a change', async () => {
    // A retry after a failed try: the process drained then comes back on its port first.
    for (const [i, p] of procs.entries()) if (p.child.exitCode !== null || p.child.signalCode !== null) procs[i] = await startProc(ports[i]);
    tries++;
    const viewers = await Promise.all(Array.from({ length: 100 }, () => viewer()));
    try {
      await drainWhileViewing(viewers);
    } finally {
      for (const v of viewers) v.close();
    }
  }, 90_000);

  async function drainWhileViewing(viewers: TestSocket[]) {
    const seen = viewers.map(received);
    // The viewers all came from one address: one process holds them; the other is drained.
    // (Eventually: the viewers of a failed try leave a moment after their close.)
    await eventually(async () => String((await Promise.all(procs.map(socketsOn))).sort((a, b) => a - b)) === '0,100', { what: 'the 100 viewers on one process, none on the other' });
    const drained = procs[(await socketsOn(procs[0])) === 0 ? 0 : 1];
    const exited = new Promise<number | null>((resolve) => drained.child.once('exit', (code) => resolve(code)));
    let gone = false;
    void exited.then(() => (gone = true));

    const written: string[] = [];
    const statuses: number[] = [];
    drained.child.kill('SIGTERM');
    // Keyed writes through nginx all along the drain (both processes answer them until the drained one stops listening), and a few after.
    // Four writers at once, so writes are under way on the drained process when it stops listening — and one
    // may be reset in its accept queue as it closes, which nginx sends again to the other process because it is keyed.
    await Promise.all([0, 1, 2, 3].map(async (lane) => {
      for (let i = 0, after = 0; after < 3 && i < 300; i++) {
        const id = `w${lane}-${i}`;
        const st = await write(front, id, true);
        statuses.push(st);
        if (st === 200) written.push(id);
        if (gone) after++;
      }
    }));
    expect(await exited).toBe(0);
    expect(statuses.filter((st) => st !== 200)).toEqual([]);
    expect(written.length).toBeGreaterThan(5);
    // On a miss, the error names each write some viewer lacks and the process lines that handled it.
    const missing = () => written.filter((id) => seen.some((ids) => !ids().has(id)));
    const handled = (id: string) => procs.flatMap((p, i) => p.log().split('\n').filter((l) => l.includes(`-${tries}-${id}]`)).map((l) => `process ${i}${p === drained ? ' (drained)' : ''}: ${l}`));
    await eventually(() => !missing().length, { timeout: 10_000, what: 'every viewer holding every write' }).catch((e: Error) => {
      throw new Error(`${e.message}; missing: ${missing().map((id) => `${id} (${seen.filter((ids) => !ids().has(id)).length} viewers) ← ${handled(id).join(' | ')}`).join('; ')}`);
    });
    expect(viewers.every((v) => v.connected)).toBe(true);
  }
});
