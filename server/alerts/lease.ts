import { type AppContext, type Lease, leaseFree, releaseLeases, renewLeases, takeLease } from '../core';
import type { AlertEngine } from './engine';
import type { AlertDoc, AlertModels } from './models';

/**
 * Each rule is evaluated (and its changes written) by exactly one process: the holder of its lease
 * (the core lease, in the rule's `lease` fields), taken with one atomic update and renewed a third
 * of the way through. A process that stops hands its rules back; one that dies loses them when the lease runs
 * out, and another takes them over with their saved state.
 */
export class AlertLeases {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly app: AppContext,
    private readonly models: AlertModels,
    private readonly engine: AlertEngine,
    private readonly leaseMs: number,
  ) {}

  get owner(): string {
    return this.engine.owner;
  }

  /** Our hold on rules. */
  get lease(): Lease {
    return { model: this.models.Alert, fields: { owner: 'lease.owner', until: 'lease.until' }, ms: this.leaseMs, owner: this.owner };
  }

  /** The lease fields of a rule this process takes now. */
  fresh(): { owner: string; until: Date } {
    return { owner: this.owner, until: new Date(Date.now() + this.leaseMs) };
  }

  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), Math.max(200, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** Renews ours, follows changes of the rules we hold, and takes the rules nobody holds up to our share. */
  tick(): Promise<void> {
    this.ticking ??= this.renewAndClaim()
      .catch((e: unknown) => this.app.log.error('alerts: could not renew or take rule leases', e))
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private async renewAndClaim(): Promise<void> {
    if (this.closed) return;
    const { Alert, AlertWorker } = this.models;
    // Counted among the processes sharing the rules while we live.
    await AlertWorker.updateOne({ _id: this.owner }, { $set: { until: new Date(Date.now() + this.leaseMs) } }, { upsert: true });
    await AlertWorker.deleteMany({ until: { $lt: new Date(Date.now() - 3_600_000) } });
    await renewLeases(this.lease);
    const held = await Alert.find({ 'lease.owner': this.owner }).lean<AlertDoc[]>();
    const ids = new Set(held.map((d) => String(d._id)));
    for (const id of this.engine.heldIds()) if (!ids.has(id)) this.engine.drop(id);
    for (const d of held) {
      // Changed by a request another process answered: evaluate the rule as it is now.
      if (this.engine.heldVersion(String(d._id)) !== d.configVersion) await this.engine.hold(d);
    }
    const now = new Date();
    // Each process evaluates its share of the rules: one that holds more hands the rest back for the others to take.
    const [rules, workers] = await Promise.all([Alert.countDocuments({}), AlertWorker.countDocuments({ until: { $gt: now } })]);
    const share = Math.ceil(rules / Math.max(1, workers));
    if (held.length > share) return this.handBack(held.length - share);
    const loose = await Alert.find(leaseFree(this.lease.fields, now)).limit(Math.min(500, share - held.length)).lean<AlertDoc[]>();
    for (const d of loose) {
      if (this.closed) return;
      const taken = await takeLease<AlertDoc>(this.lease, { _id: d._id });
      if (taken) await this.engine.hold(taken);
    }
  }

  /** Hands back `n` of our rules (none in the middle of a change); another process takes them on its next round. */
  private async handBack(n: number): Promise<void> {
    const ids = [...this.engine.rules.values()].filter((r) => !r.busy).slice(0, n).map((r) => String(r.doc._id));
    for (const id of ids) this.engine.drop(id);
    await releaseLeases(this.lease, { _id: { $in: ids } });
  }

  /** Hands our rules back at once, so another process takes them without waiting for the lease to run out. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    await releaseLeases(this.lease).catch(() => undefined);
    await this.models.AlertWorker.deleteOne({ _id: this.owner }).catch(() => undefined);
  }
}
