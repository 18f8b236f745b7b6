import type { Model } from 'mongoose';
import type { Logger } from '../log';

type Filter = Record<string, unknown>;

/**
 * Work that comes due on a schedule, kept in the documents themselves (an integration's auto-sync,
 * a report): each document holds when it is next due, so the schedule survives restarts and is
 * shared by every process.
 */
export interface Schedule<D extends { _id: unknown }> {
  /** What runs, for the log ("zendesk auto-sync", "reports"). */
  name: string;
  // Any model: the due time is one field of whatever document is scheduled.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  model: Model<any>;
  /** The field holding when the document is next due (null: not scheduled). */
  dueField: string;
  /** Which documents are scheduled at all (auto-sync on, the integration active…). */
  scheduled: Filter;
  /**
   * When the document is due next after `from`: the first slot of its schedule after that time —
   * so runs missed while every process was down are made up once, not once per missed slot. Null:
   * not again.
   */
  next(doc: D, from: Date): Date | null;
  /** The claimed run. It should catch its own errors; anything it throws is logged. */
  run(doc: D): Promise<void>;
  /** Count the next due time from the end of a run, so slow work never piles up (default: from the claim). */
  fromRunEnd?: boolean;
  /** How often to look for due documents. */
  tickMs: number;
  /** Work before each look (sweeping runs whose process died). */
  beforeTick?(): Promise<unknown>;
  /** Whether this process is running the document's work now (it is not claimed again meanwhile). */
  busy?(id: string): boolean;
}

/** A running schedule: `tick` looks for due work now (tests, or after a change), `close` stops looking. */
export interface Scheduler {
  tick(): Promise<void>;
  close(): Promise<void>;
}

/** The most documents one look claims; the rest are found by the next one. */
const BATCH = 100;

/**
 * Looks every `tickMs` for documents that are due and runs each once, in whichever process claims
 * it first: the claim is one atomic update that moves the due time to the next slot, matching the
 * due time it read, so two processes cannot both win it. A look does not wait for the runs it
 * starts.
 */
export function startScheduler<D extends { _id: unknown }>(log: Logger, s: Schedule<D>): Scheduler {
  let ticking: Promise<void> | null = null;
  let closed = false;

  async function claimAndRun(doc: D): Promise<void> {
    const due = (doc as Record<string, unknown>)[s.dueField];
    const claimedNext = s.next(doc, new Date());
    const claimed = await s.model
      .findOneAndUpdate({ _id: doc._id, ...s.scheduled, [s.dueField]: due }, { $set: { [s.dueField]: claimedNext } }, { returnDocument: 'after' })
      .lean<D>();
    if (!claimed) return;
    try {
      await s.run(claimed);
    } catch (e) {
      log.error(`${s.name}: the run of ${String(doc._id)} failed`, e);
    }
    if (!s.fromRunEnd || closed) return;
    // Unless the schedule was changed during the run (then its own due time stands).
    await s.model.updateOne({ _id: doc._id, ...s.scheduled, [s.dueField]: claimedNext }, { $set: { [s.dueField]: s.next(claimed, new Date()) } });
  }

  async function tick(): Promise<void> {
    await s.beforeTick?.();
    const due = await s.model
      .find({ ...s.scheduled, [s.dueField]: { $ne: null, $lte: new Date() } })
      .limit(BATCH)
      .lean<D[]>();
    for (const doc of due) {
      if (closed) return;
      if (s.busy?.(String(doc._id))) continue;
      void claimAndRun(doc).catch((e: unknown) => log.error(`${s.name}: could not claim ${String(doc._id)}`, e));
    }
  }

  const safeTick = () => {
    if (closed || ticking) return;
    ticking = tick()
      .catch((e: unknown) => log.error(`${s.name}: looking for due work failed`, e))
      .finally(() => {
        ticking = null;
      });
  };
  const timer = setInterval(safeTick, s.tickMs);
  timer.unref();
  safeTick();

  return {
    tick: () => tick(),
    async close() {
      closed = true;
      clearInterval(timer);
      await ticking;
    },
  };
}
