/**
 * Profiling aid for the source URL's single-record path (not part of `npm run bench`): what each
 * database command of a flush costs, while 16 keep-alive connections POST single records.
 * `npx tsx scripts/profiles/profile-ingest-url.ts` (BENCH_SCENARIO=append for an append-only source at its
 * 1,000-record retention).
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { ADMIN_TOKEN, startTestServer } from '../../server/test/harness';
import { flushCount } from '../../server/records/writer/sourceWriter';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const append = process.env.BENCH_SCENARIO === 'append';

async function main() {
  const s = await startTestServer({ RATE_LIMIT_INGEST: '1000000' });
  const body = append ? { name: 'p', appendOnly: true, retention: { maxRecords: 1000 } } : { name: 'p', primaryKey: 'id' };
  const ds = (await s.http('POST', '/api/admin/data-sources', { body })).body;
  const fill = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: Array.from({ length: 1000 }, (_, i) => ({ id: `T-${i}`, subject: `s ${i}`, n: i })) });
  if (fill.status !== 200) throw new Error(JSON.stringify(fill.body));
  // Each driver call of a collection, timed (the driver's command monitoring is fixed at connect).
  const stats = new Map<string, { n: number; ms: number }>();
  const stacks = new Map<string, number>();
  // mongoose's own copy of the driver.
  const require = createRequire(import.meta.url);
  const { Collection } = require(require.resolve('mongodb', { paths: [require.resolve('mongoose')] })) as typeof import('mongodb');
  type Collection = import('mongodb').Collection;
  const proto = Collection.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const name of ['insertMany', 'insertOne', 'bulkWrite', 'deleteMany', 'updateOne', 'updateMany', 'findOneAndUpdate', 'countDocuments', 'findOne', 'aggregate', 'find']) {
    const orig = proto[name];
    proto[name] = function (this: Collection, ...args: unknown[]) {
      const t = performance.now();
      const k = `${name} ${this.collectionName}`;
      // PROFILE_STACK="find datasources" prints where the first few such calls come from.
      if (process.env.PROFILE_STACK === k && (stacks.get(k) ?? 0) < 3) {
        stacks.set(k, (stacks.get(k) ?? 0) + 1);
        console.log(k, new Error().stack?.split('\n').slice(2, 14).join('\n'));
      }
      const note = () => {
        const st = stats.get(k) ?? { n: 0, ms: 0 };
        st.n++;
        st.ms += performance.now() - t;
        stats.set(k, st);
      };
      const out = orig.apply(this, args);
      if (out instanceof Promise) return out.finally(note);
      if (name === 'find' && out && typeof (out as { toArray?: unknown }).toArray === 'function') {
        const c = out as { toArray: () => Promise<unknown> };
        const toArray = c.toArray.bind(c);
        c.toArray = () => toArray().finally(note);
      }
      return out;
    };
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const target = new URL(`${s.url}/api/data/sources/${ds.sourceId}/records`);
  let done = 0;
  const flushes0 = flushCount(s.app.ctx);
  const end = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 16 }, async (_, c) => {
    while (performance.now() < end) {
      const payload = JSON.stringify({ id: `T-${(done * 7 + c) % 1000}`, subject: 'x', n: done });
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}`, 'content-length': Buffer.byteLength(payload) } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(String(res.statusCode)))));
        });
        req.on('error', reject);
        req.end(payload);
      });
      done++;
    }
  }));
  const ms = performance.now() - t0;
  agent.destroy();
  const flushes = flushCount(s.app.ctx) - flushes0;
  console.log(`${append ? 'append-only, retention 1,000' : 'keyed, 1,000 records'}: ${done} requests in ${ms.toFixed(0)} ms (${((done / ms) * 1000).toFixed(0)} req/s), ${flushes} flushes`);
  for (const [k, v] of [...stats].sort((a, b) => b[1].ms - a[1].ms)) console.log(`${k.padEnd(40)} ${String(v.n).padStart(6)} × ${(v.ms / v.n).toFixed(1).padStart(7)} ms = ${v.ms.toFixed(0)} ms`);
  await s.close();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
