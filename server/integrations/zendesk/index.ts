import type Router from '@koa/router';
import type { AppContext } from '../../core';
import { markInterrupted } from './lease';
import { createZendeskModels } from './models';
import { integrationsRouter } from './routes';
import { createRuntime, type ZendeskRuntime } from './runtime';
import { startAutoSyncScheduler, type AutoSyncScheduler } from './scheduler';
import { stopAllSyncs } from './sync';

export interface ZendeskIntegration {
  router: Router;
  runtime: ZendeskRuntime;
  scheduler: AutoSyncScheduler | null;
  /** Stops the scheduler and this process's syncs (marked interrupted, resumable). */
  close(): Promise<void>;
}

/** Sets up the Zendesk integration: models, routes, and the auto-sync scheduler. */
export async function startZendeskIntegration(app: AppContext): Promise<ZendeskIntegration> {
  const models = await createZendeskModels(app.conn);
  const runtime = createRuntime(app, models, { leaseMs: app.config.ZENDESK_LEASE_MS, maxRetryAfterSeconds: app.config.ZENDESK_MAX_RETRY_AFTER_SECONDS });
  // A sync whose lease ran out lost its process (crash or restart): say so at once.
  await markInterrupted(runtime, { 'sync.leaseExpiresAt': { $lt: new Date() } });
  const scheduler = app.config.ZENDESK_SCHEDULER_TICK_MS > 0 ? startAutoSyncScheduler(runtime, app.config.ZENDESK_SCHEDULER_TICK_MS) : null;
  return {
    router: integrationsRouter(runtime),
    runtime,
    scheduler,
    async close() {
      await scheduler?.close();
      await stopAllSyncs(runtime);
    },
  };
}
