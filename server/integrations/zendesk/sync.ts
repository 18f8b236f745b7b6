import type { StartSyncResponse, SyncResultsDto } from '@common/schemas/integration';
import { SYNC_RANGE_DEFAULT_MONTHS } from '@common/constants';
import { BadRequestError, ConflictError, keepLease } from '../../core';
import { ensureIntegrationDataSource } from '../../dataSources';
import { ZendeskApiError, ZendeskClient } from './client';
import { requestToken } from './oauth';
import { NOT_CONNECTED_MESSAGE, requireTokenTarget, tokenTarget } from './hostBinding';
import { acquireLease, INTERRUPTED_MESSAGE, markInterrupted, syncLease } from './lease';
import type { IntegrationDoc, SyncCursors } from './models';
import { presentSyncStatus } from './presenters';
import { requireIntegration, updateIntegration, type ZendeskRuntime } from './runtime';
import { syncCustomStatuses, syncOrganizations, syncTicketFields, syncTickets, syncUsers, type SyncRun } from './syncSteps';

export const ALREADY_RUNNING = 'A sync is already running for this integration';

const monthsAgo = (m: number) => {
  const d = new Date();
  d.setMonth(d.getMonth() - m);
  return Math.floor(d.getTime() / 1000);
};

/**
 * Starts a sync in the background: initial from `startDate` (unix seconds), otherwise
 * incremental from the saved cursors. 409 while one runs (in any process).
 */
