import { AUTO_SYNC_DEFAULT_SECONDS } from '@common/constants';
import { ApiError, startScheduler, type Scheduler } from '../core';
import { sweepExpiredLeases } from './lease';
import type { IntegrationDoc } from './models';
import type { IntegrationsRuntime } from './runtime';
import { startSync } from './service';

export type AutoSyncScheduler = Scheduler;

/**
 * Runs an incremental sync every `syncInterval` seconds for integrations of every provider with
 * autoSync on, on the core scheduler: the due time lives in MongoDB (`nextAutoSyncAt`, survives
 * restarts), claiming it is one atomic update, the next run counts from the end of this one, and
 * the sync lease keeps runs from overlapping, also across processes.
 */
export function startAutoSyncScheduler(rt: IntegrationsRuntime, tickMs: number): AutoSyncScheduler {
  return startScheduler<IntegrationDoc>(rt.app.log, {
    name: 'integrations auto-sync',
    model: rt.models.Integration,
    dueField: 'nextAutoSyncAt',
    scheduled: { 'config.autoSync': true, status: 'active' },
    next: (doc, from) => new Date(from.getTime() + (doc.config?.syncInterval ?? AUTO_SYNC_DEFAULT_SECONDS) * 1000),
    fromRunEnd: true,
    tickMs,
    beforeTick: () => sweepExpiredLeases(rt),
    busy: (id) => rt.running.has(id),
    async run(doc) {
      const id = String(doc._id);
      try {
        const { done } = await startSync(rt, id, {}, 'auto');
        await done;
      } catch (e) {
        if (e instanceof ApiError && e.status === 409) return; // a sync is running elsewhere: try again next interval
        rt.app.log.warn(`integrations: auto-sync of ${id} not started: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
  });
}
