import mongoose, { Schema, type Connection, type Model } from 'mongoose';
import type { IntegrationStatus, IntegrationType, SyncResultsDto } from '@common/schemas/integration';
import type { EntityDoc, OAuthState, SyncCursors } from './zendesk/models';
import { createZendeskModels } from './zendesk/models';

export type { EntityDoc, EntityKind, OAuthState, SyncCursors } from './zendesk/models';

/** A run as it goes: the lease, the progress the console shows, the counts. */
export interface SyncState {
  isRunning: boolean;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  /** The run document of the sync under way (or the last one). */
  runId: string | null;
  message: string;
  progress: number;
  recordsProcessed: number;
  pagesProcessed: number;
  /** Zendesk's own counts. */
  ticketsProcessed: number;
  usersProcessed: number;
  errors: string[];
  interrupted: boolean;
  startedAt: Date | null;
  finishedAt: Date | null;
  lastResults: SyncResultsDto | null;
}

/** One integration of any provider. Secrets (OAuth tokens, the pull config's) stay in this document and never leave through a presenter or a log line. */
export interface IntegrationDoc {
  _id: mongoose.Types.ObjectId;
  name: string;
  description: string;
  type: IntegrationType;
  status: IntegrationStatus;
  /** Settings shared by every provider (autoSync, syncInterval), and `domain`: what it reads, shown on the card. */
  config: { domain: string | null; autoSync: boolean; syncInterval: number; lastCursor: string | null; lastSyncErrors: string[] };
  /** A pull provider's config, secrets included (null for Zendesk). */
  connection: Record<string, unknown> | null;
  /** Where a pull provider's next sync resumes (the provider's own JSON value; null: from the beginning). */
  cursor: unknown;
  /** Zendesk: its exports' cursors. */
  cursors: SyncCursors;
  /** Zendesk: OAuth client and tokens. */
  oauth: OAuthState;
  sync: SyncState;
  /** A copy of the last run (its history is in `integration_runs`): the card shows it without a second read. */
  lastRun: RunDoc | null;
  dataSourceId: string | null;
  sourceId: string | null;
  nextAutoSyncAt: Date | null;
  lastSync: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type RunStatus = 'running' | 'succeeded' | 'failed';

/** A record the run could not store, and why. */
export interface RunRejection {
  page: string;
  index: number;
  reason: string;
}

/** One sync run, kept for the history (the last RUNS_KEPT per integration). */
export interface RunDoc {
  _id: mongoose.Types.ObjectId;
  integrationId: string;
  startedAt: Date;
  finishedAt: Date | null;
  status: RunStatus;
  mode: 'full' | 'incremental';
  trigger: 'manual' | 'auto';
  records: number;
  pages: number;
  rejected: number;
  /** The first RUN_REJECTIONS_KEPT rejections (the count says how many there were). */
  rejections: RunRejection[];
  error: string | null;
  /** Notes that are not errors ("stopped at maxPages (10): the next sync goes on from page 11"). */
  notes: string[];
}

export const RUNS_KEPT = 100;
export const RUN_REJECTIONS_KEPT = 20;

const integrationSchema = new Schema(
  {
    name: { type: String, required: true },
    description: { type: String, default: '' },
    type: { type: String, required: true },
    status: { type: String, default: 'pending' },
    config: { type: Schema.Types.Mixed, default: () => ({ domain: null, autoSync: false, syncInterval: 30, lastCursor: null, lastSyncErrors: [] }) },
    connection: { type: Schema.Types.Mixed, default: null },
    cursor: { type: Schema.Types.Mixed, default: null },
    cursors: { type: Schema.Types.Mixed, default: () => ({ tickets: null, users: null, organizations: null }) },
    oauth: { type: Schema.Types.Mixed, default: () => ({}) },
    sync: { type: Schema.Types.Mixed, default: () => ({ isRunning: false, leaseOwner: null, leaseExpiresAt: null }) },
    lastRun: { type: Schema.Types.Mixed, default: null },
    dataSourceId: { type: String, default: null },
    sourceId: { type: String, default: null },
    nextAutoSyncAt: { type: Date, default: null },
    lastSync: { type: Date, default: null },
  },
  { minimize: false, versionKey: false, timestamps: true, autoCreate: false },
);
integrationSchema.index({ 'oauth.stateHash': 1 });
integrationSchema.index({ 'config.autoSync': 1, nextAutoSyncAt: 1 });

const runSchema = new Schema(
  {
    integrationId: { type: String, required: true },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    status: { type: String, required: true },
    mode: { type: String, default: 'incremental' },
    trigger: { type: String, default: 'manual' },
    records: { type: Number, default: 0 },
    pages: { type: Number, default: 0 },
    rejected: { type: Number, default: 0 },
    rejections: { type: Schema.Types.Mixed, default: () => [] },
    error: { type: String, default: null },
    notes: { type: Schema.Types.Mixed, default: () => [] },
  },
  { minimize: false, versionKey: false, autoCreate: false },
);
runSchema.index({ integrationId: 1, startedAt: -1 });

export interface IntegrationModels {
  Integration: Model<IntegrationDoc>;
  Run: Model<RunDoc>;
  /** Zendesk's users, organizations and custom statuses. */
  Entity: Model<EntityDoc>;
}

/** Registers the integration models on the app's connection and builds their indexes. */
export async function createIntegrationModels(conn: Connection): Promise<IntegrationModels> {
  const models: IntegrationModels = {
    Integration: conn.models.Integration ?? conn.model<IntegrationDoc>('Integration', integrationSchema, 'integrations'),
    Run: conn.models.IntegrationRun ?? conn.model<RunDoc>('IntegrationRun', runSchema, 'integration_runs'),
    ...(await createZendeskModels(conn)),
  };
  await models.Integration.createIndexes();
  await models.Run.createIndexes();
  return models;
}
