import { type Lease, takeLease } from '../../core';
import type { IntegrationDoc } from './models';
import { presentIntegration, presentSyncStatus } from './presenters';
import { updateIntegration, type ZendeskRuntime } from './runtime';

/** One sync at a time per integration, across processes: the core lease, held in the integration's `sync` fields. */
export const syncLease = (rt: ZendeskRuntime): Lease => ({
  model: rt.models.Integration,
  fields: { owner: 'sync.leaseOwner', until: 'sync.leaseExpiresAt' },
  ms: rt.leaseMs,
  owner: rt.owner,
});

/** Takes the integration's sync lease, setting `set` with it; null while another run holds it. */
export async function acquireLease(rt: ZendeskRuntime, id: string, set: Record<string, unknown>): Promise<IntegrationDoc | null> {
  const doc = await takeLease<IntegrationDoc>(syncLease(rt), { _id: id }, { ...set, 'sync.isRunning': true });
  if (doc) rt.app.events.emit('integration.changed', { integrationId: String(doc._id), integration: presentIntegration(doc) });
  return doc;
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
