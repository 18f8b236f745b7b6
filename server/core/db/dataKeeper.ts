import fs from 'node:fs';
import path from 'node:path';
import type mongoose from 'mongoose';
import { AppHandle } from '../context';
import type { Logger } from '../log';
import { describeDir, SNAPSHOT_FILE, StartRefused } from './dataDir';
import { livenessOf } from './liveness';
import { EXACT_TYPES, readSnapshot, SnapshotUnreadable, writeSnapshot, type Snapshot } from './snapshot';
import { SnapshotSchedule, SNAPSHOT_WITHIN_MS } from './snapshotSchedule';
import type { DatabaseHandle } from './startDatabase';

/** What the operator's views say of the kept data (GET /api/admin/engine, /api/admin/health). */
export interface DataKeepingStatus {
  kept: DatabaseHandle['kept'];
  dataDir: string | null;
  /** Offline engine: the snapshot's file, when the last one was written, and the first change not on disk yet. */
  snapshot: { file: string; withinSeconds: number; lastSavedAt: string | null; unsavedSince: string | null; lastError: string | null } | null;
}

export interface DataKeeper {
  status(): DataKeepingStatus;
  /** A clean stop: the last snapshot, once every other part has written what it had (run before the connection closes). */
  close(): Promise<void>;
}

/** The app's data keeper (set at start): the engine and health views read its status. */
export const dataKeeping = new AppHandle<DataKeeper>('the data keeper');

/** Commands that change what a snapshot holds (in a transaction, its commit is what counts). */
const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify', 'createIndexes', 'dropIndexes', 'drop', 'create', 'commitTransaction', 'bulkWrite', 'renameCollection']);

/**
 * Keeps the offline engine's data in its folder. At start the folder's snapshot is restored, one
 * insertMany per collection (the engine checks every unique index against the whole collection on
 * each write command, so one command per collection is what a restore may cost). Then every write
 * command the app's connection sends is seen (command monitoring), and SnapshotSchedule writes a
 * snapshot within SNAPSHOT_WITHIN_MS of a change, and a last one on a clean stop.
 *
 * What is kept: every collection of every model registered on the connection, every collection a
 * write command named, and every collection the restored snapshot held — so a feature's new
 * collection is kept without being listed anywhere (the engine cannot list its collections). A
 * snapshot is read inside one transaction at snapshot isolation: a point in time, never half of a
 * write; a change made of several writes is journalled by the app (models/ingestJournal), and a
 * start after a kill repairs it as it would on mongod.
 *
 * With mongod in the folder, a snapshot left by an earlier offline run is imported once into an
 * empty database (the laptop that went online) and renamed `…imported-<time>.ejson`.
 */
export async function keepData(db: DatabaseHandle, conn: mongoose.Connection, log: Logger): Promise<DataKeeper> {
  const file = db.dataDir ? path.join(db.dataDir, SNAPSHOT_FILE) : null;
  const nothing: DataKeeper = { status: () => ({ kept: db.kept, dataDir: db.dataDir, snapshot: null }), close: async () => {} };
  if (!file) return nothing;
  if (db.kept === 'mongod-files') {
    await importIntoMongod(conn, file, log);
    return nothing;
  }
  if (db.kept !== 'snapshot') return nothing;

  const known = new Set<string>();
  const snapshot = await readOrRefuse(file);
  if (snapshot) {
    const restored = await restore(conn, snapshot);
    for (const name of snapshot.collections.keys()) known.add(name);
    log.info(`restored ${restored} document${restored === 1 ? '' : 's'} in ${snapshot.collections.size} collections from ${file} (written ${snapshot.at.toISOString()})`);
  }
  // A temp file left by a crash while writing is not a snapshot.
  await fs.promises.rm(`${file}.tmp`, { force: true });

  const client = conn.getClient();
  const dbName = conn.db!.databaseName;
  const schedule = new SnapshotSchedule(
    () => save(conn, file, known).then(() => undefined),
    (e, first) => {
      if (first) log.error(`could not write the snapshot ${file} (retrying every ${SNAPSHOT_WITHIN_MS / 1000} s; changes since are not on disk yet)`, e);
    },
  );
  // What each write command under way may change (judged when it starts, counted when it succeeds).
  const underWay = new Map<number, { liveness: boolean }>();
  const onStarted = (ev: mongoose.mongo.CommandStartedEvent) => {
    if (ev.databaseName !== dbName || !WRITES.has(ev.commandName)) {
      if (ev.commandName === 'commitTransaction') underWay.set(ev.requestId, { liveness: false });
      return;
    }
    const command = ev.command as Record<string, unknown>;
    const name = command[ev.commandName];
    if (typeof name === 'string' && !name.startsWith('system.')) known.add(name);
    underWay.set(ev.requestId, { liveness: typeof name === 'string' && onlyLiveness(conn, name, ev.commandName, command) });
  };
  const onEnded = (ev: mongoose.mongo.CommandSucceededEvent | mongoose.mongo.CommandFailedEvent) => {
    const write = underWay.get(ev.requestId);
    if (!write) return;
    underWay.delete(ev.requestId);
    if ('reply' in ev && !write.liveness && changedSomething(ev.commandName, ev.reply as Record<string, unknown>)) schedule.changed();
  };
  client.on('commandStarted', onStarted);
  client.on('commandSucceeded', onEnded);
  client.on('commandFailed', onEnded);
  return {
    status: () => {
      const s = schedule.status();
      const iso = (d: Date | null) => (d ? d.toISOString() : null);
      return {
        kept: db.kept,
        dataDir: db.dataDir,
        snapshot: { file, withinSeconds: SNAPSHOT_WITHIN_MS / 1000, lastSavedAt: iso(s.lastSavedAt), unsavedSince: iso(s.unsavedSince), lastError: s.lastError },
      };
    },
    async close() {
      await schedule.close();
      client.off('commandStarted', onStarted);
      client.off('commandSucceeded', onEnded);
      client.off('commandFailed', onEnded);
    },
  };
}

