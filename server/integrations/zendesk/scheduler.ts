import { AUTO_SYNC_DEFAULT_SECONDS } from '@common/constants';
import { ApiError } from '../../core';
import { sweepExpiredLeases } from './lease';
import type { IntegrationDoc } from './models';
import type { ZendeskRuntime } from './runtime';
import { beginSync } from './sync';

export interface AutoSyncScheduler {
  /** One pass: mark dead syncs interrupted, start due auto-syncs. Exposed for tests. */
  tick(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs an incremental sync every `syncInterval` seconds for integrations with autoSync on.
 * The due time lives in MongoDB (survives restarts); claiming it is one atomic update, and the
 * sync lease keeps runs from overlapping, also across processes.
 */
export function startAutoSyncScheduler(rt: ZendeskRuntime, tickMs: number): AutoSyncScheduler {
  const { Integration } = rt.models;
  let ticking: Promise<void> | null = null;
  let closed = false;

  async function runDue(doc: IntegrationDoc) {
    const id = String(doc._id);
    const intervalMs = (doc.config?.syncInterval ?? AUTO_SYNC_DEFAULT_SECONDS) * 1000;
    const now = new Date();
    // Claim this due time: only one process wins it.
    const claimed = await Integration.findOneAndUpdate(
      { _id: doc._id, 'config.autoSync': true, nextAutoSyncAt: doc.nextAutoSyncAt },
      { $set: { nextAutoSyncAt: new Date(now.getTime() + intervalMs) } },
      { returnDocument: 'after' },
    ).lean<IntegrationDoc>();
    if (!claimed) return;
    try {
      const { done } = await beginSync(rt, id);
      await done;
      // The next run counts from the end of this one, so slow syncs never pile up.
      await Integration.updateOne({ _id: doc._id, 'config.autoSync': true }, { $set: { nextAutoSyncAt: new Date(Date.now() + intervalMs) } });
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) return; // a sync is running elsewhere: try again next interval
      rt.app.log.warn(`zendesk: auto-sync of ${id} not started: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  async function tick() {
    await sweepExpiredLeases(rt);
    const due = await Integration.find({ 'config.autoSync': true, status: 'active', nextAutoSyncAt: { $ne: null, $lte: new Date() } }).lean<IntegrationDoc[]>();
    // Each due integration runs on its own; the tick does not wait for long syncs.
    for (const doc of due) if (!rt.running.has(String(doc._id))) void runDue(doc);
  }

  const safeTick = () => {
    if (closed || ticking) return;
    ticking = tick()
      .catch((e) => rt.app.log.error('zendesk: scheduler tick failed', e))
      .finally(() => {
        ticking = null;
      });
  };
  const timer = setInterval(safeTick, tickMs);
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
