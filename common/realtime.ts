import type { DataSourceDto } from './schemas/dataSource';
import type { TileAlertState } from './schemas/alert';
import type { DashboardDto, PublicDashboardSummaryDto, PublicTabDto } from './schemas/dashboard';
import type { PublicDashboardResponse } from './schemas/publicView';
import type { RecordDto } from './schemas/records/record';
import type { ActivityEntryDto } from './schemas/activity';
import type { ImportProgressDto } from './schemas/imports';
import type { ViewersChangedEvent } from './schemas/analytics';
import type { WidgetFilter } from './schemas/widgets/widget';

/**
 * The Socket.IO contract between server and web. Rooms:
 * - `dashboard:<id>` anyone, while the dashboard is published (head changes, removal);
 * - `source:<dataSourceId>` joined with `dashboard:join`: the record deltas of the dashboard's data
 *   source, sent once per change to the viewers of every published dashboard on it;
 * - `dashboards` anyone: the public list;
 * - `share:<dashboardId>` and `sharelink:<linkId>` anyone holding a live share link's token;
 * - `embed:<dashboardId>` and `embedview:<viewKey>` anyone holding a valid signed embed token;
 * - `admin` and `integration:<id>` for admins, `datasource:<id>` for editors and admins: the
 *   session cookie, or the admin token or a personal API token in the handshake (`auth: { token }`);
 * - `team` editors and admins with every dashboard: dashboard and data source changes, viewer counts;
 *   `team:<dashboardId>` the same for one dashboard, for editors limited to chosen dashboards;
 * - `draft:<id>` signed-in people who may read an unpublished dashboard (`dashboard:join` of a draft).
 */
export const rooms = {
  dashboard: (id: string) => `dashboard:${id}`,
  /** The public audience of a data source (viewers of its published dashboards). */
  source: (dataSourceId: string) => `source:${dataSourceId}`,
  publicList: 'dashboards',
  admin: 'admin',
  dataSource: (id: string) => `datasource:${id}`,
  integration: (id: string) => `integration:${id}`,
  /** Viewers of a dashboard through any share link (drafts too). */
  share: (dashboardId: string) => `share:${dashboardId}`,
  /** Viewers through one share link: emptied when it is revoked. */
  shareLink: (linkId: string) => `sharelink:${linkId}`,
  /** Viewers of a dashboard through signed embed tokens: emptied when its secret changes. */
  embed: (dashboardId: string) => `embed:${dashboardId}`,
  /** Viewers through tokens locking the same filters on one dashboard: their share of each change. */
  embedView: (viewKey: string) => `embedview:${viewKey}`,
  /** Editors and admins with every dashboard (a person limited to chosen dashboards is not in it). */
  team: 'team',
  /** Editors limited to chosen dashboards, one room per dashboard of theirs: its console changes and viewer counts. */
  teamDashboard: (dashboardId: string) => `team:${dashboardId}`,
  /** Signed-in people viewing an unpublished dashboard they may read. */
  draft: (dashboardId: string) => `draft:${dashboardId}`,
  /** Who follows one import's progress. */
  importJob: (importId: string) => `import:${importId}`,
} as const;

/** Most records one `records:upserted` message carries; bigger ingests are split. */
export const MAX_RECORDS_PER_MESSAGE = 500;
/** Rough byte budget of one message's records (a part holds at least one record). */
export const MAX_BYTES_PER_MESSAGE = 256 * 1024;

/** A delta of a data source's records. `revision` increases per source; parts split one revision. */
interface Delta {
  dataSourceId: string;
  revision: number;
  /** Record count of the source after this change. */
  total: number;
  part: number;
  parts: number;
}

export interface RecordsUpserted extends Delta {
  /** No longer set: a delta goes once to the source's audience; match it by `dataSourceId`. */
  dashboardId?: string;
  records: RecordDto[];
}

export interface RecordsRemoved extends Delta {
  /** No longer set (see RecordsUpserted). */
  dashboardId?: string;
  /** recordId values removed; with `all` every record of the source is gone. */
  recordIds: string[];
  all: boolean;
}

/** What a viewer needs when a dashboard's look changes (not its records). */
export interface PublicDashboardChanged {
  dashboardId: string;
  dashboard: PublicDashboardResponse['dashboard'];
  tabs: PublicTabDto[];
  dataSource: PublicDashboardResponse['dataSource'];
  /** True when the dashboard now points at another source: refetch the records. */
  dataSourceChanged: boolean;
}

/** What every provider's sync events carry: the run's state and counts (as GET /sync-status answers them). */
export interface SyncCounts {
  integrationId: string;
  isRunning: boolean;
  progress: { message: string; progress: number };
  recordsProcessed: number;
  pagesProcessed: number;
}

