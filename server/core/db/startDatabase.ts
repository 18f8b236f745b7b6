import fs from 'node:fs';
import type { Config } from '../config';
import type { Logger } from '../log';
import { startJongodb } from './jongodb';

export type DatabaseMode = 'external' | 'embedded-mongod' | 'embedded-jongodb';

/** A running database the app talks to, and how to stop what we started. */
export interface DatabaseHandle {
  uri: string;
  mode: DatabaseMode;
  /** Whether data survives a restart. */
  persistent: boolean;
  /** Why this mode was chosen, for the startup log and /api/health. */
  reason: string;
  stop(): Promise<void>;
}

const DB_NAME = 'livedash';

/** Picks the database: MONGODB_URI (production), else an embedded mongod, else the offline engine where no mongod can be had, so `npm start` works offline. */
export async function startDatabase(config: Config, log: Logger): Promise<DatabaseHandle> {
  if (config.MONGODB_URI) {
    return { uri: config.MONGODB_URI, mode: 'external', persistent: true, reason: 'MONGODB_URI is set', stop: async () => {} };
  }
  let mongodFailure = 'DB_ENGINE=jongodb';
  if (config.DB_ENGINE !== 'jongodb') {
    try {
      return await startEmbeddedMongod(config);
    } catch (e) {
      mongodFailure = describeFailure(e);
      if (config.DB_ENGINE === 'mongod') throw new Error(`Embedded mongod could not start: ${mongodFailure}`, { cause: e });
    }
  }
  const engine = await startJongodb(DB_NAME);
  const reason = `no mongod binary could be had (${mongodFailure}); using the in-memory offline engine (jongodb), data is lost on exit`;
  if (config.DATA_DIR) log.warn(`DATA_DIR=${config.DATA_DIR} is ignored: the offline engine keeps data in memory only`);
  return { uri: engine.uri, mode: 'embedded-jongodb', persistent: false, reason, stop: engine.stop };
}

async function startEmbeddedMongod(config: Config): Promise<DatabaseHandle> {
  // Offline, the default download retries cost seconds each; one quick try is enough to know.
  process.env.MONGOMS_MAX_RETRIES ??= '1';
  const { MongoMemoryServer, MongoBinary } = await import('mongodb-memory-server');
  // Resolve (or download) the binary first: failing here is quiet, failing inside create() is not.
  await MongoBinary.getPath();
  const dbPath = config.DATA_DIR;
  if (dbPath) fs.mkdirSync(dbPath, { recursive: true });
  const server = await MongoMemoryServer.create({
    instance: { dbName: DB_NAME, ip: '127.0.0.1', ...(dbPath ? { dbPath, storageEngine: 'wiredTiger' as const } : {}) },
  });
  return {
    uri: server.getUri(DB_NAME),
    mode: 'embedded-mongod',
    persistent: Boolean(dbPath),
    reason: dbPath ? `embedded mongod, data kept in ${dbPath}` : 'embedded mongod (set DATA_DIR to keep data between restarts)',
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
