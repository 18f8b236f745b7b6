import { EventEmitter } from 'node:events';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { RecordDto } from '@common/schemas/records/record';
import type { IntegrationDto } from '@common/schemas/integration';
import type { ShareLinkDto } from '@common/schemas/shareLink';
import type { ActivityEntryDto } from '@common/schemas/activity';
import type { ImportProgressDto } from '@common/schemas/imports';
import type { Revocation } from './principal';
import type { SyncCompletedEvent, SyncFailedEvent, SyncProgressEvent } from '@common/realtime';

/** What services announce after a successful write. Realtime turns these into room emits. */
export interface DomainEvents {
  'records.upserted': { dataSourceId: string; sourceId: string; revision: number; total: number; records: RecordDto[] };
  'records.removed': {
    dataSourceId: string; sourceId: string; revision: number; total: number; recordIds: string[]; all: boolean;
    /** Dashboards to tell, when they no longer point at the source (it was deleted). */
    dashboardIds?: string[];
  };
  /** `metadataChanged`: name, labels or primary key changed (viewers redraw headers and labels). */
  'datasource.changed': { dataSource: DataSourceDto; metadataChanged?: boolean };
  'datasource.removed': { dataSourceId: string; sourceId: string };
  'dashboard.changed': { dashboard: DashboardDto; wasPublished: boolean; previousDataSourceId: string | null };
  'dashboard.removed': { dashboardId: string; wasPublished: boolean; dataSourceId?: string | null };
  'integration.changed': { integrationId: string; integration: IntegrationDto };
  'integration.removed': { integrationId: string };
  'sync.progress': SyncProgressEvent;
  'sync.completed': SyncCompletedEvent;
  'sync.failed': SyncFailedEvent;
  'shareLink.created': { link: ShareLinkDto; dashboardName: string };
  'shareLink.revoked': { link: ShareLinkDto };
  'activity.recorded': { entry: ActivityEntryDto };
  /** Import Data: an import's state and counts (rows read, written, rejected). */
  'import.progress': ImportProgressDto;
  /** Sessions or tokens ended (sign-out, password or role change, disabling, removal): caches forget them, their sockets close. */
  'auth.revoked': Revocation;
}

/** One small typed event interface between services and realtime. */
export class DomainEventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(50);
  }

  emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void {
    this.emitter.emit(name, payload);
  }

  on<K extends keyof DomainEvents>(name: K, listener: (payload: DomainEvents[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
