/**
 * `npm run bench:read`: the public read path. In one run, on loopback, bounded and self-stopping:
 * - public view req/s (demo dashboard, 150 records) against a bare node:http server sending the
 *   same bytes, identity and gzip, and 304 req/s against a bare 304 — the load comes from a child
 *   process (scripts/bench/bench-read-load.ts); the same dashboard through a share link (`/api/share/<token>`)
 *   likewise, and its req/s against the public view's; a share link with a locked filter (only the
 *   matching records, built once per change and served from memory too) against the public view's;
 *   the embedded view (`/api/embed/<signed token>` with the same filter: the token verified once,
 *   then held with its view) against the public view's (goal ≥ 0.8);
 * - a 10,000-record view: built from the database once, then served from the cache;
 * - the bytes of a first visit of the demo viewer in chromium (HTML + JS + CSS + data), compressed;
 * - a reconnect storm: N viewers (child processes, scripts/bench/bench-read-viewers.ts) on a server
 *   process that is restarted; time until every viewer has the view again, and the bytes it cost.
 *   Its viewers are socket.io-client instances; BENCH_STORM_VIEWERS=minimal makes them raw WebSockets
 *   speaking the Engine.IO frames (as bench:realtime's minimal viewers), leaving the cores to the server.
 * BENCH_STORM=1000,5000 and BENCH_SECONDS=3 change the sizes; BENCH_ONLY=storm runs the storm alone,
 * BENCH_ONLY=views the view table alone, BENCH_ONLY=visit the first visit's bytes alone.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { demoTickets } from '../../server/demo/seedDemo';
import { viewCacheOf } from '../../server/publicView/viewCache';
import { loadConfig } from '../../server/core/config';
import { startDatabase } from '../../server/core/db/startDatabase';
import { createLogger } from '../../server/core/log';
import { ADMIN_TOKEN } from '../../server/test/harness';
import { signEmbed } from '../../server/sharing/signedEmbedding/test/embedTokens';
import { freePort, startServerProcess } from '../../server/test/processes';
import { startBrowser } from '../../web/e2e/browser';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = 16;
const TURNS = 4;
const STORM = (process.env.BENCH_STORM ?? '1000,5000').split(',').map(Number).filter(Boolean);
const PER_PROCESS = 2500;
/** BENCH_STORM_VIEWERS=minimal: the storm's viewers speak raw Engine.IO frames (scripts/bench/bench-read-viewers.ts), so the time is the server's. */
const STORM_VIEWERS = process.env.BENCH_STORM_VIEWERS === 'minimal' ? 'minimal' : 'socketio';
const STORM_TIMEOUT_MS = 90_000;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
/** `BENCH_PROF=<dir>`: the storm's restarted server (and with BENCH_PROF_VIEWERS=1 its viewer processes) write a `--cpu-prof` profile there. */
const PROF = process.env.BENCH_PROF;
const profArgs = PROF ? ['--cpu-prof', `--cpu-prof-dir=${PROF}`] : [];

/** Connections the kernel dropped since boot because a listen queue was full (Linux, every process of the machine). */
function listenDrops(): number {
  const lines = fs.readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const i = lines.findIndex((l) => l.startsWith('TcpExt:'));
  const names = lines[i].split(' ');
  return Number(lines[i + 1].split(' ')[names.indexOf('ListenDrops')]);
}

