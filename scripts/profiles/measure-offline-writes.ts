/**
 * `npm run measure:offline`: where one write through the API passes 200 ms and one second on the
 * offline engine (jongodb), whose every modifying command costs time growing with the square of
 * the records collection's size. Grows one source in batches of 1,000 and, at each size, times a
 * one-record update and a one-record insert through POST /api/data/ingest (median of 3). The
 * figures set OFFLINE_ENGINE_WARN_RECORDS (the console's banner) and the append-only default
 * retention on that engine (server/README.md, "The offline engine").
 */
import { ADMIN_TOKEN, startTestServer } from '../../server/test/harness';

const SIZES = (process.env.MEASURE_SIZES ?? '500,1000,2000,3000,4000,5000,6000,8000').split(',').map(Number);

const record = (i: number) => ({ id: `R-${i}`, at: new Date(1_700_000_000_000 + i * 1000).toISOString(), status: ['open', 'closed'][i % 2], text: `record number ${i}` });

async function post(url: string, sourceId: string, records: unknown[]): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}/api/data/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ sourceId, records }),
  });
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const s = await startTestServer({ DB_ENGINE: 'jongodb', INGEST_MAX_RECORDS: '1000' });
  if (s.app.ctx.db.mode !== 'embedded-jongodb') throw new Error(`expected the offline engine, got ${s.app.ctx.db.mode}`);
  const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'measure' } })).body as { sourceId: string };
  let size = 0;
  let extra = 0;
  console.log('records | one-record update | one-record insert');
  for (const target of SIZES) {
    while (size < target) {
      const n = Math.min(1000, target - size);
      await post(s.url, ds.sourceId, Array.from({ length: n }, (_, j) => record(size + j)));
      size += n;
    }
    const updates: number[] = [];
    const inserts: number[] = [];
    for (let i = 0; i < 3; i++) {
      updates.push(await post(s.url, ds.sourceId, [{ ...record(i), status: `update ${i}` }]));
      inserts.push(await post(s.url, ds.sourceId, [record(1_000_000 + extra++)]));
    }
    const count = await s.app.ctx.models.Record.countDocuments({});
    console.log(`${String(count).padStart(7)} | ${median(updates).toFixed(0).padStart(7)} ms | ${median(inserts).toFixed(0).padStart(7)} ms`);
    size = count;
  }
  await s.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