/** Whether a write command's reply says it changed a document (an update that matched nothing, or set what was there, did not). */
function changedSomething(command: string, reply: Record<string, unknown>): boolean {
  const n = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? NaN));
  if (command === 'insert' || command === 'delete') return !(n(reply.n) === 0);
  if (command === 'update') return !(n(reply.nModified) === 0 && !(reply.upserted as unknown[] | undefined)?.length);
  if (command === 'findAndModify' || command === 'findandmodify') return !(n((reply.lastErrorObject as Record<string, unknown> | undefined)?.n) === 0);
  return true;
}

/** Whether a write touches only what its collection's schema marked as liveness (db/liveness). */
function onlyLiveness(conn: mongoose.Connection, collection: string, command: string, body: Record<string, unknown>): boolean {
  const model = Object.values(conn.models).find((m) => m.collection.collectionName === collection);
  const marked = model && livenessOf(model.schema);
  if (!marked) return false;
  if (marked === true) return true;
  if (command !== 'update') return false;
  // Every statement a plain $set of marked paths only (and the updatedAt that mongoose's timestamps add to every update).
  const stamp = model.schema.get('timestamps') ? 'updatedAt' : null;
  return (body.updates as { u?: unknown }[] | undefined)?.every(({ u }) => {
    if (!u || typeof u !== 'object' || Array.isArray(u)) return false;
    const ops = Object.keys(u);
    const set = (u as { $set?: Record<string, unknown> }).$set;
    return ops.length === 1 && set !== undefined && Object.keys(set).every((p) => marked.includes(p) || p === stamp);
  }) ?? false;
}

async function readOrRefuse(file: string): Promise<Snapshot | null> {
  try {
    return await readSnapshot(file);
  } catch (e) {
    if (!(e instanceof SnapshotUnreadable)) throw e;
    // Starting empty would overwrite it with an empty snapshot within seconds: the operator decides.
    throw new StartRefused(
      `The data snapshot ${e.message}; not loaded. Nothing was changed: move it out of ${describeDir(path.dirname(file))} to start empty, or put a good copy in its place.`,
    );
  }
}

/** Inserts a snapshot's documents: one insertMany per collection, in their order. Returns how many. */
export async function restore(conn: mongoose.Connection, snapshot: Snapshot): Promise<number> {
  let n = 0;
  for (const [name, docs] of snapshot.collections) {
    if (!docs.length) continue;
    await conn.db!.collection(name).insertMany(docs, { ordered: true });
    n += docs.length;
  }
  return n;
}

/** The collections to write: the connection's models', and those written or restored this run. */
function collectionsOf(conn: mongoose.Connection, known: Set<string>): string[] {
  const names = new Set(known);
  for (const model of Object.values(conn.models)) names.add(model.collection.collectionName);
  return [...names].sort();
}

/** Writes one snapshot, every collection read at one point in time (a read-only snapshot transaction). */
async function save(conn: mongoose.Connection, file: string, known: Set<string>) {
  const names = collectionsOf(conn, known);
  const session = conn.getClient().startSession();
  try {
    session.startTransaction({ readConcern: { level: 'snapshot' } });
    return await writeSnapshot(file, names, (name) => conn.db!.collection(name).find({}, { session, ...EXACT_TYPES, batchSize: 1_000 }));
  } finally {
    await session.abortTransaction().catch(() => undefined);
    await session.endSession();
  }
}

async function importIntoMongod(conn: mongoose.Connection, file: string, log: Logger) {
  if (!fs.existsSync(file)) return;
  const existing = await conn.db!.listCollections({}, { nameOnly: true }).toArray();
  if (existing.length) {
    log.warn(`${file} (the offline engine's data) lies beside mongod's database, which is not empty: not imported`);
    return;
  }
  const snapshot = await readOrRefuse(file);
  if (!snapshot) return;
  const n = await restore(conn, snapshot);
  const kept = file.replace(/\.ejson$/, `.imported-${new Date().toISOString().replace(/[:.]/g, '-')}.ejson`);
  await fs.promises.rename(file, kept);
  log.info(`imported ${n} documents from the offline engine's snapshot into mongod; the file is kept as ${kept}`);
}
