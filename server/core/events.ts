import { EventEmitter } from 'node:events';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { RecordDto } from '@common/schemas/records/record';
import type { IntegrationDto } from '@common/schemas/integration';
import type { ShareLinkDto } from '@common/schemas/sharing/shareLink';
import type { ActivityEntryDto } from '@common/schemas/activity';
import type { ImportProgressDto } from '@common/schemas/imports';
import type { IngestCredential, Principal, Revocation } from './principal';
import type { RouteActivity } from './http/routeAbout';
import type { SyncCompletedEvent, SyncFailedEvent, SyncProgressEvent } from '@common/realtime';

/** Counts added to a minute's summary ("records": 12, "requests": 3). */
export type MinuteCounts = Record<string, number>;

type Optional = 'address' | 'objectType' | 'objectId' | 'objectName' | 'credential' | 'keyHint' | 'details' | 'actor' | 'userId';
/** An activity entry as a feature says it; the address and the actor default to the request's (see `actingNow`). */
export type ActivityInput = Omit<ActivityEntryDto, 'id' | 'at' | Optional> & Partial<Pick<ActivityEntryDto, Optional>>;

/** A route's answer that its `about({ activity })` says is worth the activity log; the HTTP layer announces it. */
export interface RouteAnswered {
  activity: RouteActivity | 'ingest';
  method: string;
  status: number;
  params: Record<string, string>;
  /** The parsed request body (the log keeps its field names only, never its values). */
  requestBody: unknown;
  answer: unknown;
  address: string | null;
  /** Who called a signed-in route, or an admin's credential on ingest; null for an ingest key and public routes. */
  principal: Principal | null;
  ingestCredential: IngestCredential | null;
}

/** What services announce after a successful write. Realtime turns these into room emits; the activity log writes its entries from them. */
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
  /**
   * A dashboard's embedding secret was created, rotated or removed (with its dashboard): every token
   * signed with an earlier one stops at once. `dashboardId` null: any may have changed (Redis was
   * lost). `relayed`: it came from another process (not published again).
   */
  'embedding.secretChanged': { dashboardId: string | null; relayed?: boolean };
  /**
   * Something the activity log keeps happened (a sign-in, a token made, records expired, an alert
   * delivered…), said in the log's words by the feature where it happened. The activity feature
   * writes it; no feature writes the log itself.
   */
  'activity.happened': ActivityInput;
  /** A frequent happening, counted into one entry per kind, object and minute (records expired by retention). */
  'activity.counted': { head: Omit<ActivityInput, 'summary'>; counts: MinuteCounts };
  /** A route whose `about` names an activity answered (a success; for ingest any answer but a refused credential or a rate limit). */
  'route.answered': RouteAnswered;
  /** An entry was added to the activity log (the live Activity Log screen follows it). */
  'activity.recorded': { entry: ActivityEntryDto };
  /** Import Data: an import's state and counts (rows read, written, rejected). */
  'import.progress': ImportProgressDto;
  /** An admin changed the runtime settings (server/settings); `relayed`: the change came from another process, already applied here. */
  'settings.changed': { relayed?: boolean };
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
