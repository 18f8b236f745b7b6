import type { StartSyncResponse, SyncResultsDto } from '@common/schemas/integration';
import { SYNC_RANGE_DEFAULT_MONTHS } from '@common/constants';
import { BadRequestError } from '../../core';
import { ensureIntegrationDataSource } from '../../dataSources';
import { ZendeskApiError, ZendeskClient } from './client';
import { requestToken } from './oauth';
import { NOT_CONNECTED_MESSAGE, requireTokenTarget, tokenTarget, zendeskHosts } from './hostBinding';
import type { SyncCursors } from './models';
import { requireIntegration, updateIntegration, type IntegrationsRuntime } from '../runtime';
import { beginRun, type RunOutcome, type SyncRun } from '../syncRun';
import { syncCustomStatuses, syncOrganizations, syncTicketFields, syncTickets, syncUsers, type ZendeskSteps } from './syncSteps';

const monthsAgo = (m: number) => {
  const d = new Date();
  d.setMonth(d.getMonth() - m);
  return Math.floor(d.getTime() / 1000);
};

/**
 * Starts a sync in the background: initial from `startDate` (unix seconds; `full` without one: the
 * default range), otherwise incremental from the saved cursors. 409 while one runs (in any process).
 */
export async function beginSync(
  rt: IntegrationsRuntime, id: string, opts: { startDate?: number; full?: boolean } = {}, trigger: 'manual' | 'auto' = 'manual',
): Promise<{ response: StartSyncResponse; done: Promise<void> }> {
  const { startDate } = opts;
  const doc = await requireIntegration(rt, id);
  if (doc.status !== 'active') throw BadRequestError('not_connected', NOT_CONNECTED_MESSAGE);
  // Tokens go only to the host that issued them: a moved Host URL needs a new authorization.
  requireTokenTarget(doc.oauth, zendeskHosts(rt));
  const incremental = !opts.full && startDate === undefined && Boolean(doc.cursors?.tickets);
  const from = startDate ?? monthsAgo(SYNC_RANGE_DEFAULT_MONTHS);
  const { done } = await beginRun(rt, id, {
    mode: incremental ? 'incremental' : 'full',
    trigger,
    message: incremental ? 'Starting incremental sync' : 'Starting initial sync',
    set: { 'sync.ticketsProcessed': 0, 'sync.usersProcessed': 0 },
  }, (run) => zendeskWork(run, incremental ? null : from));
  return { response: { status: 'started', integrationId: id, mode: incremental ? 'incremental' : 'initial' }, done };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Zendesk's steps, one after the other; a failed step is noted and the next one still runs (not after a refused authorization). */
async function zendeskWork(run: SyncRun, initialFrom: number | null): Promise<RunOutcome> {
  const { rt, id, doc, signal, leaseFilter } = run;
  const errors: string[] = [];
  const counts = { tickets: 0, users: 0, organizations: 0, deleted: 0 };
  let lastPercent = 0;
  const progress = async (percent: number, msg: string) => {
    lastPercent = Math.max(lastPercent, percent);
    run.run.records = counts.tickets;
    await run.progress(percent, msg, { ticketsProcessed: counts.tickets, usersProcessed: counts.users });
  };
  const sourceId = doc.sourceId ?? `zendesk_${id}`;
  const ds = await ensureIntegrationDataSource(rt.app, {
    sourceId, name: `Zendesk: ${doc.name}`, description: `Tickets synced from ${doc.config?.domain ?? 'Zendesk'}`, integrationId: id, primaryKey: 'id',
  });
  if (!doc.sourceId) await updateIntegration(rt, id, { $set: { sourceId, dataSourceId: String(ds._id) } });
  const client = new ZendeskClient({
    baseUrl: doc.oauth.hostUrl!, accessToken: doc.oauth.accessToken!, tokenOrigin: doc.oauth.tokenOrigin!, allowed: zendeskHosts(rt), signal, maxRetryAfterSeconds: rt.maxRetryAfterSeconds,
    refreshToken: () => refreshAccessToken(rt, id),
    onRateLimit: (s) => void progress(lastPercent, `Rate limited by Zendesk: waiting ${s}s before retrying`).catch(() => {}),
  });
  const none: SyncCursors = { tickets: null, users: null, organizations: null };
  const cursors: SyncCursors = initialFrom === null ? { ...none, ...doc.cursors } : none;
  const steps: ZendeskSteps = {
    rt, id, client, sourceId, counts, progress,
    pageStored: () => void run.run.pages++,
    saveCursor: async (patch) => {
      Object.assign(cursors, patch);
      const set: Record<string, unknown> = { cursors: { ...cursors } };
      if (patch.tickets) set['config.lastCursor'] = patch.tickets;
      // Not after a reconfiguration (even by another process): the cursor belongs to the old account.
      await rt.models.Integration.updateOne({ _id: id, ...leaseFilter, 'oauth.tokenOrigin': doc.oauth.tokenOrigin }, { $set: set });
    },
  };
  let fatal = false;
  const step = async (name: string, percent: number, fn: () => Promise<void>) => {
    if (fatal) return;
    await progress(percent, `Syncing ${name}`);
    const t0 = Date.now();
    try {
      await fn();
      rt.app.log.debug(`zendesk: sync of ${id}: ${name} took ${Date.now() - t0} ms`);
    } catch (e) {
      if (signal.aborted) throw e;
      errors.push(`${name}: ${message(e)}`);
      rt.app.log.warn(`zendesk: sync of ${id}: ${name} failed: ${message(e)}`);
      if (e instanceof ZendeskApiError && (e.status === 401 || e.status === 403)) fatal = true;
    }
  };
  await step('ticket fields', 10, () => syncTicketFields(steps, ds));
  await step('custom statuses', 15, () => syncCustomStatuses(steps));
  await step('organizations', 20, () => syncOrganizations(steps, initialFrom === null ? (cursors.organizations ?? 0) : 0));
  await step('users', 30, () => syncUsers(steps, initialFrom === null && cursors.users ? { cursor: cursors.users, start: 0 } : { cursor: null, start: 0 }));
  await step('tickets', 45, () => syncTickets(steps, initialFrom === null ? { cursor: cursors.tickets, start: 0 } : { cursor: null, start: initialFrom }));
  run.run.records = counts.tickets;
  const results: SyncResultsDto = { ticketsSynced: counts.tickets, usersSynced: counts.users, organizationsSynced: counts.organizations, ticketsDeleted: counts.deleted };
  rt.app.log.info(`zendesk: sync of ${id} ${errors.length ? 'finished with errors' : 'completed'} (${counts.tickets} tickets, ${counts.deleted} deleted)`);
  return {
    errors,
    message: errors.length === 0
      ? `Sync complete: ${counts.tickets} tickets, ${counts.users} users, ${counts.organizations} organizations`
      : `Sync finished with errors: ${errors.join('; ')}`,
    set: { 'sync.ticketsProcessed': counts.tickets, 'sync.usersProcessed': counts.users, 'sync.lastResults': results, ...(fatal ? { status: 'error' } : {}) },
    completed: results,
  };
}

/** The refresh-token grant: stores the new tokens; null when there is no refresh token or it fails. */
async function refreshAccessToken(rt: IntegrationsRuntime, id: string): Promise<string | null> {
  const doc = await requireIntegration(rt, id);
  const o = doc.oauth;
  if (!o?.refreshToken || !o.clientId || !o.clientSecret || !o.hostUrl) return null;
  // The refresh token goes only to the origin that issued it, and only while the Host URL is that origin.
  const target = tokenTarget(o, zendeskHosts(rt));
  if (!target) {
    rt.app.log.warn(`zendesk: integration ${id} was reconfigured since it was authorized; its refresh token is not sent`);
    return null;
  }
  try {
    const t = await requestToken(target, zendeskHosts(rt), { grant_type: 'refresh_token', refresh_token: o.refreshToken, client_id: o.clientId, client_secret: o.clientSecret, scope: o.scope ?? 'read' });
    const kept = await rt.models.Integration.updateOne({ _id: id, 'oauth.tokenOrigin': target, 'oauth.hostUrl': o.hostUrl }, {
      $set: { 'oauth.accessToken': t.accessToken, 'oauth.refreshToken': t.refreshToken ?? o.refreshToken, 'oauth.tokenExpiresAt': t.expiresAt },
    });
    if (kept.matchedCount === 0) return null;
    rt.app.log.info(`zendesk: refreshed the access token of integration ${id}`);
    return t.accessToken;
  } catch (e) {
    rt.app.log.warn(`zendesk: token refresh for integration ${id} failed: ${message(e)}`);
    return null;
  }
}
