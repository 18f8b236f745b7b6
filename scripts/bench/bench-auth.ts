/**
 * `npm run bench:auth`: what people and sessions cost, on loopback, bounded and self-stopping.
 * - A signed-in admin's API call (GET /api/admin/dashboards with the session cookie) against the
 *   same call with the admin bearer token, in req/s; several alternating turns, best of each. The
 *   goal is a ratio of at least 0.9: a session is read from memory (short TTL), not the database.
 * - The credential check alone (the guards' resolvePrincipal, in process, no HTTP nor handler):
 *   microseconds per call for the session cookie (memory cache) and the admin bearer token — the
 *   figure that load on a shared machine does not blur (the HTTP call above reads the database).
 * - Sign-in latency (POST /api/auth/login, scrypt N=2^15) p50 / p99 over BENCH_SIGN_INS sign-ins.
 * BENCH_SECONDS (default 3) is the length of one turn.
 */
import { startTestServer } from '../../server/test/harness';
import { addPerson, PASSWORD } from '../../server/test/people';
import type { Context } from 'koa';
import type { AppContext } from '../../server/core/context';
import { resolvePrincipal } from '../../server/access/guards';

/** Microseconds per resolvePrincipal call for a request carrying `headers` (best of three rounds). */
async function checkCost(app: AppContext, headers: Record<string, string>, calls = 50_000): Promise<number> {
  const ctx = { get: (name: string) => headers[name.toLowerCase()] ?? '' } as unknown as Context;
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t = performance.now();
    for (let i = 0; i < calls; i++) if (!(await resolvePrincipal(app, ctx))) throw new Error('no principal');
    best = Math.min(best, ((performance.now() - t) * 1000) / calls);
  }
  return best;
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 40);
const CONNECTIONS = 16;
const TURNS = 3;

async function rate(url: string, headers: Record<string, string>): Promise<number> {
  const until = Date.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        done++;
      }
    }),
  );
  return done / SECONDS;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const s = await startTestServer({ RATE_LIMIT_AUTH_FAILURES: '1000000', RATE_LIMIT_SIGN_IN_ACCOUNT: '1000000' });
  try {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Bench' } })).body;
    for (let i = 0; i < 5; i++) await s.http('POST', '/api/admin/dashboards', { body: { name: `Dashboard ${i}`, dataSourceId: ds.id } });
    const admin = await addPerson(s, 'admin');
    const url = `${s.url}/api/admin/dashboards`;
    const best = { session: 0, bearer: 0 };
    for (let turn = 0; turn < TURNS; turn++) {
      best.bearer = Math.max(best.bearer, await rate(url, { authorization: `Bearer ${s.app.ctx.adminToken}` }));
      best.session = Math.max(best.session, await rate(url, { cookie: admin.cookie }));
    }
    console.log(`signed-in admin call (session cookie): ${best.session.toFixed(0)} req/s`);
    console.log(`same call with the admin bearer token:  ${best.bearer.toFixed(0)} req/s`);
    console.log(`ratio session / bearer: ${(best.session / best.bearer).toFixed(2)} (goal >= 0.9)`);
    const sessionCost = await checkCost(s.app.ctx, { cookie: admin.cookie });
    const bearerCost = await checkCost(s.app.ctx, { authorization: `Bearer ${s.app.ctx.adminToken}` });
    console.log(`credential check alone: session ${sessionCost.toFixed(2)} µs, admin bearer token ${bearerCost.toFixed(2)} µs per request`);

    const ms: number[] = [];
    for (let i = 0; i < SIGN_INS; i++) {
      const t = performance.now();
      const res = await fetch(`${s.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: admin.email, password: PASSWORD }) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    console.log(`sign-in latency over ${SIGN_INS}: p50 ${pct(ms, 50).toFixed(0)} ms, p99 ${pct(ms, 99).toFixed(0)} ms`);
  } finally {
    await s.close();
  }
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
