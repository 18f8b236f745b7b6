import type { IntegrationDto, IntegrationRunDto, SyncStatusDto } from '@common/schemas/integration';
import type { SyncCounts } from '@common/realtime';
import type { IntegrationDoc, RunDoc } from './models';
import { pullProvider } from './providers';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A run as the history shows it. */
export function presentRun(run: RunDoc): IntegrationRunDto {
  return {
    id: String(run._id),
    startedAt: iso(run.startedAt) ?? new Date(0).toISOString(),
    finishedAt: iso(run.finishedAt),
    status: run.status,
    mode: run.mode ?? 'incremental',
    trigger: run.trigger ?? 'manual',
    records: run.records ?? 0,
    pages: run.pages ?? 0,
    rejected: run.rejected ?? 0,
    rejections: (run.rejections ?? []).map((r) => ({ page: r.page, index: r.index, reason: r.reason })),
    error: run.error ?? null,
    notes: [...(run.notes ?? [])],
  };
}

/** A pull config as it may leave the server: every secret masked by its provider. */
function presentConnection(doc: IntegrationDoc): { connection: Record<string, unknown> | null; hasSecrets: boolean } {
  const provider = pullProvider(doc.type);
  if (!provider || !doc.connection) return { connection: null, hasSecrets: false };
  return { connection: provider.secrets.mask(doc.connection) as Record<string, unknown>, hasSecrets: provider.secrets.values(doc.connection).length > 0 };
}

/** The fields of an integration that may leave the server: no client secret, no token, no password. */
export function presentIntegration(doc: IntegrationDoc): IntegrationDto {
  const c = doc.config ?? ({} as Partial<IntegrationDoc['config']>);
  const o = doc.oauth ?? ({} as Partial<IntegrationDoc['oauth']>);
  const { connection, hasSecrets } = presentConnection(doc);
  return {
    id: String(doc._id),
    name: doc.name,
    description: doc.description ?? '',
    type: doc.type,
    status: doc.status,
    config: {
      domain: c.domain ?? null,
      hostUrl: o.hostUrl ?? null,
      autoSync: Boolean(c.autoSync),
      syncInterval: c.syncInterval ?? 30,
      lastCursor: c.lastCursor ?? null,
      lastSyncErrors: [...(c.lastSyncErrors ?? [])],
    },
    hasCredentials: doc.type === 'zendesk' ? Boolean(o.clientId && o.clientSecret && o.accessToken) : hasSecrets,
    connection,
    lastRun: doc.lastRun ? presentRun(doc.lastRun) : null,
    dataSourceId: doc.dataSourceId ?? null,
    sourceId: doc.sourceId ?? null,
    isSyncing: Boolean(doc.sync?.isRunning),
    nextAutoSyncAt: iso(doc.nextAutoSyncAt),
    lastSync: iso(doc.lastSync),
    createdAt: iso(doc.createdAt) ?? new Date(0).toISOString(),
    updatedAt: iso(doc.updatedAt) ?? new Date(0).toISOString(),
  };
}

/** What every provider's sync events carry. */
export function syncCounts(doc: IntegrationDoc): SyncCounts {
  const s = doc.sync ?? ({} as Partial<IntegrationDoc['sync']>);
  return {
    integrationId: String(doc._id),
    isRunning: Boolean(s.isRunning),
    progress: { message: s.message ?? (s.isRunning ? 'Sync running' : 'Idle'), progress: s.progress ?? 0 },
    recordsProcessed: s.recordsProcessed ?? 0,
    pagesProcessed: s.pagesProcessed ?? 0,
  };
}

/** The sync status the console polls as a fallback to the realtime events (the sync:progress event carries the same). */
export function presentSyncStatus(doc: IntegrationDoc): SyncStatusDto {
  const s = doc.sync ?? ({} as Partial<IntegrationDoc['sync']>);
  return {
    ...syncCounts(doc),
    ...(doc.type === 'zendesk' ? { ticketsProcessed: s.ticketsProcessed ?? 0, usersProcessed: s.usersProcessed ?? 0 } : {}),
    lastSyncResults: s.lastResults ?? null,
    errors: [...(s.errors ?? [])],
    interrupted: Boolean(s.interrupted),
    startedAt: iso(s.startedAt),
    finishedAt: iso(s.finishedAt),
  };
}
