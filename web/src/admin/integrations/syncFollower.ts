import type { IntegrationRecordsDto, SyncStatusDto } from '@common/schemas/integration';
import type { SyncCompletedEvent, SyncProgressEvent } from '@common/realtime';
import { SYNC_POLL_GIVE_UP_MS, SYNC_POLL_MS, SYNC_PROGRESS } from '@common/constants';
import { integrationsApi } from './api';
import { plural, summarizeSyncError } from './humanText';
import { useIntegrations } from './store';

type Toast = { success(title: string, text?: string): void; error(title: string, text?: string): void };

interface Follower {
  pollTimer: ReturnType<typeof setInterval>;
  giveUpTimer: ReturnType<typeof setTimeout>;
  finishing: boolean;
  /** When the socket last told us something: polling only fills gaps. */
  lastEventAt: number;
  toast: Toast;
}

/** Syncs started from this console, by integration id. */
const followers = new Map<string, Follower>();

export const isFollowing = (id: string) => followers.has(id);

function stopTimers(f: Follower) {
  clearInterval(f.pollTimer);
  clearTimeout(f.giveUpTimer);
}

/** Progress to show while running: the server's figure, else 50 (running, no figure yet). */
function showRunning(id: string, s: { progress: { message: string; progress: number }; recordsProcessed: number; pagesProcessed: number; ticketsProcessed?: number; usersProcessed?: number }) {
  const f = followers.get(id);
  if (f?.finishing) return;
  useIntegrations.getState().setSync(id, {
    running: true,
    progress: Math.min(SYNC_PROGRESS.finishing - 1, Math.max(SYNC_PROGRESS.initial, s.progress.progress || SYNC_PROGRESS.running)),
    message: s.progress.message,
    recordsProcessed: s.recordsProcessed,
    pagesProcessed: s.pagesProcessed,
  });
}

type Results = SyncCompletedEvent | SyncStatusDto | SyncStatusDto['lastSyncResults'];

function completionText(r: Results | null, totals: IntegrationRecordsDto | null) {
  if (r && 'ticketsSynced' in r && r.ticketsSynced !== undefined) return `Synced ${plural(r.ticketsSynced, 'ticket')}, ${plural(r.usersSynced ?? 0, 'user')} and ${plural(r.organizationsSynced ?? 0, 'organization')}.`;
  if (r && 'recordsProcessed' in r) {
    const rejected = 'rejected' in r ? r.rejected : 0;
    return `Synced ${plural(r.recordsProcessed, 'record')} in ${plural(r.pagesProcessed, 'page')}${rejected ? `; ${plural(rejected, 'record')} rejected (see the last runs)` : ''}.`;
  }
  if (totals && 'totalTickets' in totals) return `${plural(totals.totalTickets, 'ticket')}, ${plural(totals.totalUsers, 'user')} and ${plural(totals.totalOrganizations, 'organization')} are now available.`;
  if (totals && 'totalRecords' in totals) return `${plural(totals.totalRecords, 'record')} are now available.`;
  return 'Your data is up to date.';
}

/** At 95 %: "Updating counts...", refresh after 0.5 s and 1.5 s, then report (the counts settle after the sync ends). */
function finish(id: string, outcome: { ok: true; results: Results } | { ok: false; message: string }) {
  const f = followers.get(id);
  if (!f || f.finishing) return;
  f.finishing = true;
  stopTimers(f);
  const store = useIntegrations.getState();
  if (!outcome.ok) {
    followers.delete(id);
    store.setSync(id, null);
    void store.load();
    // A sentence in the toast; the card keeps the details. An API's or a database's errors are already in words.
    const zendesk = store.items.find((i) => i.id === id)?.type === 'zendesk';
    f.toast.error('Sync Error', zendesk ? summarizeSyncError(outcome.message) : outcome.message.replace(/^Sync failed: /, ''));
    return;
  }
  const prev = store.syncs[id];
  store.setSync(id, { running: true, progress: SYNC_PROGRESS.finishing, message: 'Updating counts...', recordsProcessed: prev?.recordsProcessed ?? 0, pagesProcessed: prev?.pagesProcessed ?? 0 });
  setTimeout(() => void store.loadTotals(id), 500);
  setTimeout(async () => {
    const totals = await store.loadTotals(id);
    await store.load();
    followers.delete(id);
    useIntegrations.getState().setSync(id, null);
    f.toast.success('Sync Complete', completionText(outcome.results ?? null, totals));
  }, 1500);
}

async function poll(id: string) {
  const f = followers.get(id);
  if (f && Date.now() - f.lastEventAt < SYNC_POLL_MS * 1.5) return;
  try {
    const s = await integrationsApi.syncStatus(id);
    if (s.isRunning) return showRunning(id, s);
    if (s.errors.length) finish(id, { ok: false, message: s.progress.message || s.errors.join('; ') });
    // Zendesk's totals, or every provider's counts.
    else finish(id, { ok: true, results: s.lastSyncResults ?? s });
  } catch {
    // A failed poll is retried at the next tick; the socket may still deliver.
  }
}

/** Follows a sync this console started: socket events first, 2 s polling as the fallback. */
export function followSync(id: string, toast: Toast) {
  const old = followers.get(id);
  if (old) stopTimers(old);
  const f: Follower = {
    toast,
    finishing: false,
    lastEventAt: 0,
    pollTimer: setInterval(() => void poll(id), SYNC_POLL_MS),
    giveUpTimer: setTimeout(() => {
      stopTimers(f);
      followers.delete(id);
    }, SYNC_POLL_GIVE_UP_MS),
  };
  followers.set(id, f);
  useIntegrations.getState().setSync(id, { running: true, progress: SYNC_PROGRESS.initial, message: 'Starting sync...', recordsProcessed: 0, pagesProcessed: 0 });
}

/** Realtime entry points (sync:progress / sync:completed / sync:failed). */
export const syncEvents = {
  progress(e: SyncProgressEvent) {
    const f = followers.get(e.integrationId);
    if (f) f.lastEventAt = Date.now();
    if (e.isRunning) showRunning(e.integrationId, e);
  },
  completed(e: SyncCompletedEvent) {
    if (followers.has(e.integrationId)) return finish(e.integrationId, { ok: true, results: e });
    useIntegrations.getState().setSync(e.integrationId, null);
    void useIntegrations.getState().loadTotals(e.integrationId);
  },
  failed(e: { integrationId: string; message: string }) {
    if (followers.has(e.integrationId)) return finish(e.integrationId, { ok: false, message: e.message });
    useIntegrations.getState().setSync(e.integrationId, null);
  },
};
