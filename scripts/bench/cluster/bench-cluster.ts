/**
 * `npm run bench:cluster`: how soon a change made on one process holds on the other — two server
 * processes sharing one database and a real redis-server, as behind nginx. The issues set the goal:
 * within a second. Each change is also read back on the process that made it (the baseline, same
 * run): the ratio says what the relay across processes adds.
 * - a record ingested (or a dashboard renamed) on one process, seen in the other's public view;
 * - a share link revoked on one process, refused (404) by the other, though its view was held there;
 * - a dashboard's embedding secret rotated on one process, its old token refused (401) by the other,
 *   and a viewer's socket on the other process joined with it closed by the server.
 * The cluster tests (server/realtime/cluster.test.ts, signedEmbedding/rotation.redis.test.ts) check
 * that each change holds; this measures how soon. Loopback only; stops by itself.
 */
import { loadConfig } from '../../../server/core/config';
import { startDatabase } from '../../../server/core/db/startDatabase';
import { createLogger } from '../../../server/core/log';
import { ADMIN_TOKEN, TEST_ENGINE, startTestServer } from '../../../server/test/harness';
import { startRedis, startServerProcess } from '../../../server/test/processes';
import { io } from 'socket.io-client';
import { signEmbed } from '../../../server/sharing/signedEmbedding/test/embedTokens';

const GOAL_MS = 1_000;
const WRITES = Number(process.env.BENCH_WRITES ?? 100);
const REVOKES = Number(process.env.BENCH_REVOKES ?? 20);
const ROTATIONS = Number(process.env.BENCH_ROTATIONS ?? 10);
/** A change not seen after this long counts as missed (and at this time in the figures). */
const GIVE_UP_MS = 10_000;

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
};

/** Polls `check` every 5 ms until it holds; the ms it took (GIVE_UP_MS when it never did). */
async function msUntil(check: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < GIVE_UP_MS) {
    if (await check()) return performance.now() - start;
    await new Promise((r) => setTimeout(r, 5));
  }
  return GIVE_UP_MS;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
function report(what: string, other: number[], same: number[]) {
  const f = (x: number) => `${x.toFixed(0).padStart(5)} ms`;
  const missed = other.filter((x) => x >= GIVE_UP_MS).length;
  const ratio = pct(other, 95) / Math.max(1, pct(same, 95));
  const met = pct(other, 95) <= GOAL_MS && missed === 0;
  console.log(`${what.padEnd(38)} other process p50 ${f(pct(other, 50))} p95 ${f(pct(other, 95))} max ${f(Math.max(...other))} | same process p95 ${f(pct(same, 95))} | ratio p95 ${ratio.toFixed(1)} | goal p95 ≤ ${GOAL_MS} ms: ${met ? 'met' : 'NOT met'}${missed ? ` (${missed} never seen)` : ''}`);
}

const redis = await startRedis();
const db = await startDatabase(loadConfig({ SEED_DEMO: 'false', ...TEST_ENGINE }), createLogger('silent'));
const a = await startTestServer({ MONGODB_URI: db.uri, REDIS_URL: redis.url });
const b = await startServerProcess({ MONGODB_URI: db.uri, REDIS_URL: redis.url, ADMIN_TOKEN, SEED_DEMO: 'false' });
try {
  const ds = await call(a.url, 'POST', '/api/admin/data-sources', { name: 'Bench cluster' });
  await call(a.url, 'POST', '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: 0 }] });
  const d = await call(a.url, 'POST', '/api/admin/dashboards', { name: 'Bench cluster', dataSourceId: ds.id, isPublished: true });
  const view = async (base: string) => (await fetch(`${base}/api/dashboards/${d.id}`)).json() as Promise<{ records: { data: { round?: number } }[] }>;
  for (const base of [a.url, b.url]) await msUntil(async () => (await view(base)).records.length === 1);

  // Writes: alternate the writing process; time the other's view, then the writer's own.
  const [other, same] = [[] as number[], [] as number[]];
  for (let round = 1; round <= WRITES; round++) {
    const [writer, reader] = round % 2 ? [a.url, b.url] : [b.url, a.url];
    await call(writer, 'POST', '/api/data/ingest', { sourceId: ds.sourceId, records: [{ id: round % 7, round }] });
    const seen = async (base: string) => (await view(base)).records.some((r) => r.data.round === round);
    // Both views polled from the same moment: the writer's own is what any read after a write costs.
    const [there, here] = await Promise.all([msUntil(() => seen(reader)), msUntil(() => seen(writer))]);
    other.push(there);
    same.push(here);
  }
  report('record ingested → public view', other, same);

  // Revocations: the view held on both processes, the link revoked on A.
  const [revokedB, revokedA] = [[] as number[], [] as number[]];
  for (let i = 0; i < REVOKES; i++) {
    const made = await call(a.url, 'POST', `/api/admin/dashboards/${d.id}/links`, { label: `Partner ${i}` });
    for (const base of [a.url, b.url]) await msUntil(async () => (await fetch(`${base}/api/share/${made.token}`)).status === 200);
    await call(a.url, 'DELETE', `/api/admin/dashboards/${d.id}/links/${made.link.id}`);
    const gone = (base: string) => async () => (await fetch(`${base}/api/share/${made.token}`)).status === 404;
    const [there, here] = await Promise.all([msUntil(gone(b.url)), msUntil(gone(a.url))]);
    revokedB.push(there);
    revokedA.push(here);
  }
  report('share link revoked → 404', revokedB, revokedA);

  // Rotations: a token opens on both, the secret rotated on A.
  const [rotatedB, rotatedA, closedB] = [[] as number[], [] as number[], [] as number[]];
  let secret = (await call(a.url, 'POST', `/api/admin/dashboards/${d.id}/embedding/secret`)).secret as string;
  for (let i = 0; i < ROTATIONS; i++) {
    const token = await signEmbed(secret, { dashboard: d.id });
    for (const base of [a.url, b.url]) await msUntil(async () => (await fetch(`${base}/api/embed/${token}`)).status === 200);
    // A viewer of the embed on B, joined with the token about to end.
    const socket = io(b.url, { transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('connect_error', reject));
    const joined = await new Promise<{ ok: boolean }>((resolve) => socket.emit('embed:join', token, resolve));
    if (!joined.ok) throw new Error(`embed:join refused: ${JSON.stringify(joined)}`);
    const rotatedAt = performance.now();
    const closed = new Promise<number>((resolve) => socket.once('disconnect', () => resolve(performance.now() - rotatedAt)));
    secret = (await call(a.url, 'POST', `/api/admin/dashboards/${d.id}/embedding/secret`)).secret;
    const refused = (base: string) => async () => (await fetch(`${base}/api/embed/${token}`)).status === 401;
    const [there, here] = await Promise.all([msUntil(refused(b.url)), msUntil(refused(a.url))]);
    rotatedB.push(there);
    rotatedA.push(here);
    closedB.push(await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(GIVE_UP_MS), GIVE_UP_MS))]));
    socket.close();
  }
  report('embed secret rotated → 401', rotatedB, rotatedA);
  // From the rotation's request (its answer included) to the socket's end; the baseline is the 401 on A.
  report('embed secret rotated → socket closed', closedB, rotatedA);
} finally {
  await b.stop();
  await a.close();
  await db.stop();
  await redis.stop();
}
