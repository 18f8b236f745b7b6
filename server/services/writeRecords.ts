import mongoose, { type AnyBulkWriteOperation } from 'mongoose';
import type { UpdateMode } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/record';
import type { AppContext } from '../context';
import { recordTimeReader } from '@common/recordTime';
import { decodeKeys, encodeKeys } from '../db/fieldNames';
import type { DataSourceDoc, RecordDoc } from '../models';

type Json = Record<string, unknown>;

const BATCH = 1000;
/** New records inserted by one command: a group-commit flush (at most 5,000) in one; a larger request in a few. */
const INSERT_BATCH = 5000;

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

/** One record to write: its key (null: append-only, a server id is given), how it lands, and whose request it is. */
export interface RecordWrite {
  recordId: string | null;
  record: Json;
  mode: UpdateMode;
  /** The request (of a group commit) the record came with; counts are kept per group. */
  group: number;
  /**
   * An append-only record whose id derives from its request's Idempotency-Key: if stored, it is this
   * very record from an earlier try of the same request (same key, place and body), kept as it is
   * and counted as updated — a retry after a crash costs a read, not a rewrite.
   */
  keepStored?: boolean;
}

interface State {
  _id: mongoose.Types.ObjectId;
  data: Json;
  keyOrder: string[];
  createdAt: Date;
  stored: boolean;
}

/**
 * Writes records of one source at one revision, in order: new keys in one insertMany (5,000 at a
 * time) and known keys in one replace (replaceRecords, by _id) — not one command per 1,000 records
 * (a racing insert of the same key — another process — falls back to upserts).
 * `merge` keeps the stored fields a record does not send (top level); `replace` stores the record
 * as sent. Counts per group: a record whose key was stored or came earlier in the flush is an
 * update. Returns the records as the public view shows them, without reading them back, and the
 * keys each group wrote.
 */
export async function writeRecords(
  ctx: AppContext,
  ds: DataSourceDoc,
  writes: RecordWrite[],
  revision: number,
): Promise<{ counts: Map<number, { inserted: number; updated: number }>; records: RecordDto[]; keysByGroup: Map<number, Set<string>> }> {
  const now = new Date();
  // Retention and ordering: each record's time (its time field, else when this version arrived), for the {dataSourceId, recordedAt} index.
  const timeOf = recordTimeReader(ds.timeField, ds.dateOrder === 'dmy' ? 'dmy' : 'mdy');
  const counts = new Map<number, { inserted: number; updated: number }>();
  const keysByGroup = new Map<number, Set<string>>();
  const states = new Map<string, State>();
  const out = new Map<string, RecordDto>();
  // What the flush stores, by key: new records (one insertMany) and known ones (one replace).
  const fresh = new Map<string, RecordDoc>();
  const replacements = new Map<string, RecordDoc>();
  const storeFresh = async () => {
    if (!fresh.size) return;
    await insertFresh(ctx, ds, [...fresh.values()], revision, now);
    for (const recordId of fresh.keys()) states.get(recordId)!.stored = true;
    fresh.clear();
  };
  // A thousand at a time: read the known keys, apply the writes in order (new records stored 5,000 at a time).
  for (let i = 0; i < writes.length; i += BATCH) {
    const chunk = writes.slice(i, i + BATCH);
    await readStates(ctx, ds, chunk, states);
    const touched = new Set<string>();
    for (const w of chunk) {
      const c = counts.get(w.group) ?? { inserted: 0, updated: 0 };
      counts.set(w.group, c);
      const _id = new mongoose.Types.ObjectId();
      const recordId = w.recordId ?? String(_id);
      const known = states.get(recordId);
      if (known && w.keepStored) {
        c.updated++;
        continue;
      }
      touched.add(recordId);
      let keys = keysByGroup.get(w.group);
      if (!keys) keysByGroup.set(w.group, (keys = new Set()));
      keys.add(recordId);
      if (!known) {
        c.inserted++;
        states.set(recordId, { _id, data: w.record, keyOrder: Object.keys(w.record), createdAt: now, stored: false });
        continue;
      }
      c.updated++;
      if (w.mode === 'merge') {
        known.data = { ...known.data, ...w.record };
        known.keyOrder = [...known.keyOrder, ...Object.keys(w.record).filter((k) => !known.keyOrder.includes(k))];
      } else {
        known.data = w.record;
        known.keyOrder = Object.keys(w.record);
      }
    }
    for (const recordId of touched) {
      const st = states.get(recordId)!;
      // A record new in this flush stays new (inserted once, with its last version).
      (st.stored ? replacements : fresh).set(recordId, { _id: st._id, dataSourceId: ds._id, recordId, data: encodeKeys(st.data), keyOrder: st.keyOrder, revision, createdAt: st.createdAt, lastUpdated: now, recordedAt: new Date(timeOf(st.data, now.getTime())) } as RecordDoc);
      out.delete(recordId);
      out.set(recordId, { id: String(st._id), recordId, data: st.data, keyOrder: st.keyOrder, createdAt: new Date(st.createdAt).toISOString(), lastUpdated: now.toISOString(), revision });
    }
    if (fresh.size >= INSERT_BATCH) await storeFresh();
  }
  // One command each for a flush (on the offline engine every write command costs time growing with the square of the collection).
  await storeFresh();
  if (replacements.size) await replaceRecords(ctx, [...replacements.values()]);
  return { counts, records: [...out.values()], keysByGroup };
}

/** Reads the stored records of the keys a chunk names that are not known yet. */
async function readStates(ctx: AppContext, ds: DataSourceDoc, chunk: RecordWrite[], states: Map<string, State>): Promise<void> {
  const ids = [...new Set(chunk.map((w) => w.recordId).filter((id): id is string => id !== null && !states.has(id)))];
  if (!ids.length) return;
  for (const r of await ctx.models.Record.find({ dataSourceId: ds._id, recordId: { $in: ids } }).lean<RecordDoc[]>()) {
    states.set(r.recordId, { _id: r._id, data: decodeKeys((r.data ?? {}) as Json), keyOrder: [...(r.keyOrder ?? [])], createdAt: r.createdAt, stored: true });
  }
}

async function insertFresh(ctx: AppContext, ds: DataSourceDoc, fresh: RecordDoc[], revision: number, now: Date): Promise<void> {
  const { Record } = ctx.models;
  try {
    await Record.insertMany(fresh, { ordered: true, lean: true });
  } catch (e) {
    if (!isDuplicateKey(e)) throw e;
    // Another process inserted some of these keys meanwhile: upsert them all instead (as sent).
    await Record.bulkWrite(
      fresh.map((d) => ({
        updateOne: {
          filter: { dataSourceId: ds._id, recordId: d.recordId },
          update: { $set: { data: d.data, keyOrder: d.keyOrder, lastUpdated: now, revision, recordedAt: d.recordedAt }, $setOnInsert: { _id: d._id, createdAt: now } },
          upsert: true,
        },
      })),
      { ordered: true },
    );
  }
}