/** CPU time (user + system) a process has used so far, in ms (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function child(script: string, execArgv: string[] = []): Promise<ChildProcess> {
  const p = fork(script, { execArgv: ['--import', 'tsx', ...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve) => p.once('message', () => resolve(p)));
}
const ask = <T>(p: ChildProcess, msg: unknown, type?: string) =>
  new Promise<T>((resolve) => {
    const on = (m: { type?: string }) => {
      if (type && m.type !== type) return;
      p.off('message', on);
      resolve(m as T);
    };
    p.on('message', on);
    p.send(msg as object);
  });

/** A bare node:http server answering every request with the same status, headers and bytes. */
async function bare(status: number, headers: Record<string, string>, body: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { ...headers, ...(status === 304 ? {} : { 'content-length': String(body.length) }) });
    res.end(status === 304 ? undefined : body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function main() {
  if (!fs.existsSync('dist/web/index.html')) execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (process.env.BENCH_ONLY === 'storm') {
    for (const n of STORM) await storm(n);
    return;
  }
  const h = await startBrowser({ env: { SEED_DEMO: 'true', WEB_DIST: 'dist/web' } });
  if (process.env.BENCH_ONLY === 'visit') {
    try {
      await firstVisit(h, ((await h.server.http('GET', '/api/dashboards', { token: null })).body as { id: string }[])[0].id);
    } finally {
      await h.close();
    }
    return;
  }
  const load = await child('scripts/bench/bench-read-load.ts');
  try {
    const s = h.server;
    const demo = ((await s.http('GET', '/api/dashboards', { token: null })).body as { id: string; name: string }[])[0];
    const viewUrl = `${s.url}/api/dashboards/${demo.id}`;
    const { token } = (await s.http('POST', `/api/admin/dashboards/${demo.id}/links`, { body: { label: 'Bench' } })).body as { token: string };
    const shareUrl = `${s.url}/api/share/${token}`;
    const locked = (await s.http('POST', `/api/admin/dashboards/${demo.id}/links`, { body: { label: 'Bench locked', filters: [{ field: 'priority', operator: 'in', values: ['high', 'medium'] }] } })).body as { token: string };
    const lockedUrl = `${s.url}/api/share/${locked.token}`;
    // A host's token for one customer, as the Share dialog's samples sign it: the same filter, an hour to live.
    const embedSecret = (await s.http('POST', `/api/admin/dashboards/${demo.id}/embedding/secret`)).body.secret as string;
    const embedToken = await signEmbed(embedSecret, { dashboard: demo.id, filters: [{ field: 'priority', operator: 'in', values: ['high', 'medium'] }], exp: Math.floor(Date.now() / 1000) + 3600 });
    const embedUrl = `${s.url}/api/embed/${embedToken}`;
    // A token locking nothing: the public view's records plus the token's part, so the ratio is the token's own cost.
    const wholeUrl = `${s.url}/api/embed/${await signEmbed(embedSecret, { dashboard: demo.id, exp: Math.floor(Date.now() / 1000) + 3600 })}`;
    console.log(`engine: ${s.app.ctx.db.mode}; demo dashboard "${demo.name}"; ${CONNECTIONS} keep-alive connections × ${SECONDS} s per row; load from a child process`);

    // The exact bytes the app sends, for the bare server to send too.
    const raw = (enc: string, extra: Record<string, string> = {}, url = viewUrl) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http.get(url, { headers: { 'accept-encoding': enc, ...extra } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
        }).on('error', reject);
      });
    const identity = await raw('identity');
    const gzip = await raw('gzip');
    const etag = String(identity.headers.etag);
    const turnMs = (SECONDS * 1000) / TURNS;
    const rate = async (url: string, headers: Record<string, string>) => {
      const r = await ask<{ requests: number; statuses: Record<number, number> }>(load, { url, headers, connections: CONNECTIONS, durationMs: turnMs });
      return r.requests / (turnMs / 1000);
    };
    const notModified = await raw('gzip', { 'if-none-match': etag });
    const shareIdentity = await raw('identity', {}, shareUrl);
    const shareGzip = await raw('gzip', {}, shareUrl);
    const lockedIdentity = await raw('identity', {}, lockedUrl);
    const lockedGzip = await raw('gzip', {}, lockedUrl);
    const embedIdentity = await raw('identity', {}, embedUrl);
    const embedGzip = await raw('gzip', {}, embedUrl);
    if (embedIdentity.status !== 200) throw new Error(`the embedded view answered ${embedIdentity.status}: ${embedIdentity.body.toString()}`);
    // The bare server sends the app's own headers too (less those node:http adds by itself).
    const headersOf = (r: { headers: http.IncomingHttpHeaders }) =>
      Object.fromEntries(Object.entries(r.headers).filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(k)).map(([k, v]) => [k, String(v)]));
    const rows: [string, string, Record<string, string>, number, Record<string, string>, Buffer][] = [
      ['view, identity', viewUrl, { 'accept-encoding': 'identity' }, 200, headersOf(identity), identity.body],
      ['view, gzip', viewUrl, { 'accept-encoding': 'gzip' }, 200, headersOf(gzip), gzip.body],
      ['304 Not Modified', viewUrl, { 'accept-encoding': 'gzip', 'if-none-match': etag }, 304, headersOf(notModified), Buffer.alloc(0)],
      ['share, identity', shareUrl, { 'accept-encoding': 'identity' }, 200, headersOf(shareIdentity), shareIdentity.body],
      ['share, gzip', shareUrl, { 'accept-encoding': 'gzip' }, 200, headersOf(shareGzip), shareGzip.body],
      ['locked, identity', lockedUrl, { 'accept-encoding': 'identity' }, 200, headersOf(lockedIdentity), lockedIdentity.body],
      ['locked, gzip', lockedUrl, { 'accept-encoding': 'gzip' }, 200, headersOf(lockedGzip), lockedGzip.body],
      ['embed, identity', embedUrl, { 'accept-encoding': 'identity' }, 200, headersOf(embedIdentity), embedIdentity.body],
      ['embed, gzip', embedUrl, { 'accept-encoding': 'gzip' }, 200, headersOf(embedGzip), embedGzip.body],
    ];
    console.log('\nrequest              bytes      app req/s   bare node:http req/s   ratio');
    for (const [name, url, headers, status, bareHeaders, body] of rows) {
      // Interleaved in short turns, so a busy neighbour on the machine weighs on both alike.
      const b = await bare(status, bareHeaders, body);
      let app = 0;
      let base = 0;
      for (let turn = 0; turn < TURNS; turn++) {
        app += (await rate(url, headers)) / TURNS;
        base += (await rate(b.url, headers)) / TURNS;
      }
      await b.close();
      console.log(`${name.padEnd(18)} ${String(body.length).padStart(7)}   ${app.toFixed(0).padStart(9)}   ${base.toFixed(0).padStart(20)}   ${(app / base).toFixed(2)}`);
    }
    // The share view against the public view, in alternating turns too (goal: at least 0.5).
    console.log('\nshare view vs public view (alternating turns)   share req/s   public req/s   ratio');
    for (const encoding of ['identity', 'gzip']) {
      let pub = 0;
      let shared = 0;
      for (let turn = 0; turn < TURNS; turn++) {
        pub += (await rate(viewUrl, { 'accept-encoding': encoding })) / TURNS;
        shared += (await rate(shareUrl, { 'accept-encoding': encoding })) / TURNS;
      }
      console.log(`${encoding.padEnd(46)} ${shared.toFixed(0).padStart(11)}   ${pub.toFixed(0).padStart(12)}   ${(shared / pub).toFixed(2)}`);
    }
    // A share link with a locked filter against the public view (goal: at least 0.5).
    const lockedRecords = (JSON.parse(lockedIdentity.body.toString()) as { records: unknown[] }).records.length;
    const allRecords = (JSON.parse(identity.body.toString()) as { records: unknown[] }).records.length;
    console.log(`\nlocked share link (${lockedRecords} of ${allRecords} records) vs public view   locked req/s   public req/s   ratio`);
    for (const encoding of ['identity', 'gzip']) {
      let pub = 0;
      let held = 0;
      for (let turn = 0; turn < TURNS; turn++) {
        pub += (await rate(viewUrl, { 'accept-encoding': encoding })) / TURNS;
        held += (await rate(lockedUrl, { 'accept-encoding': encoding })) / TURNS;
      }
      console.log(`${encoding.padEnd(46)} ${held.toFixed(0).padStart(12)}   ${pub.toFixed(0).padStart(12)}   ${(held / pub).toFixed(2)}`);
    }
    // The embedded view against the public view (goal: at least 0.8): a token with the locked link's
    // filter (fewer bytes than the public view), and a token locking nothing (the same records).
    const recordsOf = async (url: string) => (JSON.parse((await raw('identity', {}, url)).body.toString()) as { records: unknown[] }).records.length;
    for (const [what, url] of [['with the filter', embedUrl], ['locking nothing', wholeUrl]] as const) {
      console.log(`\nembedded view, signed token ${what} (${await recordsOf(url)} of ${allRecords} records) vs public view   embed req/s   public req/s   ratio`);
      for (const encoding of ['identity', 'gzip']) {
        let pub = 0;
        let embedded = 0;
        for (let turn = 0; turn < TURNS; turn++) {
          pub += (await rate(viewUrl, { 'accept-encoding': encoding })) / TURNS;
          embedded += (await rate(url, { 'accept-encoding': encoding })) / TURNS;
        }
        console.log(`${encoding.padEnd(46)} ${embedded.toFixed(0).padStart(12)}   ${pub.toFixed(0).padStart(12)}   ${(embedded / pub).toFixed(2)}`);
      }
    }
    if (process.env.BENCH_ONLY === 'views') return;
    await bigView(s, load);
    await firstVisit(h, demo.id);
  } finally {
    load.send({ stop: true });
    await h.close();
  }
  if (process.env.BENCH_ONLY !== 'views') for (const n of STORM) await storm(n);
}

