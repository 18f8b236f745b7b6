/**
 * What one public viewer's arrival costs the server, as after a restart: connect (websocket),
 * `dashboard:join`, `view:joined`, then the conditional refetch (304). The server is a process of
 * its own; its CPU time (Linux /proc) is read around VIEWERS arrivals in batches of BATCH, and the
 * server-side socket writes are counted by its `--cpu-prof`-free twin: CPU ms per viewer is the
 * figure (the machine's load moves latency, much less the CPU a unit of work takes).
 * `--strace` counts the server's system calls during the measured arrivals instead (strace -c; slow).
 *   npx tsx scripts/profiles/profile-viewer-join.ts [viewers=1000] [batch=50] [--prof=<dir>] [--strace]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { io as connect, type Socket } from 'socket.io-client';
import { loadConfig } from '../../server/core/config';
import { startDatabase } from '../../server/core/db/startDatabase';
import { createLogger } from '../../server/core/log';
import { ADMIN_TOKEN } from '../../server/test/harness';
import { freePort, startServerProcess } from '../../server/test/processes';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const VIEWERS = Number(args[0] ?? 1000);
const BATCH = Number(args[1] ?? 50);
const prof = process.argv.find((a) => a.startsWith('--prof='))?.slice('--prof='.length);

const cpuMs = (pid: number | undefined) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const get = (url: string, etag: string) =>
  new Promise<{ status: number; etag: string }>((resolve, reject) => {
    http.get(url, { agent, headers: { 'accept-encoding': 'br, gzip', ...(etag ? { 'if-none-match': etag } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, etag: String(res.headers.etag) }));
    }).on('error', reject);
  });

async function main() {
  const db = await startDatabase(loadConfig({ SEED_DEMO: 'false', DATA_DIR: ':memory:' }), createLogger('silent'));
  const server = await startServerProcess({ MONGODB_URI: db.uri, PORT: String(await freePort()), ADMIN_TOKEN, SEED_DEMO: 'true' }, prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []);
  const sockets: Socket[] = [];
  try {
    const demo = ((await (await fetch(`${server.url}/api/dashboards`)).json()) as { id: string }[])[0];
    const url = `${server.url}/api/dashboards/${demo.id}`;
    let { etag } = await get(url, '');
    let full = 0;
    const arrive = async () => {
      const socket = connect(server.url, { transports: ['websocket'], forceNew: true, reconnection: false });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => socket.emit('dashboard:join', demo.id, () => {}));
        socket.once('view:joined', () => resolve());
        socket.once('connect_error', reject);
      });
      const res = await get(url, etag);
      if (res.status !== 304) {
        full++;
        etag = res.etag;
      }
    };
    // A warm-up batch (JIT, caches), then the measured arrivals.
    await Promise.all(Array.from({ length: BATCH }, arrive));
    const strace = process.argv.includes('--strace') ? spawn('strace', ['-c', '-f', '-p', String(server.child.pid)], { stdio: ['ignore', 'inherit', 'pipe'] }) : null;
    let straced = '';
    strace?.stderr!.on('data', (d) => (straced += d));
    if (strace) await new Promise((r) => setTimeout(r, 1000));
    const cpu0 = cpuMs(server.child.pid);
    const t0 = performance.now();
    for (let n = 0; n < VIEWERS; n += BATCH) await Promise.all(Array.from({ length: Math.min(BATCH, VIEWERS - n) }, arrive));
    const serverMs = cpuMs(server.child.pid) - cpu0;
    if (strace) {
      strace.kill('SIGINT');
      await new Promise((r) => strace.once('exit', r));
      const calls = straced.split('\n').filter((l) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+/.test(l)).map((l) => l.trim().split(/\s+/));
      for (const c of calls.filter((c) => Number(c[3]) >= VIEWERS / 10)) console.log(`  ${c.at(-1)!.padEnd(14)} ${(Number(c[3]) / VIEWERS).toFixed(2)} per viewer`);
    }
    const ownMs = process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000;
    console.log(`${VIEWERS} viewers in batches of ${BATCH}: ${((performance.now() - t0) / 1000).toFixed(1)} s; server CPU ${serverMs} ms = ${(serverMs / VIEWERS).toFixed(3)} ms per viewer (this process, the clients: ${(ownMs / (VIEWERS + BATCH)).toFixed(3)} ms per viewer over its whole run); ${full} refetches were not 304`);
  } finally {
    sockets.forEach((s) => s.disconnect());
    await server.stop();
    await db.stop();
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
