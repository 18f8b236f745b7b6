import { type Lease, takeLease } from '../core';
import type { IntegrationDoc, RunDoc } from './models';
import { presentIntegration, presentSyncStatus, syncCounts } from './presenters';
import { closeRun } from './runs';
import { updateIntegration, type IntegrationsRuntime } from './runtime';

/** One sync at a time per integration, across processes: the core lease, held in the integration's `sync` fields. */
export const syncLease = (rt: IntegrationsRuntime): Lease => ({
  model: rt.models.Integration,
  fields: { owner: 'sync.leaseOwner', until: 'sync.leaseExpiresAt' },
  ms: rt.leaseMs,
  owner: rt.owner,
});

/** Takes the integration's sync lease, setting `set` with it; null while another run holds it. */
export async function acquireLease(rt: IntegrationsRuntime, id: string, set: Record<string, unknown>): Promise<IntegrationDoc | null> {
  const doc = await takeLease<IntegrationDoc>(syncLease(rt), { _id: id }, { ...set, 'sync.isRunning': true });
  if (doc) rt.app.events.emit('integration.changed', { integrationId: String(doc._id), integration: presentIntegration(doc) });
  return doc;
}

export const INTERRUPTED_MESSAGE = 'Sync interrupted before it finished; the next sync resumes from the last saved cursor';

/** Ends a sync that lost its process: our own on shutdown, anyone's whose lease ran out. Its run is closed as failed. */
export async function markInterrupted(rt: IntegrationsRuntime, filter: Record<string, unknown>): Promise<number> {
  const stale = await rt.models.Integration.find({ 'sync.isRunning': true, ...filter }).lean<IntegrationDoc[]>();
  let n = 0;
  for (const doc of stale) {
    const errors = [...(doc.sync?.errors ?? []), INTERRUPTED_MESSAGE];
    const runId = doc.sync?.runId ?? null;
    const run = runId && doc.lastRun && String(doc.lastRun._id) === runId
      ? ({ ...doc.lastRun, status: 'failed', finishedAt: new Date(), error: INTERRUPTED_MESSAGE } satisfies RunDoc)
      : null;
    const after = await updateIntegration(
      rt,
      String(doc._id),
      {
        $set: {
          'sync.isRunning': false, 'sync.leaseOwner': null, 'sync.leaseExpiresAt': null, 'sync.interrupted': true,
          'sync.message': INTERRUPTED_MESSAGE, 'sync.errors': errors, 'sync.finishedAt': new Date(), 'config.lastSyncErrors': errors,
          ...(run ? { lastRun: run } : {}),
        },
      },
      { 'sync.isRunning': true, 'sync.leaseOwner': doc.sync?.leaseOwner ?? null },
    );
    if (!after) continue;
    n++;
    if (run) await closeRun(rt, run);
    rt.app.events.emit('sync.progress', presentSyncStatus(after));
    rt.app.events.emit('sync.failed', { ...syncCounts(after), message: INTERRUPTED_MESSAGE });
  }
  return n;
}

/** Syncs whose lease expired (their process died or restarted). */
export const sweepExpiredLeases = (rt: IntegrationsRuntime) => markInterrupted(rt, { 'sync.leaseExpiresAt': { $lt: new Date() } });
