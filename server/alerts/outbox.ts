import { type AppContext, type Lease, releaseLeases, takeLease } from '../core';
import { sendToChannel, type SendResult } from './channels';
import type { AlertDeliveryDoc, AlertDoc, AlertModels, DeliveryAttempt } from './models';

/** Waits before the 2nd, 3rd, … attempt: about 1 s, 5 s, 30 s, 2 min, 10 min; then the delivery has failed. */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
/** How long a process may take to send one delivery before another may pick it up (its process died). */
const CLAIM_MS = 30_000;
/** How often the outbox looks for due deliveries (retries, and those another process left). */
const POLL_MS = 1_000;
/** Deliveries sent at once by one process. */
const BATCH = 50;

/**
 * The outbox: deliveries are written to MongoDB with the state change they announce, then sent.
 * Any process may send any delivery, once it claimed it (an atomic update with an expiry, so a
 * delivery whose process died is sent by another, with the same id). Per rule and channel they go
 * in the order of the changes: "resolved" never overtakes "firing".
 */
export class Outbox {
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private closed = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly app: AppContext,
    private readonly models: AlertModels,
    private readonly owner: string,
  ) {}

  start(): void {
    this.poll = setInterval(() => this.kick(), POLL_MS);
    this.poll.unref();
    this.kick();
  }

  /** Looks for due deliveries now (a state change just wrote some). */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.pump()
      .catch((e: unknown) => this.app.log.error('alerts: the outbox could not send', e))
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
    const { AlertDelivery } = this.models;
    const now = new Date();
    const due = await AlertDelivery.find({ status: 'pending', nextAttemptAt: { $lte: now } }).sort({ seq: 1, createdAt: 1 }).limit(BATCH * 4).lean<AlertDeliveryDoc[]>();
    if (!due.length) return;
    // Per rule and channel, only the earliest pending change goes: a later one waits for it.
    const alertIds = [...new Set(due.map((d) => d.alertId))];
    const pending = await AlertDelivery.find({ alertId: { $in: alertIds }, status: 'pending' }).lean<AlertDeliveryDoc[]>();
    const first = new Map<string, number>();
    for (const d of pending) {
      if (d.kind === 'test') continue;
      const key = `${d.alertId}/${d.channelId}`;
      first.set(key, Math.min(first.get(key) ?? Infinity, d.seq));
    }
    const ready = due.filter((d) => d.kind === 'test' || first.get(`${d.alertId}/${d.channelId}`) === d.seq).filter((d) => !d.claim?.until || d.claim.until < now).slice(0, BATCH);
    await Promise.all(ready.map((d) => this.track(this.claimAndSend(d))));
  }

  /** Our claim on a delivery while we send it: the core lease, in the delivery's `claim` fields. */
  private get claim(): Lease {
    return { model: this.models.AlertDelivery, fields: { owner: 'claim.owner', until: 'claim.until' }, ms: CLAIM_MS, owner: this.owner };
  }

  private track(p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  private async claimAndSend(d: AlertDeliveryDoc): Promise<void> {
    const { Alert } = this.models;
    const claimed = await takeLease<AlertDeliveryDoc>(this.claim, { _id: d._id, status: 'pending' });
    if (!claimed) return;
    const alert = await Alert.findById(claimed.alertId).lean<AlertDoc>();
    const channel = alert?.channels.find((c) => c.id === claimed.channelId);
    let result: SendResult;
    const started = performance.now();
    if (!alert || !channel) result = { ok: false, retry: false, status: null, message: 'the rule or its channel was removed', answer: null };
    else result = await sendToChannel(this.app, channel, String(claimed._id), claimed.body);
    const attempt: DeliveryAttempt = { at: new Date(), status: result.status, message: result.message.slice(0, 500), answer: result.answer, ms: Math.round(performance.now() - started) };
    const attempts: DeliveryAttempt[] = [...(claimed.attempts ?? []), attempt];
    const delay = result.retry ? RETRY_DELAYS_MS[attempts.length - 1] : undefined;
    const status = result.ok ? 'delivered' : delay !== undefined ? 'pending' : !alert || !channel ? 'cancelled' : 'failed';
    const nextAttemptAt = status === 'pending' ? new Date(Date.now() + delay!) : null;
    await releaseLeases(this.claim, { _id: claimed._id }, { attempts, status, nextAttemptAt });
    if (nextAttemptAt) this.wakeAt(nextAttemptAt.getTime());
    if (status !== 'pending') this.logOutcome(claimed, alert, status, result);
    // The next change of this rule and channel may go now.
    if (status !== 'pending' && claimed.kind !== 'test') this.kick();
  }

  /** Every delivery's outcome goes to the activity log (never the channel's address). */
  private logOutcome(d: AlertDeliveryDoc, alert: AlertDoc | null, status: string, result: SendResult): void {
    const name = alert?.name ?? d.alertId;
    const what = d.kind === 'test' ? 'test message' : `"${d.kind}" message`;
    const verb = status === 'delivered' ? 'delivered' : status === 'cancelled' ? 'dropped' : 'could not deliver';
    this.app.events.emit('activity.happened', {
      kind: status === 'delivered' ? 'alert.delivered' : 'alert.deliveryFailed',
      category: 'alert',
      objectType: 'alert',
      objectId: d.alertId,
      objectName: name,
      actor: 'alerts',
      summary: `Alert "${name}": ${verb} the ${what} to its ${d.channelType} channel${status === 'delivered' ? '' : ` (${result.message.slice(0, 120)})`}`,
      details: { deliveryId: String(d._id), channelType: d.channelType, attempts: (d.attempts?.length ?? 0) + 1, status: result.status },
    });
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
