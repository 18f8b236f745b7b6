import mongoose, { type AnyBulkWriteOperation } from 'mongoose';
import type { RecordDto } from '@common/schemas/record';
import type { AppContext } from '../context';
import { recordTimeReader } from '@common/recordTime';
import { encodeKeys } from '../db/fieldNames';
import type { DataSourceDoc, RecordDoc } from '../models';

type Json = Record<string, unknown>;
export interface KeyedRecord {
  recordId: string;
  record: Json;
}

const BATCH = 1000;

/**
 * Replaces known records. With transactions and more than a couple of records: delete and
 * re-insert the batch atomically (two writes instead of one per record — on the offline engine
 * each single write costs time proportional to the collection's size). Otherwise (standalone
 * mongod, or one or two records): one update per record.
 */
export async function replaceRecords(ctx: AppContext, docs: RecordDoc[]): Promise<void> {
  const { Record } = ctx.models;
  if (!ctx.transactions || docs.length <= 2) {
    const ops: AnyBulkWriteOperation<RecordDoc>[] = docs.map((d) => ({
      updateOne: { filter: { _id: d._id }, update: { $set: { data: d.data, keyOrder: d.keyOrder, lastUpdated: d.lastUpdated, revision: d.revision, recordedAt: d.recordedAt } } },
    }));
    await Record.bulkWrite(ops, { ordered: true });
    return;
  }
  const session = await ctx.conn.startSession();
  try {
    await session.withTransaction(async () => {
      await Record.deleteMany({ _id: { $in: docs.map((d) => d._id) } }, { session });
      await Record.insertMany(docs, { session, ordered: true, lean: true });
    });
  } finally {
    await session.endSession();
  }
}
/** MongoDB's duplicate-key error, by its code (both engines set it, also on bulk write errors). */
const isDuplicateKey = (e: unknown) => (e as { code?: number })?.code === 11000;

/**
 * Writes records of one source at one revision: new keys in one insertMany, known keys as
 * updates by _id (a racing insert of the same key falls back to upserts). Returns the records
 * as the public view shows them, without reading them back.
 */
export async function writeRecords(ctx: AppContext, ds: DataSourceDoc, accepted: KeyedRecord[], revision: number): Promise<{ inserted: number; updated: number; records: RecordDto[] }> {
  const { Record } = ctx.models;
  const now = new Date();
  // Retention: each record's time (its time field, else now), stored for the {dataSourceId, recordedAt} index.
  const timeOf = recordTimeReader(ds.timeField);
  let inserted = 0;
  let updated = 0;
  const out = new Map<string, RecordDto>();
  for (let i = 0; i < accepted.length; i += BATCH) {
    const batch = new Map<string, Json>();
    for (const { recordId, record } of accepted.slice(i, i + BATCH)) {
      if (batch.has(recordId)) updated++;
      batch.delete(recordId);
      batch.set(recordId, record);
    }
    const ids = [...batch.keys()];
    const existing = new Map(
      (await Record.find({ dataSourceId: ds._id, recordId: { $in: ids } }).lean<RecordDoc[]>()).map((r) => [r.recordId, r]),
    );
    const fresh: RecordDoc[] = [];
    const replacements: RecordDoc[] = [];
    for (const [recordId, record] of batch) {
      const keyOrder = Object.keys(record);
      const data = encodeKeys(record);
      const known = existing.get(recordId);
      const _id = known?._id ?? new mongoose.Types.ObjectId();
      const createdAt = known?.createdAt ?? now;
      const recordedAt = new Date(timeOf(record, now.getTime()));
      const doc = { _id, dataSourceId: ds._id, recordId, data, keyOrder, revision, createdAt, lastUpdated: now, recordedAt } as RecordDoc;
      if (known) replacements.push(doc);
      else fresh.push({ _id, dataSourceId: ds._id, recordId, data, keyOrder, revision, createdAt: now, lastUpdated: now, recordedAt } as RecordDoc);
      out.set(recordId, { id: String(_id), recordId, data: record, keyOrder, createdAt: new Date(createdAt).toISOString(), lastUpdated: now.toISOString(), revision });
    }
    if (fresh.length) {
      try {
        await Record.insertMany(fresh, { ordered: true, lean: true });
        inserted += fresh.length;
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
        // Another request inserted some of these keys meanwhile: upsert them all instead.
        const res = await Record.bulkWrite(
          fresh.map((d) => ({
            updateOne: {
              filter: { dataSourceId: ds._id, recordId: d.recordId },
              update: { $set: { data: d.data, keyOrder: d.keyOrder, lastUpdated: now, revision, recordedAt: d.recordedAt }, $setOnInsert: { _id: d._id, createdAt: now } },
              upsert: true,
            },
          })),
          { ordered: true },
        );
        inserted += res.upsertedCount;
        updated += res.matchedCount;
      }
    }
    if (replacements.length) {
      await replaceRecords(ctx, replacements);
      updated += replacements.length;
    }
  }
  return { inserted, updated, records: [...out.values()] };
}
