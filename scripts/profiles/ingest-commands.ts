/**
 * Where an ingest's time goes, command by command: posts BENCH_BATCHES batches of 1,000 new
 * records (the records of bench:ingest) and prints each database command the server sent with its
 * duration as the driver saw it, then the same records through the engine's own insertMany.
 * `npx tsx scripts/profiles/ingest-commands.ts`
 */
import type { Collection } from 'mongodb';
import { ADMIN_TOKEN, startTestServer } from '../../server/test/harness';
import { rawRecordsCollection, storedRecord } from '../bench/benchSourceUrl';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 2);
const record = (i: number) => ({
  ticket_id: `T-${String(i).padStart(7, '0')}`,
  subject: `Customer cannot complete checkout on step ${i % 7} (round 1)`,
  status: ['open', 'in progress', 'closed'][i % 3],
  priority: ['high', 'medium', 'low'][i % 3],
  assignee: ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'][i % 3],
  created_at: new Date(1_700_000_000_000 + i * 60_000).toISOString(),
  custom_fields: [{ id: 360001, value: 'email' }, { id: 360002, value: 'EMEA' }],
});

async function main() {
  const s = await startTestServer({ RATE_LIMIT_INGEST: '1000000' });
  // The client connected before this script could ask for command monitoring: time the driver's collection methods instead.
  const seen: { name: string; coll: string; ms: number }[] = [];
  // mongoose's own copy of the driver: its prototype, from one of its collections.
  const proto = Object.getPrototypeOf(s.app.ctx.conn.db!.collection('records')) as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const name of ['insertMany', 'insertOne', 'bulkWrite', 'findOne', 'findOneAndUpdate', 'countDocuments', 'updateOne', 'updateMany', 'deleteMany', 'aggregate', 'find']) {
    const original = proto[name];
    proto[name] = function (this: Collection, ...args: unknown[]) {
      const t = performance.now();
      const out = original.apply(this, args);
      const done = () => seen.push({ name, coll: this.collectionName, ms: performance.now() - t });
      if (out && typeof (out as Promise<unknown>).then === 'function') (out as Promise<unknown>).then(done, done);
      else if (out && typeof (out as { toArray?: unknown }).toArray === 'function') {
        const cursor = out as { toArray: () => Promise<unknown> };
        const toArray = cursor.toArray.bind(cursor);
        cursor.toArray = () => toArray().finally(done);
      }
      return out;
    };
  }
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'profile' } })).body;
  for (let b = 0; b < BATCHES; b++) {
    seen.length = 0;
    const t = performance.now();
    const records = Array.from({ length: 1000 }, (_, j) => record(b * 1000 + j));
    const res = await fetch(`${s.url}/api/data/ingest`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ sourceId: ds.sourceId, records }) });
    await res.text();
    const wall = performance.now() - t;
    console.log(`\nbatch ${b + 1}: ${res.status} in ${wall.toFixed(0)} ms; commands:`);
    for (const c of seen) console.log(`  ${c.name.padEnd(16)} ${c.coll.padEnd(14)} ${c.ms.toFixed(1).padStart(8)} ms`);
    console.log(`  sum ${seen.reduce((n, c) => n + c.ms, 0).toFixed(0)} ms`);
  }
  const raw = await rawRecordsCollection(s, 'profile_insert');
  for (let b = 0; b < BATCHES; b++) {
    const t = performance.now();
    await raw.insertMany(Array.from({ length: 1000 }, (_, j) => storedRecord(`T-${b * 1000 + j}`, record(b * 1000 + j))));
    console.log(`engine insertMany batch ${b + 1}: ${(performance.now() - t).toFixed(0)} ms`);
  }
  await s.close();
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
