import type { Model } from 'mongoose';

/**
 * A lease held in a document: "this process does this work, until then". Alerts (which process
 * evaluates a rule), the outbox (which process sends a delivery), syncs (one run per integration)
 * and scheduled runs all hold one the same way: two fields of the document — the owner and the
 * time it runs out — taken with one atomic update where the lease is free or ran out, renewed by
 * its holder, handed back when done. A holder that dies simply stops renewing: the lease runs out
 * and another process takes the work over.
 */
export interface LeaseFields {
  /** The document's field naming the holder (e.g. `lease.owner`, `sync.leaseOwner`). */
  owner: string;
  /** The field holding when the lease runs out (e.g. `lease.until`, `sync.leaseExpiresAt`). */
  until: string;
}

/** One process's hold on leases of one kind: where they live, for how long, and who holds them. */
export interface Lease {
  // Any model: the lease is two fields of whatever document carries it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  model: Model<any>;
  fields: LeaseFields;
  /** How long a taken or renewed lease lasts. */
  ms: number;
  /** This process (or run) as a holder. */
  owner: string;
}

type Filter = Record<string, unknown>;

/** The filter of documents whose lease is free at `now`: never taken, handed back, or run out. */
export const leaseFree = (fields: LeaseFields, now = new Date()): Filter => ({
  $or: [{ [fields.until]: null }, { [fields.until]: { $lte: now } }],
});

/** The filter of documents whose lease `lease.owner` holds. */
export const leaseHeldBy = (lease: Lease): Filter => ({ [lease.fields.owner]: lease.owner });

const holding = (lease: Lease, now = Date.now()): Filter => ({
  [lease.fields.owner]: lease.owner,
  [lease.fields.until]: new Date(now + lease.ms),
});

const released = (fields: LeaseFields): Filter => ({ [fields.owner]: null, [fields.until]: null });

/**
 * Takes the lease of the one document matching `filter` whose lease is free, setting `set` in the
 * same step; answers the document as it became, or null when none matched (held by another, or
 * gone). Only one process can win a document's lease.
 */
export async function takeLease<D>(lease: Lease, filter: Filter, set: Filter = {}): Promise<D | null> {
  const now = new Date();
  return lease.model
    .findOneAndUpdate({ ...filter, ...leaseFree(lease.fields, now) }, { $set: { ...set, ...holding(lease, now.getTime()) } }, { returnDocument: 'after' })
    .lean<D>();
}

/** Extends the leases we hold among the documents matching `filter`; answers how many we still hold. */
export async function renewLeases(lease: Lease, filter: Filter = {}): Promise<number> {
  const { fields } = lease;
  const res = await lease.model.updateMany({ ...filter, ...leaseHeldBy(lease) }, { $set: { [fields.until]: new Date(Date.now() + lease.ms) } });
  return res.matchedCount;
}

/**
 * Hands back the leases we hold among the documents matching `filter`, setting `set` in the same
 * step (a run's outcome); answers how many were ours. A lease another process took over since ours
 * ran out is not touched.
 */
export async function releaseLeases(lease: Lease, filter: Filter = {}, set: Filter = {}): Promise<number> {
  const res = await lease.model.updateMany({ ...filter, ...leaseHeldBy(lease) }, { $set: { ...set, ...released(lease.fields) } });
  return res.matchedCount;
}

/**
 * Keeps one document's lease alive while its work runs: renewed a third of the way through each
 * period. `onLost` is called once if the lease was lost (another process took it over after ours
 * ran out — a stalled process); the work should then stop. Answers the function that stops renewing.
 */
export function keepLease(lease: Lease, filter: Filter, onLost: () => void, log?: (e: unknown) => void): () => void {
  let lost = false;
  const timer = setInterval(
    () => {
      renewLeases(lease, filter)
        .then((held) => {
          if (held > 0 || lost) return;
          lost = true;
          onLost();
        })
        .catch((e: unknown) => log?.(e));
    },
    Math.max(200, Math.floor(lease.ms / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
