import crypto from 'node:crypto';
import mongoose from 'mongoose';
import type { CreateDataSource, DataSourceDto, DataSourceWithKeyDto, FieldType, UpdateDataSource } from '@common/schemas/dataSource';
import type { RawDataResponse } from '@common/schemas/record';
import { CUSTOM_SOURCE_PREFIX } from '@common/constants';
import type { AppContext } from '../context';
import { decodeKeys, encodeKeys } from '../db/fieldNames';
import { ApiError, ForbiddenError, NotFoundError } from '../errors';
import type { DashboardDoc, DataSourceDoc } from '../models';
import { presentDashboard, presentDataSource, presentRecord } from '../presenters';
import { settledRevision } from '../models/ingestJournal';

const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex');

function newIngestKey(): { key: string; hash: string; hint: string } {
  const key = `ik_${crypto.randomBytes(24).toString('base64url')}`;
  return { key, hash: hashKey(key), hint: `${key.slice(0, 7)}…${key.slice(-4)}` };
}

function newSourceId(): string {
  return `${CUSTOM_SOURCE_PREFIX}${Date.now().toString(36).toUpperCase()}${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
}

/** Finds a data source by its database id or by its sourceId. */
export async function findDataSource(ctx: AppContext, idOrSourceId: string): Promise<DataSourceDoc | null> {
  const { DataSource } = ctx.models;
  if (mongoose.isObjectIdOrHexString(idOrSourceId)) {
    const byId = await DataSource.findById(idOrSourceId).lean<DataSourceDoc>();
    if (byId) return byId;
  }
  return DataSource.findOne({ sourceId: idOrSourceId }).lean<DataSourceDoc>();
}

export async function requireDataSource(ctx: AppContext, idOrSourceId: string): Promise<DataSourceDoc> {
  const ds = await findDataSource(ctx, idOrSourceId);
  if (!ds) throw NotFoundError(`Data source ${idOrSourceId}`);
  return ds;
}

export async function listDataSources(ctx: AppContext): Promise<DataSourceDto[]> {
  const docs = await ctx.models.DataSource.find().sort({ createdAt: 1 }).lean<DataSourceDoc[]>();
  return docs.map(presentDataSource);
}

/** Creates a custom data source with a fresh ingest key (returned in full only here). */
export async function createDataSource(ctx: AppContext, input: CreateDataSource): Promise<DataSourceWithKeyDto> {
  const key = newIngestKey();
  const doc = await ctx.models.DataSource.create({
    sourceId: newSourceId(),
    name: input.name,
    description: input.description ?? '',
    ingestKeyHash: key.hash,
    ingestKeyHint: key.hint,
  });
  const dto = presentDataSource(doc.toObject() as DataSourceDoc);
  ctx.events.emit('datasource.changed', { dataSource: dto });
  return { ...dto, ingestKey: key.key };
}

/** Creates (or returns) the data source an integration writes into. */
export async function ensureIntegrationDataSource(
  ctx: AppContext,
  input: { sourceId: string; name: string; description: string; integrationId: string; primaryKey: string },
): Promise<DataSourceDoc> {
  const doc = await ctx.models.DataSource.findOneAndUpdate(
    { sourceId: input.sourceId },
    { $setOnInsert: { ...input, keyMappings: {}, fields: [], recordCount: 0, revision: 0 } },
    { upsert: true, returnDocument: 'after' },
  ).lean<DataSourceDoc>();
  ctx.events.emit('datasource.changed', { dataSource: presentDataSource(doc!) });
  return doc!;
}

export async function updateDataSource(ctx: AppContext, id: string, patch: UpdateDataSource): Promise<DataSourceDto> {
  const ds = await requireDataSource(ctx, id);
  const set: Record<string, unknown> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.primaryKey !== undefined) set.primaryKey = patch.primaryKey;
  if (patch.keyMappings !== undefined) set.keyMappings = encodeKeys(patch.keyMappings);
  Object.assign(set, typeSettings(ds, patch));
  const updated = await ctx.models.DataSource.findByIdAndUpdate(ds._id, { $set: set }, { returnDocument: 'after' }).lean<DataSourceDoc>();
  if (!updated) throw NotFoundError(`Data source ${id}`);
  const dto = presentDataSource(updated);
  ctx.events.emit('datasource.changed', { dataSource: dto, metadataChanged: true });
  return dto;
}

/**
 * The type model's settings of a PATCH (minimal persistence, kept apart: the source settings work
 * may own it): `fieldTypes` {path: type} sets a field's type, {path: null} returns it to the
 * inferred one; `dateOrder` says how numeric dates read.
 */
function typeSettings(ds: DataSourceDoc, patch: UpdateDataSource): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  if (patch.fieldTypes !== undefined) {
    const types = decodeKeys((ds.fieldTypesSet ?? {}) as Record<string, FieldType>);
    for (const [path, type] of Object.entries(patch.fieldTypes)) {
      if (type === null) delete types[path];
      else Object.defineProperty(types, path, { value: type, enumerable: true, writable: true, configurable: true });
    }
    set.fieldTypesSet = encodeKeys(types);
  }
  if (patch.dateOrder !== undefined) set.dateOrder = patch.dateOrder;
  return set;
}

/** Replaces a custom source's ingest key; the old key stops working at once. */
export async function rotateIngestKey(ctx: AppContext, id: string): Promise<DataSourceWithKeyDto> {
  const ds = await requireDataSource(ctx, id);
  if (!ds.sourceId.startsWith(CUSTOM_SOURCE_PREFIX)) throw ForbiddenError('Only custom data sources have ingest keys');
  const key = newIngestKey();
  const updated = await ctx.models.DataSource.findByIdAndUpdate(
    ds._id,
    { $set: { ingestKeyHash: key.hash, ingestKeyHint: key.hint } },
    { returnDocument: 'after' },
  ).lean<DataSourceDoc>();
  const dto = presentDataSource(updated!);
  ctx.events.emit('datasource.changed', { dataSource: dto });
  return { ...dto, ingestKey: key.key };
}

/** The data source whose ingest key this credential is, if any (one indexed lookup by the key's hash). */
export async function findSourceByIngestKey(ctx: AppContext, credential: string): Promise<DataSourceDoc | null> {
  return ctx.models.DataSource.findOne({ ingestKeyHash: hashKey(credential) }).lean<DataSourceDoc>();
}

/** The integration a data source is synced by, when that integration still exists. */
async function owningIntegration(ctx: AppContext, ds: DataSourceDoc): Promise<{ name: string } | null> {
  if (!ds.integrationId || !mongoose.isObjectIdOrHexString(ds.integrationId)) return null;
  // The integration models live with the integration; the collection name is their contract.
  const doc = await ctx.conn.collection<{ name?: string }>('integrations').findOne({ _id: new mongoose.Types.ObjectId(ds.integrationId) });
  return doc ? { name: doc.name ?? 'integration' } : null;
}

/**
 * The admin's delete: a data source synced by an integration is refused (409) — deleting it
 * alone would leave a sync writing into a source that is gone, or a silent partial source on
 * the next sync. The integration's own delete removes it (see `removeDataSource`).
 */
export async function deleteDataSource(ctx: AppContext, id: string): Promise<void> {
  const ds = await requireDataSource(ctx, id);
  const owner = await owningIntegration(ctx, ds);
  if (owner) {
    throw new ApiError(
      409,
      'integration_data_source',
      `The data source "${ds.name}" is synced by the integration "${owner.name}": delete the integration instead (Data Sources › Integrations), which removes its data source and records too`,
    );
  }
  await removeDataSource(ctx, ds);
}

/** Deletes a data source with all its records; dashboards on it are left with no data source. */
export async function removeDataSource(ctx: AppContext, ds: DataSourceDoc): Promise<void> {
  const { Record, DataSource, Dashboard } = ctx.models;
  const dataSourceId = String(ds._id);
  await Record.deleteMany({ dataSourceId: ds._id });
  await DataSource.deleteOne({ _id: ds._id });
  const orphanIds = (await Dashboard.find({ dataSourceId }).lean<DashboardDoc[]>()).map((d) => d._id);
  if (orphanIds.length) await Dashboard.updateMany({ _id: { $in: orphanIds } }, { $set: { dataSourceId: null }, $inc: { revision: 1 } });
  const dashboardIds = orphanIds.map(String);
  ctx.events.emit('records.removed', { dataSourceId, sourceId: ds.sourceId, revision: (ds.revision ?? 0) + 1, total: 0, recordIds: [], all: true, dashboardIds });
  ctx.events.emit('datasource.removed', { dataSourceId, sourceId: ds.sourceId });
  for (const d of await Dashboard.find({ _id: { $in: orphanIds } }).lean<DashboardDoc[]>()) {
    ctx.events.emit('dashboard.changed', { dashboard: presentDashboard(d, null), wasPublished: Boolean(d.isPublished), previousDataSourceId: dataSourceId });
  }
}

/**
 * A page of a source's records (the raw data viewer, the widget builder's preview) with the revision
 * they reflect at least (read before the records; a change still under way is not counted, so its
 * pushed delta still applies on a client that starts from this page: settledRevision).
 */
export async function rawRecords(ctx: AppContext, idOrSourceId: string, limit: number, offset: number): Promise<RawDataResponse> {
  const ds = await requireDataSource(ctx, idOrSourceId);
  const { Record } = ctx.models;
  const [docs, total] = await Promise.all([
    Record.find({ dataSourceId: ds._id }).sort({ _id: 1 }).skip(offset).limit(limit).lean(),
    Record.countDocuments({ dataSourceId: ds._id }),
  ]);
  return {
    dataSource: { id: String(ds._id), sourceId: ds.sourceId, name: ds.name, primaryKey: ds.primaryKey ?? null },
    records: docs.map(presentRecord),
    total,
    limit,
    offset,
    revision: settledRevision(ds),
  };
}
