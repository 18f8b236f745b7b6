import mongoose, { type AnyBulkWriteOperation } from 'mongoose';
import type { UpdateMode } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/records/record';
import type { AppContext, DataSourceDoc, RecordDoc } from '../../core';
import { recordTimeReader } from '@common/time/recordTime';
import { decodeRecordKeys, encodeRecordKeys, Slicer } from '../../core';

type Json = Record<string, unknown>;

const BATCH = 1000;
/** New records inserted by one command: a group-commit flush (at most 5,000) in one; a larger request in a few. */
const INSERT_BATCH = 5000;
/**
 * Fields (at any depth, with their keyOrder entries) one insert command carries at most. The
 * driver encodes a command in one go on the event loop (BSON of 100,000 fields: tens of
 * milliseconds), so a batch of wide records goes in a few commands; narrow ones still in one.
 */
const INSERT_FIELDS = 40_000;

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

/** What a flush will store: new records and replaced ones, and what each group of the flush wrote. */
export interface RecordsPlan {
  counts: Map<number, { inserted: number; updated: number }>;
  keysByGroup: Map<number, Set<string>>;
  /** New records (one insertMany), in the order they came. */
  fresh: RecordDoc[];
  /** Known records, replaced as a whole (replaceRecords). */
  replacements: RecordDoc[];
  /** The records as the public view shows them, without reading them back. */
  records: RecordDto[];
}

/**
 * Plans the writes of one source in order, reading only the stored records of the keys they name
 * (a thousand keys a read): new keys become fresh records, known keys replacements. With
 * `assumeNew` nothing is read and every key is planned as new: the store then finds out
 * (KeysAlreadyStored) and the caller plans again with the reads. `merge` keeps
 * the stored fields a record does not send (top level); `replace` stores the record as sent.
 * Counts per group: a record whose key was stored or came earlier in the flush is an update.
 * Nothing is written: the caller decides what goes first (retention's removal, see sourceWriter).
 */
export async function planRecords(ctx: AppContext, ds: DataSourceDoc, writes: RecordWrite[], slicer = new Slicer(), opts: { assumeNew?: boolean } = {}): Promise<RecordsPlan> {
  const now = new Date();
  // Retention and ordering: each record's time (its time field, else when this version arrived), for the {dataSourceId, recordedAt} index.
  const timeOf = recordTimeReader(ds.timeField, ds.dateOrder === 'dmy' ? 'dmy' : 'mdy');
  const counts = new Map<number, { inserted: number; updated: number }>();
  const keysByGroup = new Map<number, Set<string>>();
  const states = new Map<string, State>();
  const out = new Map<string, RecordDto>();
  const docs = new Map<string, RecordDoc>();
  for (let i = 0; i < writes.length; i += BATCH) {
    const chunk = writes.slice(i, i + BATCH);
    if (!opts.assumeNew) await readStates(ctx, ds, chunk, states);
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
      await slicer.tick();
    }
    for (const recordId of touched) {
      const st = states.get(recordId)!;
      // A record new in this flush stays new (inserted once, with its last version); the revision is stamped when stored.
      docs.set(recordId, { _id: st._id, dataSourceId: ds._id, recordId, data: encodeRecordKeys(st.data), keyOrder: st.keyOrder, revision: 0, createdAt: st.createdAt, lastUpdated: now, recordedAt: new Date(timeOf(st.data, now.getTime())) } as RecordDoc);
      out.delete(recordId);
      out.set(recordId, { id: String(st._id), recordId, data: st.data, keyOrder: st.keyOrder, createdAt: new Date(st.createdAt).toISOString(), lastUpdated: now.toISOString(), revision: 0 });
      await slicer.tick();
    }
  }
  const fresh: RecordDoc[] = [];
  const replacements: RecordDoc[] = [];
  for (const [recordId, doc] of docs) (states.get(recordId)!.stored ? replacements : fresh).push(doc);
  return { counts, keysByGroup, fresh, replacements, records: [...out.values()] };
}

/**
 * Stores a plan at one revision: new records in one insertMany (5,000 at a time; a racing insert
 * of the same key — another process — falls back to upserts) and known ones in one replace
 * (replaceRecords, by _id). Records in `dropped` (retention removed them before they landed) are
 * not stored. Answers the records as the public view shows them.
 */