export async function beginSync(rt: ZendeskRuntime, id: string, startDate?: number): Promise<{ response: StartSyncResponse; done: Promise<void> }> {
  const doc = await requireIntegration(rt, id);
  if (doc.status !== 'active') throw BadRequestError('not_connected', NOT_CONNECTED_MESSAGE);
  // Tokens go only to the host that issued them: a moved Host URL needs a new authorization.
  requireTokenTarget(doc.oauth, rt.app.config.ZENDESK_HTTP_HOSTS);
  const incremental = startDate === undefined && Boolean(doc.cursors?.tickets);
  const from = startDate ?? monthsAgo(SYNC_RANGE_DEFAULT_MONTHS);
  const leased = await acquireLease(rt, id, {
    'sync.message': incremental ? 'Starting incremental sync' : 'Starting initial sync',
    'sync.progress': 0, 'sync.ticketsProcessed': 0, 'sync.usersProcessed': 0, 'sync.errors': [], 'sync.interrupted': false,
    'sync.startedAt': new Date(), 'sync.finishedAt': null,
  });
  if (!leased) throw ConflictError(ALREADY_RUNNING);
  rt.app.events.emit('sync.progress', presentSyncStatus(leased));
  const abort = new AbortController();
  const done = runSync(rt, leased, incremental ? null : from, abort.signal)
    .catch((e) => rt.app.log.error(`zendesk: sync of ${id} crashed`, e))
    .finally(() => rt.running.delete(id));
  rt.running.set(id, { abort, done });
  return { response: { status: 'started', integrationId: id, mode: incremental ? 'incremental' : 'initial' }, done };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function runSync(rt: ZendeskRuntime, doc: IntegrationDoc, initialFrom: number | null, signal: AbortSignal): Promise<void> {
  const id = String(doc._id);
  const leaseFilter = { 'sync.leaseOwner': rt.owner };
  const errors: string[] = [];
  const stopRenewing = keepLease(syncLease(rt), { _id: id }, () => rt.running.get(id)?.abort.abort(new Error('Sync lease lost')));
  const counts = { tickets: 0, users: 0, organizations: 0, deleted: 0 };
  let lastPercent = 0;
  const progress = async (percent: number, msg: string) => {
    lastPercent = Math.max(lastPercent, Math.min(99, percent));
    const after = await updateIntegration(rt, id, {
      $set: { 'sync.progress': lastPercent, 'sync.message': msg, 'sync.ticketsProcessed': counts.tickets, 'sync.usersProcessed': counts.users },
    }, leaseFilter);
    if (after) rt.app.events.emit('sync.progress', presentSyncStatus(after));
  };
  try {
    const sourceId = doc.sourceId ?? `zendesk_${id}`;
    const ds = await ensureIntegrationDataSource(rt.app, {
      sourceId, name: `Zendesk: ${doc.name}`, description: `Tickets synced from ${doc.config?.domain ?? 'Zendesk'}`, integrationId: id, primaryKey: 'id',
    });
    if (!doc.sourceId) await updateIntegration(rt, id, { $set: { sourceId, dataSourceId: String(ds._id) } });
    const client = new ZendeskClient({
      baseUrl: doc.oauth.hostUrl!, accessToken: doc.oauth.accessToken!, tokenOrigin: doc.oauth.tokenOrigin!, signal, maxRetryAfterSeconds: rt.maxRetryAfterSeconds,
      refreshToken: () => refreshAccessToken(rt, id),
      onRateLimit: (s) => void progress(lastPercent, `Rate limited by Zendesk: waiting ${s}s before retrying`).catch(() => {}),
    });
    const none: SyncCursors = { tickets: null, users: null, organizations: null };
    const cursors: SyncCursors = initialFrom === null ? { ...none, ...doc.cursors } : none;
    const run: SyncRun = {
      rt, id, client, sourceId, counts, progress,
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
    await step('ticket fields', 10, () => syncTicketFields(run, ds));
    await step('custom statuses', 15, () => syncCustomStatuses(run));
    await step('organizations', 20, () => syncOrganizations(run, initialFrom === null ? (cursors.organizations ?? 0) : 0));
    await step('users', 30, () => syncUsers(run, initialFrom === null && cursors.users ? { cursor: cursors.users, start: 0 } : { cursor: null, start: 0 }));
    await step('tickets', 45, () => syncTickets(run, initialFrom === null ? { cursor: cursors.tickets, start: 0 } : { cursor: null, start: initialFrom }));
    await finish(rt, id, counts, errors, fatal);
  } catch (e) {
    if (signal.aborted) {
      if (message(signal.reason) !== 'Integration deleted') await markInterrupted(rt, leaseFilter).catch(() => {});
      return;
    }
    errors.push(message(e));
    await finish(rt, id, counts, errors, false);
  } finally {
    stopRenewing();
  }
}

async function finish(rt: ZendeskRuntime, id: string, counts: SyncRun['counts'], errors: string[], authFailed: boolean) {
  const results: SyncResultsDto = { ticketsSynced: counts.tickets, usersSynced: counts.users, organizationsSynced: counts.organizations, ticketsDeleted: counts.deleted };
  const ok = errors.length === 0;
  const msg = ok
    ? `Sync complete: ${counts.tickets} tickets, ${counts.users} users, ${counts.organizations} organizations`
    : `Sync finished with errors: ${errors.join('; ')}`;
  const after = await updateIntegration(rt, id, {
    $set: {
      'sync.isRunning': false, 'sync.leaseOwner': null, 'sync.leaseExpiresAt': null, 'sync.progress': 100, 'sync.message': msg,
      'sync.ticketsProcessed': counts.tickets, 'sync.usersProcessed': counts.users, 'sync.errors': errors, 'sync.lastResults': results,
      'sync.finishedAt': new Date(), 'config.lastSyncErrors': errors, lastSync: new Date(), ...(authFailed ? { status: 'error' } : {}),
    },
  }, { 'sync.leaseOwner': rt.owner });
  if (!after) return;
  rt.app.events.emit('sync.progress', presentSyncStatus(after));
  if (ok) rt.app.events.emit('sync.completed', { integrationId: id, ...results, errors });
  else rt.app.events.emit('sync.failed', { integrationId: id, message: msg });
  rt.app.log.info(`zendesk: sync of ${id} ${ok ? 'completed' : 'finished with errors'} (${counts.tickets} tickets, ${counts.deleted} deleted)`);
}

/** The refresh-token grant: stores the new tokens; null when there is no refresh token or it fails. */
async function refreshAccessToken(rt: ZendeskRuntime, id: string): Promise<string | null> {
  const doc = await requireIntegration(rt, id);
  const o = doc.oauth;
  if (!o?.refreshToken || !o.clientId || !o.clientSecret || !o.hostUrl) return null;
  // The refresh token goes only to the origin that issued it, and only while the Host URL is that origin.
  const target = tokenTarget(o, rt.app.config.ZENDESK_HTTP_HOSTS);
  if (!target) {
    rt.app.log.warn(`zendesk: integration ${id} was reconfigured since it was authorized; its refresh token is not sent`);
    return null;
  }
  try {
    const t = await requestToken(target, { grant_type: 'refresh_token', refresh_token: o.refreshToken, client_id: o.clientId, client_secret: o.clientSecret, scope: o.scope ?? 'read' });
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

/** Stops this process's syncs (shutdown); they are marked interrupted and resume next time. */
export async function stopAllSyncs(rt: ZendeskRuntime): Promise<void> {
  const runs = [...rt.running.values()];
  for (const r of runs) r.abort.abort(new Error(INTERRUPTED_MESSAGE));
  await Promise.all(runs.map((r) => r.done.catch(() => {})));
}
