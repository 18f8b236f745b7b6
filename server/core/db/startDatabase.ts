import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../log';
import { describeDir, IN_MEMORY, lockDataDir, StartRefused } from './dataDir';
import { startJongodb } from './jongodb';
import { SNAPSHOT_WITHIN_MS } from './snapshotSchedule';

export type DatabaseMode = 'external' | 'embedded-mongod' | 'embedded-jongodb';

/** How the data outlives the process: the external server's business, mongod's own files, the offline engine's snapshot, or not at all. */
export type DataKept = 'external' | 'mongod-files' | 'snapshot' | 'memory';

/** A running database the app talks to, and how to stop what we started. */
export interface DatabaseHandle {
  uri: string;
  mode: DatabaseMode;
  /** Whether data survives a restart. */
  persistent: boolean;
  /** How it survives (db/dataKeeper writes the snapshot). */
  kept: DataKept;
  /** The data folder this run holds (its lock is ours until stop), or null. */
  dataDir: string | null;
  /** The startup line's words, e.g. "embedded (offline engine), data kept in ./data (snapshot every 5 s)". */
  summary: string;
  /** Why this mode was chosen, for the admin's health view. */
  reason: string;
  stop(): Promise<void>;
}

const DB_NAME = 'livedash';
const OFFLINE_REASON = (why: string) => `no mongod binary could be had (${why}); using the offline engine (jongodb)`;

/**
 * Picks the database: MONGODB_URI (production), else an embedded mongod, else the offline engine
 * where no mongod can be had, so `npm start` works offline. The embedded ones keep their data in
 * DATA_DIR (mongod as its dbPath; the offline engine through a snapshot, db/dataKeeper), which one
 * server holds at a time; `:memory:` keeps nothing.
 */
export async function startDatabase(config: Config, log: Logger): Promise<DatabaseHandle> {
  if (config.MONGODB_URI) {
    if (config.DATA_DIR !== IN_MEMORY && config.DATA_DIR !== './data') log.info(`DATA_DIR=${config.DATA_DIR} plays no part: MONGODB_URI is set`);
    return { uri: config.MONGODB_URI, mode: 'external', persistent: true, kept: 'external', dataDir: null, summary: 'MONGODB_URI (external)', reason: 'MONGODB_URI is set', stop: async () => {} };
  }
  const dataDir = config.DATA_DIR === IN_MEMORY ? null : config.DATA_DIR;
  const lock = dataDir ? lockDataDir(dataDir) : null;
  try {
    let mongodFailure = 'DB_ENGINE=jongodb';
    if (config.DB_ENGINE !== 'jongodb') {
      try {
        return withLock(await startEmbeddedMongod(dataDir), lock);
      } catch (e) {
        mongodFailure = describeFailure(e);
        if (config.DB_ENGINE === 'mongod') throw new Error(`Embedded mongod could not start: ${mongodFailure}`, { cause: e });
      }
    }
    if (dataDir && holdsMongodFiles(dataDir)) {
      throw new StartRefused(
        `DATA_DIR ${describeDir(dataDir)} holds a mongod database, which the offline engine cannot read, and no mongod could be had (${mongodFailure}). ` +
          'Start where mongod can be downloaded once (or is cached), or give this run another DATA_DIR.',
      );
    }
    const engine = await startJongodb(DB_NAME);
    const summary = dataDir ? `embedded (offline engine), data kept in ${dataDir} (snapshot every ${SNAPSHOT_WITHIN_MS / 1000} s)` : 'embedded (offline engine), in memory only (DATA_DIR=:memory:): data is lost on exit';
    return withLock(
      { uri: engine.uri, mode: 'embedded-jongodb', persistent: Boolean(dataDir), kept: dataDir ? 'snapshot' : 'memory', dataDir, summary, reason: OFFLINE_REASON(mongodFailure), stop: engine.stop },
      lock,
    );
  } catch (e) {
    lock?.release();
    throw e;
  }
}

/** The lock goes with the database: released once the engine has stopped. */
function withLock(db: DatabaseHandle, lock: { release(): void } | null): DatabaseHandle {
  if (!lock) return db;
  return { ...db, stop: () => db.stop().finally(() => lock.release()) };
}

/** Whether a folder already holds mongod's files (its storage engine's metadata). */
const holdsMongodFiles = (dir: string) => fs.existsSync(path.join(dir, 'WiredTiger')) || fs.existsSync(path.join(dir, 'storage.bson'));

async function startEmbeddedMongod(dbPath: string | null): Promise<DatabaseHandle> {
  // Offline, the default download retries cost seconds each; one quick try is enough to know.
  process.env.MONGOMS_MAX_RETRIES ??= '1';
  const { MongoMemoryServer, MongoBinary } = await import('mongodb-memory-server');
  // Resolve (or download) the binary first: failing here is quiet, failing inside create() is not.
  await MongoBinary.getPath();
  const server = await MongoMemoryServer.create({
    instance: { dbName: DB_NAME, ip: '127.0.0.1', ...(dbPath ? { dbPath, storageEngine: 'wiredTiger' as const } : {}) },
  });
  return {
    uri: server.getUri(DB_NAME),
    mode: 'embedded-mongod',
    persistent: Boolean(dbPath),
    kept: dbPath ? 'mongod-files' : 'memory',
    dataDir: dbPath,
    summary: dbPath ? `embedded (mongod), data kept in ${dbPath}` : 'embedded (mongod), in memory only (DATA_DIR=:memory:): data is lost on exit',
    reason: dbPath ? `embedded mongod, data kept in ${dbPath}` : 'embedded mongod, DATA_DIR=:memory:',
    stop: async () => {
      await server.stop({ doCleanup: !dbPath, force: false });
    },
  };
}

function describeFailure(e: unknown): string {
  const detail = (e as { msg?: unknown })?.msg;
  if (typeof detail === 'string') return detail;
  return e instanceof Error ? e.message.split('\n')[0].replace(/,?\s*Details:$/, '') : String(e);
}
