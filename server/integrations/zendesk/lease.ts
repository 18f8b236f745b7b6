import type { IntegrationDoc } from './models';
import { presentSyncStatus } from './presenters';
import { updateIntegration, type ZendeskRuntime } from './runtime';

/**
 * One sync at a time per integration, across processes: a lease in the integration document,
 * taken with one atomic findOneAndUpdate and kept alive by a heartbeat.
 */
export async function acquireLease(rt: ZendeskRuntime, id: string, set: Record<string, unknown>): Promise<IntegrationDoc | null> {
  const now = new Date();
  return updateIntegration(
    rt,
    id,
    { $set: { ...set, 'sync.isRunning': true, 'sync.leaseOwner': rt.owner, 'sync.leaseExpiresAt': new Date(now.getTime() + rt.leaseMs) } },
    { $or: [{ 'sync.leaseExpiresAt': null }, { 'sync.leaseExpiresAt': { $lte: now } }] },
  );
}

/** Extends our lease; false when another process took it over (ours expired). */
export async function renewLease(rt: ZendeskRuntime, id: string): Promise<boolean> {
  const res = await rt.models.Integration.updateOne(
    { _id: id, 'sync.leaseOwner': rt.owner },
    { $set: { 'sync.leaseExpiresAt': new Date(Date.now() + rt.leaseMs) } },
  );
  return res.matchedCount > 0;
}

export const INTERRUPTED_MESSAGE = 'Sync interrupted before it finished; the next sync resumes from the last saved cursor';

/** Ends a sync that lost its process: our own on shutdown, anyone's whose lease ran out. */
export async function markInterrupted(rt: ZendeskRuntime, filter: Record<string, unknown>): Promise<number> {
  const stale = await rt.models.Integration.find({ 'sync.isRunning': true, ...filter }).lean<IntegrationDoc[]>();
  let n = 0;
  for (const doc of stale) {
    const errors = [...(doc.sync?.errors ?? []), INTERRUPTED_MESSAGE];
    const after = await updateIntegration(
      rt,
      String(doc._id),
      {
        $set: {
          'sync.isRunning': false, 'sync.leaseOwner': null, 'sync.leaseExpiresAt': null, 'sync.interrupted': true,
          'sync.message': INTERRUPTED_MESSAGE, 'sync.errors': errors, 'sync.finishedAt': new Date(), 'config.lastSyncErrors': errors,
        },
      },
      { 'sync.isRunning': true, 'sync.leaseOwner': doc.sync?.leaseOwner ?? null },
    );
    if (!after) continue;
    n++;
    rt.app.events.emit('sync.progress', presentSyncStatus(after));
    rt.app.events.emit('sync.failed', { integrationId: String(after._id), message: INTERRUPTED_MESSAGE });
  }
  return n;
}

/** Syncs whose lease expired (their process died or restarted). */
export const sweepExpiredLeases = (rt: ZendeskRuntime) => markInterrupted(rt, { 'sync.leaseExpiresAt': { $lt: new Date() } });
