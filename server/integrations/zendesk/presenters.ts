import type { IntegrationDto, SyncStatusDto } from '@common/schemas/integration';
import type { IntegrationDoc } from './models';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The fields of an integration that may leave the server: no client secret, no token. */
export function presentIntegration(doc: IntegrationDoc): IntegrationDto {
  const c = doc.config ?? ({} as Partial<IntegrationDoc['config']>);
  const o = doc.oauth ?? ({} as Partial<IntegrationDoc['oauth']>);
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
    hasCredentials: Boolean(o.clientId && o.clientSecret && o.accessToken),
    dataSourceId: doc.dataSourceId ?? null,
    sourceId: doc.sourceId ?? null,
    isSyncing: Boolean(doc.sync?.isRunning),
    nextAutoSyncAt: iso(doc.nextAutoSyncAt),
    lastSync: iso(doc.lastSync),
    createdAt: iso(doc.createdAt) ?? new Date(0).toISOString(),
    updatedAt: iso(doc.updatedAt) ?? new Date(0).toISOString(),
  };
}

/** The sync status the console polls as a fallback to the realtime events. */
export function presentSyncStatus(doc: IntegrationDoc): SyncStatusDto {
  const s = doc.sync ?? ({} as Partial<IntegrationDoc['sync']>);
  return {
    integrationId: String(doc._id),
    isRunning: Boolean(s.isRunning),
    progress: { message: s.message ?? (s.isRunning ? 'Sync running' : 'Idle'), progress: s.progress ?? 0 },
    ticketsProcessed: s.ticketsProcessed ?? 0,
    usersProcessed: s.usersProcessed ?? 0,
    lastSyncResults: s.lastResults ?? null,
    errors: [...(s.errors ?? [])],
    interrupted: Boolean(s.interrupted),
    startedAt: iso(s.startedAt),
    finishedAt: iso(s.finishedAt),
  };
}
