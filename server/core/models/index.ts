import mongoose, { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { shareLinkSchema, type ShareLinkDoc } from './shareLink';
import { idempotencyKeySchema, type IdempotencyKeyDoc } from './idempotencyKey';
import { newOwner, serverProcessSchema, type ProcessOwner, type ServerProcessDoc } from './serverProcess';

export type { ShareLinkDoc } from './shareLink';

const options = { minimize: false, versionKey: false } as const;

const dataSourceSchema = new Schema(
  {
    sourceId: { type: String, required: true, unique: true },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    primaryKey: { type: String, default: null },
    /** Every record kept under a server id (no primary key). */
    appendOnly: { type: Boolean, default: false },
    timeField: { type: String, default: null },
    updateMode: { type: String, default: 'replace' },
    /** {maxRecords, maxAgeSeconds}, each null for no limit. */
    retention: { type: Schema.Types.Mixed, default: {} },
    /** Inferred field types: path → type, keys escaped (see db/fieldNames). */
    fieldTypes: { type: Schema.Types.Mixed, default: {} },
    /** Field types set by a person: path → type, keys escaped; they win over the inferred ones. */
    fieldTypesSet: { type: Schema.Types.Mixed, default: {} },
    dateOrder: { type: String, default: 'mdy' },
    /** Field key → label, keys escaped (see db/fieldNames). */
    keyMappings: { type: Schema.Types.Mixed, default: {} },
    /** Every field name seen, first-seen order, unescaped (stored as array values). */
    fields: { type: [String], default: [] },
    recordCount: { type: Number, default: 0 },
    /** Bumped on every change of the source's records; realtime deltas carry it. */
    revision: { type: Number, default: 0 },
    ingestKeyHash: { type: String, default: null },
    ingestKeyHint: { type: String, default: null },
    integrationId: { type: String, default: null },
    /** Changes of the records under way (token → { at, by: the run that opened it }), see models/ingestJournal. */
    ingestJournal: { type: Schema.Types.Mixed, default: {} },
    /** Bumped by every change's open and close: a reconciling count stores recordCount only if it did not move (models/ingestJournal). */
    countSeq: { type: Number, default: 0 },
  },
  { ...options, timestamps: true },
);
dataSourceSchema.index({ ingestKeyHash: 1 }, { sparse: true });

const recordSchema = new Schema(
  {
    dataSourceId: { type: Schema.Types.ObjectId, required: true },
    recordId: { type: String, required: true },
    /** The record's fields with escaped keys. */
    data: { type: Schema.Types.Mixed, default: {} },
    keyOrder: { type: [String], default: [] },
    revision: { type: Number, default: 0 },
    createdAt: { type: Date, required: true },
    lastUpdated: { type: Date, required: true },
    /** The time the record happened: its source's time field, else lastUpdated (common/time/recordTime); retention's order. */
    recordedAt: { type: Date, default: null },
  },
  options,
);
recordSchema.index({ dataSourceId: 1, recordId: 1 }, { unique: true });
recordSchema.index({ dataSourceId: 1, revision: 1 });
recordSchema.index({ dataSourceId: 1, recordedAt: 1 });

const dashboardSchema = new Schema(
  {
    name: { type: String, required: true },
    description: { type: String, default: '' },
    dataSourceId: { type: String, default: null },
    isPublished: { type: Boolean, default: false },
    /** {keyMappings, refreshInterval, tabs}, keys escaped. Tabs live here and go with the dashboard. */
    configuration: { type: Schema.Types.Mixed, default: {} },
    revision: { type: Number, default: 0 },
    /** The current version (dashboards/versions): set with every save, compared for If-Match; 0 before the first versioned save. */
    version: { type: Number, default: 0 },
  },
  { ...options, timestamps: true },
);
dashboardSchema.index({ isPublished: 1, updatedAt: -1 });
dashboardSchema.index({ dataSourceId: 1 });

export type DataSourceDoc = InferSchemaType<typeof dataSourceSchema> & { _id: mongoose.Types.ObjectId; createdAt: Date; updatedAt: Date };
export type RecordDoc = InferSchemaType<typeof recordSchema> & { _id: mongoose.Types.ObjectId };
export type DashboardDoc = InferSchemaType<typeof dashboardSchema> & { _id: mongoose.Types.ObjectId; createdAt: Date; updatedAt: Date };

/** The app's models, bound to one connection (several apps can share a process in tests). */
export interface Models {
  DataSource: Model<DataSourceDoc>;
  Record: Model<RecordDoc>;
  Dashboard: Model<DashboardDoc>;
  ShareLink: Model<ShareLinkDoc>;
  IdempotencyKey: Model<IdempotencyKeyDoc>;
  /** Live runs' heartbeats (models/serverProcess). */
  ServerProcess: Model<ServerProcessDoc>;
  /** This run: the owner its journal entries carry. */
  owner: ProcessOwner;
}

export const schemas = { dataSource: dataSourceSchema, record: recordSchema, dashboard: dashboardSchema };

/**
 * Registers the models on a connection and builds their indexes (collections are created lazily).
 * Start-up then repairs the data sources a killed process left mid-change (ingestJournal).
 */
export async function createModels(conn: Connection): Promise<Models> {
  const models: Models = {
    DataSource: conn.model<DataSourceDoc>('DataSource', dataSourceSchema, 'datasources'),
    Record: conn.model<RecordDoc>('Record', recordSchema, 'records'),
    Dashboard: conn.model<DashboardDoc>('Dashboard', dashboardSchema, 'dashboards'),
    ShareLink: conn.model<ShareLinkDoc>('ShareLink', shareLinkSchema, 'sharelinks'),
    IdempotencyKey: conn.model<IdempotencyKeyDoc>('IdempotencyKey', idempotencyKeySchema, 'idempotencykeys'),
    ServerProcess: conn.model<ServerProcessDoc>('ServerProcess', serverProcessSchema, 'serverprocesses'),
    owner: newOwner(),
  };
  const { owner: _, ...withIndexes } = models;
  await Promise.all(Object.values(withIndexes).map((m) => (m as Model<unknown>).createIndexes()));
  return models;
}
