import crypto from 'node:crypto';
import os from 'node:os';
import { Schema, type InferSchemaType, type Model } from 'mongoose';
import { markLiveness } from '../db/liveness';

/**
 * Which run of the server opened a journal entry (models/ingestJournal): so a process starting
 * beside others repairs only the changes of processes that are gone, never a live one's change
 * under way (a rolling restart starts one process while the others ingest).
 */
export interface ProcessOwner {
  /** This app's run (random per start). */
  id: string;
  host: string;
  pid: number;
  /** When its OS process started (ms): a later process given the same pid (pid 1 in a container) is another one. */
  since: number;
}

const OS_PROCESS_SINCE = Math.round(Date.now() - process.uptime() * 1000);

export const newOwner = (): ProcessOwner => ({ id: crypto.randomBytes(8).toString('hex'), host: os.hostname(), pid: process.pid, since: OS_PROCESS_SINCE });

/** Each live run's heartbeat: written every BEAT_MS, removed by a clean stop. */
export const serverProcessSchema = new Schema(
  {
    _id: { type: String, required: true },
    host: { type: String, required: true },
    pid: { type: Number, required: true },
    beatAt: { type: Date, required: true },
  },
  { minimize: false, versionKey: false },
);
// Beats say only which runs are alive: kept with the data, but no reason on their own for a snapshot.
markLiveness(serverProcessSchema);
export type ServerProcessDoc = InferSchemaType<typeof serverProcessSchema> & { _id: string };

const BEAT_MS = 5_000;
/** A run whose heartbeat is older than this is gone. */
const STALE_MS = 3 * BEAT_MS;
/** A change open this long is taken for lost whoever opened it (its close never ran). */
const LOST_CHANGE_MS = 30 * 60_000;

/** Whether an OS process of this host runs under `pid` (one of another user's counts). */
export const pidRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Reads the heartbeats once and answers, for a journal entry, whether the run that opened it is
 * gone: an entry without an owner (as before owners: taken for a stopped process's), one open past
 * LOST_CHANGE_MS, one from this host whose OS process is not running (or was an earlier process
 * with this pid), or one whose run's heartbeat is missing or stale.
 */
export async function goneOwners(ServerProcess: Model<ServerProcessDoc>): Promise<(entry: unknown) => boolean> {
  const beats = new Map((await ServerProcess.find().lean<ServerProcessDoc[]>()).map((b) => [b._id, new Date(b.beatAt).getTime()]));
  const now = Date.now();
  const host = os.hostname();
  return (entry) => {
    // As stored: `{ at, by }`; a bare date is an entry written before entries named their run.
    const e = entry as Partial<{ at: Date; by: ProcessOwner }> | null;
    if (!e || entry instanceof Date || !e.by || !e.at) return true;
    if (now - new Date(e.at).getTime() > LOST_CHANGE_MS) return true;
    const { by } = e;
    if (by.host === host && (!pidRunning(by.pid) || (by.pid === process.pid && by.since < OS_PROCESS_SINCE - 1_000))) return true;
    const beat = beats.get(by.id);
    return beat === undefined || now - beat > STALE_MS;
  };
}

/** Writes this run's heartbeat now and every BEAT_MS; `close()` removes it. Heartbeats gone a day are removed. */
export async function startHeartbeat(ServerProcess: Model<ServerProcessDoc>, owner: ProcessOwner, onError: (e: unknown) => void): Promise<{ close(): Promise<void> }> {
  const beat = () => ServerProcess.updateOne({ _id: owner.id }, { $set: { host: owner.host, pid: owner.pid, beatAt: new Date() } }, { upsert: true });
  await beat();
  await ServerProcess.deleteMany({ beatAt: { $lt: new Date(Date.now() - 24 * 3600_000) } });
  // Said once per outage, not every beat (readiness reports the database meanwhile).
  let failing = false;
  const timer = setInterval(() => {
    beat().then(
      () => (failing = false),
      (e) => {
        if (!failing) onError(e);
        failing = true;
      },
    );
  }, BEAT_MS);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      // With the database already gone the heartbeat goes stale by itself: nothing to say.
      await ServerProcess.deleteOne({ _id: owner.id }).catch(() => undefined);
    },
  };
}