/** A 10,000-record view: its first build from the database, then answers from the cache. */
async function bigView(s: Awaited<ReturnType<typeof startBrowser>>['server'], load: ChildProcess) {
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Big' } })).body;
  await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: demoTickets(10_000) } });
  const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Big', dataSourceId: ds.id, isPublished: true } })).body;
  const url = `${s.url}/api/dashboards/${d.id}`;
  viewCacheOf(s.app.ctx).clear();
  const t = performance.now();
  const cold = (await (await fetch(url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer()).byteLength;
  const coldMs = performance.now() - t;
  // One connection, one request after another, from the load process: ms per answer.
  const perRequest = async (enc: string) => {
    await (await fetch(url, { headers: { 'accept-encoding': enc } })).arrayBuffer();
    const r = await ask<{ requests: number; bytes: number }>(load, { url, headers: { 'accept-encoding': enc }, connections: 1, durationMs: 2000 });
    return { ms: 2000 / r.requests, bytes: r.bytes / r.requests };
  };
  const identity = await perRequest('identity');
  const gz = await perRequest('gzip');
  console.log(`\n10,000-record view (${kb(cold)}): first build from the database ${coldMs.toFixed(0)} ms; then from the cache ${identity.ms.toFixed(1)} ms per request (${(coldMs / identity.ms).toFixed(0)}× faster)`);
  console.log(`  gzip (compressed once per change): ${gz.ms.toFixed(1)} ms per request, ${kb(gz.bytes)} on the wire`);
}

/** The bytes a first visit of the demo viewer costs in chromium (every response, as sent). */
async function firstVisit(h: Awaited<ReturnType<typeof startBrowser>>, dashboardId: string) {
  const responses: { url: string; wire: number; body: number }[] = [];
  h.page.on('requestfinished', (req) => {
    void req.sizes().then((sz) => responses.push({ url: req.url(), wire: sz.responseBodySize + sz.responseHeadersSize, body: sz.responseBodySize }));
  });
  await h.page.goto(`/dashboards/${dashboardId}`);
  await h.page.getByTestId('table-row').first().waitFor({ timeout: 30_000 }).catch(() => h.page.getByText('Live • Updates every 30s').waitFor());
  await h.page.waitForLoadState('networkidle');
  const wire = responses.reduce((n, r) => n + r.wire, 0);
  const kinds = (re: RegExp) => responses.filter((r) => re.test(new URL(r.url).pathname)).reduce((n, r) => n + r.wire, 0);
  const identity = fs.readdirSync('dist/web/assets').filter((f) => /\.(js|css)$/.test(f)).length;
  console.log(`\nfirst visit of the demo viewer: ${kb(wire)} on the wire in ${responses.length} responses (JS ${kb(kinds(/\.js$/))}, CSS ${kb(kinds(/\.css$/))}, HTML ${kb(kinds(/^\/dashboards\//))}, data ${kb(kinds(/^\/api\//))}); ${identity} built JS/CSS files in all`);
  const uncompressed = responses.filter((r) => /\.(js|css)$/.test(r.url)).reduce((n, r) => n + fs.statSync(`dist/web${new URL(r.url).pathname}`).size, 0);
  if (process.env.BENCH_FILES) for (const r of [...responses].sort((a, b) => b.wire - a.wire)) console.log(`    ${kb(r.wire).padStart(9)}  ${new URL(r.url).pathname}`);
  console.log(`  the same JS/CSS uncompressed: ${kb(uncompressed)} (brotli saves ${((1 - kinds(/\.(js|css)$/) / uncompressed) * 100).toFixed(0)}%)`);
}

/** N viewers on a server process; the process restarts; every viewer must have the view again. */
async function storm(n: number) {
  const db = await startDatabase(loadConfig({ SEED_DEMO: 'false', DATA_DIR: ':memory:' }), createLogger('silent'));
  const env = { MONGODB_URI: db.uri, PORT: String(await freePort()), ADMIN_TOKEN, SEED_DEMO: 'true', LOG_LEVEL: 'warn' };
  let server = await startServerProcess({ ...env, LOG_LEVEL: 'info' });
  const procs: ChildProcess[] = [];
  try {
    const demo = ((await (await fetch(`${server.url}/api/dashboards`)).json()) as { id: string }[])[0];
    const full = Buffer.from(await (await fetch(`${server.url}/api/dashboards/${demo.id}`)).arrayBuffer()).length;
    const fullBr = await new Promise<number>((resolve) => {
      http.get(`${server.url}/api/dashboards/${demo.id}`, { headers: { 'accept-encoding': 'br' } }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
      });
    });
    for (let i = 0; i * PER_PROCESS < n; i++) procs.push(await child('scripts/bench/bench-read-viewers.ts', process.env.BENCH_PROF_VIEWERS ? profArgs : []));
    await Promise.all(procs.map((p, i) => ask(p, { cmd: 'grow', kind: STORM_VIEWERS, url: server.url, dashboardId: demo.id, count: Math.min(PER_PROCESS, n - i * PER_PROCESS) }, 'grown')));
    await Promise.all(procs.map((p) => ask(p, { cmd: 'arm' }, 'armed')));
    type Done = { at: number; bytes: number; refetches: number; notModified: number; recovered: number; reconnects: number[] };
    const done = Promise.all(procs.map((p) => new Promise<Done>((resolve) => p.once('message', (m: Done & { type: string }) => m.type === 'converged' && resolve(m)))));
    const killed = performance.timeOrigin + performance.now();
    const viewersCpu = () => procs.reduce((sum, p) => sum + cpuMs(p.pid), 0);
    const viewersAtStop = viewersCpu();
    const dropsAtStop = listenDrops();
    await server.stop();
    server = await startServerProcess({ ...env, LOG_LEVEL: 'info' }, profArgs);
    const up = performance.timeOrigin + performance.now();
    const serverAtUp = cpuMs(server.child.pid);
    const viewersAtUp = viewersCpu();
    const timeout = new Promise<null>((r) => setTimeout(() => r(null), STORM_TIMEOUT_MS).unref());
    const results = await Promise.race([done, timeout]);
    if (!results) {
      const status = await Promise.all(procs.map((p) => ask<{ total: number; connected: number; pending: number; errors: number }>(p, { cmd: 'status' }, 'status')));
      const sum = (k: 'total' | 'connected' | 'pending' | 'errors') => status.reduce((a, x) => a + x[k], 0);
      console.log(`\nreconnect storm, ${n} viewers: not converged within ${STORM_TIMEOUT_MS / 1000} s of the restart — ${sum('connected')} of ${sum('total')} connected, ${sum('pending')} without the view, ${sum('errors')} failed fetches`);
      console.log(`  the server's last log lines:\n${server.log().split('\n').filter((l) => !/ info +\[[^\]]*\] request /.test(l)).slice(-15).join('\n')}`);
      return;
    }
    const serverCpu = cpuMs(server.child.pid) - serverAtUp;
    const viewersAfter = viewersCpu();
    const drops = listenDrops() - dropsAtStop;
    const last = Math.max(...results.map((r) => r.at));
    const bytes = results.reduce((s, r) => s + r.bytes, 0);
    const refetches = results.reduce((s, r) => s + r.refetches, 0);
    const notModified = results.reduce((s, r) => s + r.notModified, 0);
    console.log(`\nreconnect storm, ${n.toLocaleString('en')} ${STORM_VIEWERS === 'minimal' ? 'minimal (raw Engine.IO) ' : 'socket.io-client '}viewers, server process restarted (${((up - killed) / 1000).toFixed(1)} s down):`);
    console.log(`  every viewer converged ${((last - up) / 1000).toFixed(1)} s after the new process listened (${((last - killed) / 1000).toFixed(1)} s after the stop)`);
    const back = results.flatMap((r) => r.reconnects).map((t) => (t - up) / 1000).sort((a, b) => a - b);
    const at = (q: number) => back[Math.min(back.length - 1, Math.floor(q * back.length))]?.toFixed(1);
    console.log(`  sockets connected again after the new process listened: p50 ${at(0.5)} s, p90 ${at(0.9)} s, last ${at(1)} s`);
    const stormS = (performance.timeOrigin + performance.now() - up) / 1000;
    console.log(`  CPU from the new process listening to the last viewer converged (${stormS.toFixed(1)} s, 2 cores = ${(2 * stormS).toFixed(1)} CPU s): server ${(serverCpu / 1000).toFixed(1)} s (${(serverCpu / n).toFixed(2)} ms per viewer), viewer processes ${((viewersAfter - viewersAtUp) / 1000).toFixed(1)} s (${((viewersAfter - viewersAtUp) / n).toFixed(2)} ms per viewer; ${((viewersAtUp - viewersAtStop) / 1000).toFixed(1)} s more while the server was down); connection attempts the kernel dropped with a full listen queue: ${drops} (machine-wide)`);
    console.log(`  ${refetches} conditional refetches (${notModified} answered 304), ${kb(bytes)} served in all, ${(bytes / n).toFixed(0)} B per viewer`);
    console.log(`  vs a full refetch each: ${full} B identity (${((full * n) / bytes).toFixed(0)}× more), ${fullBr} B brotli (${((fullBr * n) / bytes).toFixed(0)}× more)`);
  } finally {
    procs.forEach((p) => p.send({ cmd: 'stop' }));
    await server.stop();
    await db.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
