import mongoose, { Schema, type Connection, type Model } from 'mongoose';
import type { IntegrationStatus, IntegrationType, SyncResultsDto } from '@common/schemas/integration';

/** Secrets live only here and never leave through a presenter or a log line. */
export interface OAuthState {
  clientId: string | null;
  clientSecret: string | null;
  hostUrl: string | null;
  redirectUri: string | null;
  scope: string | null;
  /** sha256 of the pending authorization's state; cleared when used. */
  stateHash: string | null;
  stateExpiresAt: Date | null;
  accessToken: string | null;
  refreshToken: string | null;
  tokenExpiresAt: Date | null;
  /** The origin that issued the tokens: they are never sent anywhere else. */
  tokenOrigin: string | null;
}

/** Where the next incremental sync resumes, per Zendesk export. */
export interface SyncCursors {
  tickets: string | null;
  users: string | null;
  /** Time-based export: the next start_time. */
  organizations: number | null;
}

export interface SyncState {
  isRunning: boolean;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  message: string;
  progress: number;
  ticketsProcessed: number;
  usersProcessed: number;
  errors: string[];
  interrupted: boolean;
  startedAt: Date | null;
  finishedAt: Date | null;
  lastResults: SyncResultsDto | null;
}

export interface IntegrationDoc {
  _id: mongoose.Types.ObjectId;
  name: string;
  description: string;
  type: IntegrationType;
  status: IntegrationStatus;
  config: { domain: string | null; autoSync: boolean; syncInterval: number; lastCursor: string | null; lastSyncErrors: string[] };
  cursors: SyncCursors;
  oauth: OAuthState;
  sync: SyncState;
  dataSourceId: string | null;
  sourceId: string | null;
  nextAutoSyncAt: Date | null;
  lastSync: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type EntityKind = 'user' | 'organization' | 'custom_status';

/** Users, organizations and custom statuses: kept for the totals and to resolve names. */
export interface EntityDoc {
  _id: mongoose.Types.ObjectId;
  integrationId: string;
  kind: EntityKind;
  zendeskId: number;
  name: string;
  data: Record<string, unknown>;
  updatedAt: Date;
}

const integrationSchema = new Schema(
  {
    name: { type: String, required: true },
    description: { type: String, default: '' },
    type: { type: String, required: true },
    status: { type: String, default: 'pending' },
    config: { type: Schema.Types.Mixed, default: () => ({ domain: null, autoSync: false, syncInterval: 30, lastCursor: null, lastSyncErrors: [] }) },
    cursors: { type: Schema.Types.Mixed, default: () => ({ tickets: null, users: null, organizations: null }) },
    oauth: { type: Schema.Types.Mixed, default: () => ({}) },
    sync: { type: Schema.Types.Mixed, default: () => ({ isRunning: false, leaseOwner: null, leaseExpiresAt: null }) },
    dataSourceId: { type: String, default: null },
    sourceId: { type: String, default: null },
    nextAutoSyncAt: { type: Date, default: null },
    lastSync: { type: Date, default: null },
  },
  { minimize: false, versionKey: false, timestamps: true },
);
integrationSchema.index({ 'oauth.stateHash': 1 });
integrationSchema.index({ 'config.autoSync': 1, nextAutoSyncAt: 1 });

const entitySchema = new Schema(
  {
    integrationId: { type: String, required: true },
    kind: { type: String, required: true },
    zendeskId: { type: Number, required: true },
    name: { type: String, default: '' },
    data: { type: Schema.Types.Mixed, default: {} },
    updatedAt: { type: Date },
  },
  { minimize: false, versionKey: false },
);
entitySchema.index({ integrationId: 1, kind: 1, zendeskId: 1 }, { unique: true });

export interface ZendeskModels {
  Integration: Model<IntegrationDoc>;
  Entity: Model<EntityDoc>;
}

/** Registers the integration models on the app's connection and builds their indexes. */
export async function createZendeskModels(conn: Connection): Promise<ZendeskModels> {
  const models: ZendeskModels = {
    Integration: conn.model<IntegrationDoc>('Integration', integrationSchema, 'integrations'),
    Entity: conn.model<EntityDoc>('ZendeskEntity', entitySchema, 'zendesk_entities'),
  };
  await models.Integration.createIndexes();
  await models.Entity.createIndexes();
  return models;
}