export async function storeRecords(
  ctx: AppContext,
  ds: DataSourceDoc,
  plan: RecordsPlan,
  revision: number,
  dropped: ReadonlySet<string> = new Set(),
  opts: { assumedNew?: boolean } = {},
): Promise<{ records: RecordDto[]; inserted: number }> {
  const now = new Date();
  const keep = (d: { recordId: string }) => !dropped.has(d.recordId);
  const fresh = plan.fresh.filter(keep);
  for (const d of [...fresh, ...plan.replacements]) d.revision = revision;
  // One command each for a flush (on the offline engine every write command costs time growing with the square of the collection).
  let inserted = 0;
  try {
    for (const part of insertCommands(fresh)) inserted += await insertFresh(ctx, ds, part, revision, now, !opts.assumedNew);
  } catch (e) {
    if (!(e instanceof KeysAlreadyStored)) throw e;
    // A plan made without reads met a stored key: what of it landed goes again, so the plan made with the reads starts from the stored records.
    await ctx.models.Record.deleteMany({ _id: { $in: fresh.map((d) => d._id) } });
    throw e;
  }
  if (plan.replacements.length) await replaceRecords(ctx, plan.replacements);
  return { records: plan.records.filter(keep).map((r) => ({ ...r, revision })), inserted };
}

/** Fields a value holds at any depth (a record's size as the encoder sees it), counted up to `limit`. */
function fieldCount(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object' || value instanceof Date) return 1;
  let n = 0;
  for (const k in value) {
    n += fieldCount((value as Json)[k], limit);
    if (n >= limit) return n;
  }
  return Math.max(n, 1);
}

/** New records split into insert commands: at most INSERT_BATCH records and about INSERT_FIELDS fields each. */
function insertCommands(fresh: RecordDoc[]): RecordDoc[][] {
  const out: RecordDoc[][] = [];
  let part: RecordDoc[] = [];
  let fields = 0;
  for (const d of fresh) {
    const n = fieldCount(d.data, INSERT_FIELDS) + d.keyOrder.length;
    if (part.length && (part.length >= INSERT_BATCH || fields + n > INSERT_FIELDS)) {
      out.push(part);
      part = [];
      fields = 0;
    }
    part.push(d);
    fields += n;
  }
  if (part.length) out.push(part);
  return out;
}

/** Reads the stored records of the keys a chunk names that are not known yet. */
async function readStates(ctx: AppContext, ds: DataSourceDoc, chunk: RecordWrite[], states: Map<string, State>): Promise<void> {
  const ids = [...new Set(chunk.map((w) => w.recordId).filter((id): id is string => id !== null && !states.has(id)))];
  if (!ids.length) return;
  for (const r of await ctx.models.Record.find({ dataSourceId: ds._id, recordId: { $in: ids } }).lean<RecordDoc[]>()) {
    states.set(r.recordId, { _id: r._id, data: decodeRecordKeys((r.data ?? {}) as Json), keyOrder: [...(r.keyOrder ?? [])], createdAt: r.createdAt, stored: true });
  }
}

/** A plan made without reads (planRecords' assumeNew) named a key that is stored: plan again with the reads. */
export class KeysAlreadyStored extends Error {
  constructor() {
    super('a key planned as new is stored');
  }
}

/** Inserts new records; answers how many documents it added (the source's count moves by it). */
async function insertFresh(ctx: AppContext, ds: DataSourceDoc, fresh: RecordDoc[], revision: number, now: Date, upsertOnDuplicate: boolean): Promise<number> {
  const { Record } = ctx.models;
  try {
    await Record.insertMany(fresh, { ordered: true, lean: true });
    return fresh.length;
  } catch (e) {
    if (!isDuplicateKey(e)) throw e;
    if (!upsertOnDuplicate) throw new KeysAlreadyStored();
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
    // Ours are the documents that carry our ids (inserted before the duplicate, or upserted now); the other process counts its own.
    return Record.countDocuments({ _id: { $in: fresh.map((d) => d._id) } });
  }
}
