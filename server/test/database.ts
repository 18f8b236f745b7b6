import mongoose from 'mongoose';
import { afterAll, beforeAll } from 'vitest';
import { startJongodb, type JongodbHandle } from '../core/db/jongodb';

/** A database the servers of a test file come and go on; read it after `beforeAll`. */
export interface OutlivingDatabase {
  /** The MONGODB_URI to give each server. */
  readonly uri: string;
  /** A connection of the test's own, to read what a stopped server wrote. */
  readonly conn: mongoose.Connection;
}

/**
 * One offline database for the whole test file that outlives its servers, as MongoDB does in
 * production: what a stopped (or killed) server wrote is read afterwards. Registers its own
 * `beforeAll` (start, connect) and `afterAll` (disconnect, stop); call it at the top of the file.
 */
export function outlivingDatabase(): OutlivingDatabase {
  let engine: JongodbHandle | undefined;
  let conn: mongoose.Connection | undefined;
  beforeAll(async () => {
    engine = await startJongodb('livedash');
    conn = await mongoose.createConnection(engine.uri, { autoCreate: false, autoIndex: false }).asPromise();
  }, 30_000);
  afterAll(async () => {
    await conn?.close();
    await engine?.stop();
  });
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('the test database starts in beforeAll: read it inside a test or hook');
    return v;
  };
  return {
    get uri() {
      return ready(engine).uri;
    },
    get conn() {
      return ready(conn);
    },
  };
}
