import { Schema, type Model } from 'mongoose';
import type { SendResult } from './channels';
import { type Lease, releaseLeases, takeLease } from '../leases/lease';
import type { Logger } from '../log';

/** Waits before the 2nd, 3rd, … attempt: about 1 s, 5 s, 30 s, 2 min, 10 min; then the delivery has failed. */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
/** How long a process may take to send one delivery before another may pick it up (its process died). */
const CLAIM_MS = 30_000;
/** How often the outbox looks for due deliveries (retries, and those another process left). */
const POLL_MS = 1_000;
/** Deliveries sent at once by one process. */
const BATCH = 50;

/** Where a delivery stands: waiting to be sent (or sent again), delivered, given up on, or dropped with its owner. */
export type OutboxStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One attempt and the answer it got. */
export interface DeliveryAttempt {
  at: Date;
  status: number | null;
  /** Our words (channels.ts SendResult). Attempts stored before `answer` existed may hold the receiver's words here. */
  message: string;
  /** What the receiver answered (its first 200 characters), or null; absent on attempts stored before it existed. */
  answer?: string | null;
  /** How long the attempt took; absent on attempts stored before it existed. */
  ms?: number;
}

/** The fields every outbox document has, whatever else its room keeps in it (the message, the channel). */
export interface OutboxDoc {
  _id: unknown;
  status: OutboxStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: Date | null;
  /** The process sending it now, until when (the core lease, taken per attempt). */
  claim: { owner: string | null; until: Date | null };
  createdAt: Date;
}

/** The outbox's fields in a mongoose schema definition: spread them into a room's delivery schema. */
export const outboxFields = {
  status: { type: String, default: 'pending' },
  attempts: { type: [Schema.Types.Mixed], default: [] },
  nextAttemptAt: { type: Date, default: null },
  claim: { owner: { type: String, default: null }, until: { type: Date, default: null } },
  createdAt: { type: Date, default: () => new Date() },
};

/** The index the outbox looks for due deliveries by: add it to a room's delivery schema. */
export const OUTBOX_DUE_INDEX = { status: 1, nextAttemptAt: 1 } as const;

/** An attempt's outcome: a channel's answer, or `gone` when what the delivery belongs to was removed (it is dropped). */
export type Attempted = SendResult & { gone?: boolean };

/** The outcome when what a delivery belongs to was removed: it is dropped, not retried. */
export const goneResult = (message: string): Attempted => ({ ok: false, retry: false, status: null, message, answer: null, gone: true });

/** How an activity entry says a settled delivery went, for every outbox alike. */
export function settledVerb(status: OutboxStatus): string {
  return status === 'delivered' ? 'delivered' : status === 'cancelled' ? 'dropped' : 'could not deliver';
}

/** The tail of an activity summary: nothing when delivered, else why, shortened (never a channel's address). */
export const settledReason = (status: OutboxStatus, result: Attempted) => (status === 'delivered' ? '' : ` (${result.message.slice(0, 120)})`);

/** How a room uses the outbox: its collection, how one delivery is sent, and what it does with the outcome. */
export interface OutboxConfig<D extends OutboxDoc> {
  /** For the log ("alerts", "reports"). */
  name: string;
  // Any model: the outbox's fields are part of whatever delivery document a room keeps.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  model: Model<any>;
  /** This process as a sender. */
  owner: string;
  /** Which due deliveries are read first (default: oldest first). */
  sort?: Record<string, 1 | -1>;
  /** Of the due deliveries, those that may go now (e.g. one at a time per rule and channel, in order). Default: all. */
  ready?(due: D[]): Promise<D[]>;
  /** One attempt at sending. Should not throw (a throw counts as a failure worth retrying). */
  send(d: D): Promise<Attempted>;
  /** A delivery reached its end: delivered, failed after its last attempt, or dropped. */
  settled?(d: D, status: Exclude<OutboxStatus, 'pending'>, result: Attempted): void;
  /** Waits before each retry (default RETRY_DELAYS_MS). */
  retryDelaysMs?: readonly number[];
}

/**
 * The outbox: a room writes its deliveries to MongoDB first (with the change they announce), then
 * the outbox sends them. Any process may send any delivery once it claimed it (the core lease in
 * the delivery's `claim` fields, with an expiry, so a delivery whose process died is sent by
 * another, with the same id). Failures worth it are retried after RETRY_DELAYS_MS; a restart
 * resumes whatever is pending. Alerts and reports each configure one.
 */
export class Outbox<D extends OutboxDoc> {
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private closed = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly delays: readonly number[];

  constructor(
    private readonly log: Logger,
    private readonly c: OutboxConfig<D>,
  ) {
    this.delays = c.retryDelaysMs ?? RETRY_DELAYS_MS;
  }

  start(): void {
    this.poll = setInterval(() => this.kick(), POLL_MS);
    this.poll.unref();
    this.kick();
  }

  /** Looks for due deliveries now (some were just written). */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.pump()
      .catch((e: unknown) => this.log.error(`${this.c.name}: the outbox could not send`, e))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private wakeAt(at: number): void {
    if (this.closed) return;
    const wait = Math.max(0, at - Date.now());
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), wait);
    this.timer.unref();
  }

  private async pump(): Promise<void> {
    const now = new Date();
    const due = await this.c.model.find({ status: 'pending', nextAttemptAt: { $lte: now } }).sort(this.c.sort ?? { createdAt: 1 }).limit(BATCH * 4).lean<D[]>();
    if (!due.length) return;
    const ready = (this.c.ready ? await this.c.ready(due) : due).filter((d) => !d.claim?.until || d.claim.until < now).slice(0, BATCH);
    await Promise.all(ready.map((d) => this.track(this.claimAndSend(d))));
  }

  /** Our claim on a delivery while we send it. */
  private get claim(): Lease {
    return { model: this.c.model, fields: { owner: 'claim.owner', until: 'claim.until' }, ms: CLAIM_MS, owner: this.c.owner };
  }

  private track(p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  private async claimAndSend(d: D): Promise<void> {
    const claimed = await takeLease<D>(this.claim, { _id: d._id, status: 'pending' });
    if (!claimed) return;
    const started = performance.now();
    const result: Attempted = await this.c.send(claimed).catch((e: unknown) => ({ ok: false, retry: true, status: null, message: e instanceof Error ? e.message : String(e), answer: null }));
    const attempts: DeliveryAttempt[] = [...(claimed.attempts ?? []), { at: new Date(), status: result.status, message: result.message.slice(0, 500), answer: result.answer, ms: Math.round(performance.now() - started) }];
    const delay = result.retry && !result.gone ? this.delays[attempts.length - 1] : undefined;
    const status: OutboxStatus = result.ok ? 'delivered' : result.gone ? 'cancelled' : delay !== undefined ? 'pending' : 'failed';
    const nextAttemptAt = status === 'pending' ? new Date(Date.now() + delay!) : null;
    await releaseLeases(this.claim, { _id: claimed._id }, { attempts, status, nextAttemptAt });
    if (nextAttemptAt) this.wakeAt(nextAttemptAt.getTime());
    if (status === 'pending') return;
    try {
      this.c.settled?.({ ...claimed, attempts, status, nextAttemptAt }, status, result);
    } catch (e) {
      this.log.error(`${this.c.name}: could not note a delivery's outcome`, e);
    }
    // What waited for this one (the next change of a rule and channel) may go now.
    this.kick();
  }

  /** Stops looking, waits for the sends under way and hands back what it claimed (another process may send it). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    await Promise.allSettled([...this.inFlight]);
    await releaseLeases(this.claim).catch(() => undefined);
  }
}
