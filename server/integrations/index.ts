import type Router from '@koa/router';
import type { AppContext } from '../core';
import { markInterrupted } from './lease';
import { createIntegrationModels } from './models';
import { integrationsRouter } from './routes';
import { createRuntime, type IntegrationsRuntime } from './runtime';
import { startAutoSyncScheduler, type AutoSyncScheduler } from './scheduler';
import { stopAllSyncs } from './syncRun';
import { zendeskRouter } from './zendesk';

/** The door of the integrations room. */
export interface Integrations {
  routers: Router[];
  runtime: IntegrationsRuntime;
  scheduler: AutoSyncScheduler | null;
  /** Stops the scheduler and this process's syncs (marked interrupted, resumable). */
  close(): Promise<void>;
}

/** Sets up the integrations of every provider: models, routes, and the auto-sync scheduler. */
export async function startIntegrations(app: AppContext): Promise<Integrations> {
  const models = await createIntegrationModels(app.conn);
  const runtime = createRuntime(app, models, { leaseMs: app.config.ZENDESK_LEASE_MS, maxRetryAfterSeconds: app.config.ZENDESK_MAX_RETRY_AFTER_SECONDS });
  // A sync whose lease ran out lost its process (crash or restart): say so at once.
  await markInterrupted(runtime, { 'sync.leaseExpiresAt': { $lt: new Date() } });
  const scheduler = app.config.ZENDESK_SCHEDULER_TICK_MS > 0 ? startAutoSyncScheduler(runtime, app.config.ZENDESK_SCHEDULER_TICK_MS) : null;
  return {
    routers: [integrationsRouter(runtime), zendeskRouter(runtime)],
    runtime,
    scheduler,
    async close() {
      await scheduler?.close();
      await stopAllSyncs(runtime);
    },
  };
}