export interface SyncProgressEvent extends SyncCounts {
  /** Zendesk's own counts. */
  ticketsProcessed?: number;
  usersProcessed?: number;
}

export interface SyncCompletedEvent extends SyncCounts {
  /** Records rejected with a reason (the run's history lists them). */
  rejected: number;
  errors: string[];
  /** Zendesk's totals. */
  ticketsSynced?: number;
  usersSynced?: number;
  organizationsSynced?: number;
  ticketsDeleted?: number;
}

export interface SyncFailedEvent extends SyncCounts {
  message: string;
}

export type JoinAck = { ok: true; revision?: number } | { ok: false; reason: string };

export interface ServerToClientEvents {
  'records:upserted': (e: RecordsUpserted) => void;
  'records:removed': (e: RecordsRemoved) => void;
  'dashboard:changed': (e: PublicDashboardChanged) => void;
  'dashboard:removed': (e: { dashboardId: string }) => void;
  'dashboards:changed': (e: { dashboard: PublicDashboardSummaryDto }) => void;
  'dashboards:removed': (e: { dashboardId: string }) => void;
  'admin:datasource:changed': (e: { dataSource: DataSourceDto }) => void;
  'admin:datasource:removed': (e: { dataSourceId: string; sourceId: string }) => void;
  'admin:dashboard:changed': (e: { dashboard: DashboardDto }) => void;
  'admin:dashboard:removed': (e: { dashboardId: string }) => void;
  /** Integration payloads are shaped by the integrations presenter (no secrets). */
  'admin:integration:changed': (e: { integrationId: string; integration: unknown }) => void;
  'admin:integration:removed': (e: { integrationId: string }) => void;
  /** Sent after a `dashboard:join` (gives the client a recovery offset); nothing to do with it. */
  'view:joined': (e: { dashboardId: string; revision: number }) => void;
  /** Deltas may have been missed (the server lost Redis for a while): refetch, after a random delay. */
  'view:resync': (e: { reason: string }) => void;
  /** A tile tied to an alert changed state (to the dashboard's viewers: public, share links, drafts). */
  'alert:state': (e: TileAlertState) => void;
  'sync:progress': (e: SyncProgressEvent) => void;
  'sync:completed': (e: SyncCompletedEvent) => void;
  'sync:failed': (e: SyncFailedEvent) => void;
  /** A new activity log entry (admin room). */
  'admin:activity': (e: { entry: ActivityEntryDto }) => void;
  /** Import Data: an import's progress, to the sockets that joined it (`import:join`). */
  'import:progress': (e: ImportProgressDto) => void;
  /** A dashboard's open viewers changed (admin room). */
  'admin:viewers': (e: ViewersChangedEvent) => void;
}

export interface ClientToServerEvents {
  'dashboard:join': (dashboardId: string, ack: (r: JoinAck) => void) => void;
  'dashboard:leave': (dashboardId: string) => void;
  'dashboards:join': (ack: (r: JoinAck) => void) => void;
  'datasource:join': (dataSourceId: string, ack: (r: JoinAck) => void) => void;
  'datasource:leave': (dataSourceId: string) => void;
  'integration:join': (integrationId: string, ack: (r: JoinAck) => void) => void;
  'integration:leave': (integrationId: string) => void;
  /** Joins the viewers of a share link by its token; the ack says "Dashboard Not Found" for a dead link. */
  'share:join': (token: string, ack: (r: JoinAck) => void) => void;
  'share:leave': () => void;
  /** Joins the viewers of a signed embed token; the ack says why not in one word for every refusal. */
  'embed:join': (token: string, ack: (r: JoinAck) => void) => void;
  'embed:leave': () => void;
  /** Follows an import's progress (editors and admins). */
  'import:join': (importId: string, ack: (r: JoinAck) => void) => void;
}

export interface SocketData {
  isAdmin: boolean;
  /** The share link a socket views through (its expiry is armed again on a recovered session). */
  share?: { dashboardId: string; expiresAt: string | null; locked?: boolean };
  /**
   * The signed embed token a socket views through (never the token): its secret (a rotation ends
   * the socket), its expiry (ms) and the locked view it follows (null: the whole dashboard).
   */
  embed?: { dashboardId: string; secretId: string; exp: number; viewKey: string | null; filters?: WidgetFilter[] };
  /** The signed-in role of the socket (session, personal API token or admin token), or null. */
  role: 'admin' | 'editor' | 'viewer' | null;
  userId: string | null;
  /** SHA-256 of the session id or API token: revocation closes the socket, recovery checks it again. */
  credentialHash: string | null;
  via: 'session' | 'apiToken' | 'adminToken' | null;
  /** Dashboards the person is limited to, or null. */
  dashboardIds: string[] | null;
}
