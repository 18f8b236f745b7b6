/**
 * The engine's own write rates for bench:ingest's ratios: a collection with the records
 * collection's indexes, and documents shaped as the writer stores them, written by the driver
 * alone (no HTTP, no validation, no group commit).
 */
import mongoose from 'mongoose';
import type { TestServer } from '../../server/test/harness';

type Raw = ReturnType<TestServer['app']['ctx']['conn']['collection']>;

/** An empty collection `name` with the same indexes as the records collection. */
export async function rawRecordsCollection(s: TestServer, name: string): Promise<Raw> {
  const { conn, models } = s.app.ctx;
  const raw = conn.collection(name);
  // Emptied, not dropped: the offline engine has no drop command.
  await raw.deleteMany({});
  for (const ix of await models.Record.collection.indexes()) {
    if (ix.name === '_id_') continue;
    await raw.createIndex(ix.key, { name: ix.name, ...(ix.unique ? { unique: true } : {}), ...(ix.partialFilterExpression ? { partialFilterExpression: ix.partialFilterExpression } : {}) });
  }
  return raw;
}

const source = new mongoose.Types.ObjectId();

/** A record as the writer stores it (data, key order, revision and times). */
export function storedRecord(recordId: string, data: Record<string, unknown>) {
  const now = new Date();
  return { _id: new mongoose.Types.ObjectId(), dataSourceId: source, recordId, data, keyOrder: Object.keys(data), revision: 1, createdAt: now, lastUpdated: now, recordedAt: now };
}

/** Single-document inserts from `connections` concurrent loops for `seconds`, into a collection already holding `held` documents; answers inserts/s. */
export async function singleInsertRate(s: TestServer, held: number, connections: number, seconds: number, record: (n: number) => Record<string, unknown>): Promise<number> {
  const raw = await rawRecordsCollection(s, 'bench_raw_single');
  for (let i = 0; i < held; i += 1000) await raw.insertMany(Array.from({ length: Math.min(1000, held - i) }, (_, j) => storedRecord(`held-${i + j}`, record(i + j))));
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const i = n++;
        await raw.insertOne(storedRecord(`single-${i}`, record(i)));
      }
    }),
  );
  const rate = (n / (performance.now() - t0)) * 1000;
  await raw.deleteMany({});
  return rate;
}
