import crypto from 'node:crypto';
import mongoose from 'mongoose';
import type { CreateDataSource, DataSourceDto, DataSourceWithKeyDto, UpdateDataSource } from '@common/schemas/dataSource';
import type { RawDataResponse } from '@common/schemas/records/record';
import { CUSTOM_SOURCE_PREFIX } from '@common/constants';
import type { AppContext, DataSourceDoc } from '../core';
import { ErrorCode } from '@common/schemas/errors';
import { encodeKey, encodeKeys, ApiError, ForbiddenError, NotFoundError, presentDashboard, presentDataSource, presentRecord, settledRevision, hashKey, requireDataSource } from '../core';
import { applySourceSettings, withSourceLock } from '../records';
import { detachDashboardsFrom } from '../dashboards';

function newIngestKey(): { key: string; hash: string; hint: string } {
  const key = `ik_${crypto.randomBytes(24).toString('base64url')}`;
  return { key, hash: hashKey(key), hint: `${key.slice(0, 7)}…${key.slice(-4)}` };
}

function newSourceId(): string {
  return `${CUSTOM_SOURCE_PREFIX}${Date.now().toString(36).toUpperCase()}${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
}

/** Finds a data source by its database id or by its sourceId. */
export async function listDataSources(ctx: AppContext): Promise<DataSourceDto[]> {
  const docs = await ctx.models.DataSource.find().sort({ createdAt: 1 }).lean<DataSourceDoc[]>();
  return docs.map(presentDataSource);
}

/** Creates a custom data source with a fresh ingest key (returned in full only here). */
export async function createDataSource(ctx: AppContext, input: CreateDataSource): Promise<DataSourceWithKeyDto> {
  const key = newIngestKey();
  exclusiveKeying(input);
  const { fields, setTypes } = storedSettings(input);
  const doc = await ctx.models.DataSource.create({
    ...fields,
    fieldTypesSet: setTypes,
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

/** Creates (or returns) the data source an integration writes into (primaryKey null: its first records set it, as on ingest). */
export async function ensureIntegrationDataSource(
  ctx: AppContext,
  input: { sourceId: string; name: string; description: string; integrationId: string; primaryKey: string | null },
): Promise<DataSourceDoc> {
  const doc = await ctx.models.DataSource.findOneAndUpdate(
    { sourceId: input.sourceId },
    { $setOnInsert: { ...input, keyMappings: {}, fields: [], recordCount: 0, revision: 0 } },
    { upsert: true, returnDocument: 'after' },
  ).lean<DataSourceDoc>();
  ctx.events.emit('datasource.changed', { dataSource: presentDataSource(doc!) });
  return doc!;
}

type Settings = Omit<UpdateDataSource, 'name' | 'description' | 'keyMappings'>;

/** A source has a primary key or is append-only, never both. */
function exclusiveKeying(s: Settings): void {
  if (s.appendOnly === true && s.primaryKey) {
    const message = 'a source is either keyed by primaryKey or append-only (every record kept), not both: send one of them';
    throw new ApiError(400, ErrorCode.validationFailed, `appendOnly: ${message}`, [{ path: 'appendOnly', message }]);
  }
}

/** The stored form of a source's settings; fieldTypes keys escaped, a null type removing the one a person set. */
function storedSettings(s: Settings): { fields: Record<string, unknown>; setTypes: Record<string, string>; unsetTypes: string[] } {
  const fields: Record<string, unknown> = {};
  if (s.primaryKey !== undefined) {
    fields.primaryKey = s.primaryKey;
    if (s.primaryKey) fields.appendOnly = false;
  }
  if (s.appendOnly !== undefined) {
    fields.appendOnly = s.appendOnly;
    if (s.appendOnly) fields.primaryKey = null;
  }
  for (const k of ['updateMode', 'timeField', 'dateOrder'] as const) if (s[k] !== undefined) fields[k] = s[k];
  // A retention replaces the whole {maxRecords, maxAgeSeconds}: a limit not sent is no limit.
  if (s.retention !== undefined) fields.retention = { maxRecords: s.retention.maxRecords ?? null, maxAgeSeconds: s.retention.maxAgeSeconds ?? null };
  const setTypes: Record<string, string> = {};
  const unsetTypes: string[] = [];
  for (const [path, type] of Object.entries(s.fieldTypes ?? {})) {
    if (type === null) unsetTypes.push(encodeKey(path));
    else setTypes[encodeKey(path)] = type;
  }
  return { fields, setTypes, unsetTypes };
}

/**
 * Applies an admin's change. primaryKey and appendOnly decide how records are identified, so they
 * change only while the source holds no records (409 naming the field otherwise); the check and
 * the change run inside the source's lock, after any write already queued.
 */
export async function updateDataSource(ctx: AppContext, id: string, patch: UpdateDataSource): Promise<DataSourceDto> {
  const found = await requireDataSource(ctx, id);
  exclusiveKeying(patch);
  const { fields, setTypes, unsetTypes } = storedSettings(patch);
  const set: Record<string, unknown> = { ...fields, ...Object.fromEntries(Object.entries(setTypes).map(([k, v]) => [`fieldTypesSet.${k}`, v])) };
  const $unset = Object.fromEntries(unsetTypes.map((k) => [`fieldTypesSet.${k}`, '']));
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.keyMappings !== undefined) set.keyMappings = encodeKeys(patch.keyMappings);
  let before = found;
  const updated = await withSourceLock(ctx, String(found._id), async () => {
    const ds = (await ctx.models.DataSource.findById(found._id).lean<DataSourceDoc>()) ?? found;
    before = ds;
    const keyChanges = (patch.primaryKey !== undefined && (patch.primaryKey ?? null) !== (ds.primaryKey ?? null)) || (patch.appendOnly !== undefined && patch.appendOnly !== Boolean(ds.appendOnly));
    if (keyChanges && (await ctx.models.Record.exists({ dataSourceId: ds._id }))) {
      const field = patch.primaryKey !== undefined ? 'primaryKey' : 'appendOnly';
      const now = ds.appendOnly ? 'append-only' : ds.primaryKey ? `keyed by "${ds.primaryKey}"` : 'not keyed yet';
      const message = `${field} can change only while the data source holds no records: "${ds.name}" holds records and is ${now}. Create a new data source for another key (or delete its records first)`;
      throw new ApiError(409, ErrorCode.sourceNotEmpty, message, [{ path: field, message: 'can change only while the data source holds no records' }]);
    }
    return ctx.models.DataSource.findByIdAndUpdate(ds._id, { $set: set, ...(Object.keys($unset).length ? { $unset } : {}) }, { returnDocument: 'after' }).lean<DataSourceDoc>();
  });
  if (!updated) throw NotFoundError(`Data source ${id}`);
  // A new time field re-times the records; a lowered retention applies at once.
  await applySourceSettings(ctx, before, updated);
  const dto = presentDataSource(updated);
  ctx.events.emit('datasource.changed', { dataSource: dto, metadataChanged: true });
  return dto;
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

/**
 * The data source whose ingest key this credential is, if any (one indexed lookup by the key's
 * hash, cached briefly: sourceCache — writers check the key against the source they read again).
 */
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
  const { Record, DataSource } = ctx.models;
  const dataSourceId = String(ds._id);
  // Under the source's lock: never beside a transaction of the records collection (sourceLock).
  await withSourceLock(ctx, dataSourceId, () => Record.deleteMany({ dataSourceId: ds._id }));
  await DataSource.deleteOne({ _id: ds._id });
  // Each dashboard on it is left with no source, as a new version of it (dashboards/versions).
  const orphans = await detachDashboardsFrom(ctx, { id: dataSourceId, name: ds.name });
  const dashboardIds = orphans.map((d) => String(d._id));
  ctx.events.emit('records.removed', { dataSourceId, sourceId: ds.sourceId, revision: (ds.revision ?? 0) + 1, total: 0, recordIds: [], all: true, dashboardIds });
  ctx.events.emit('datasource.removed', { dataSourceId, sourceId: ds.sourceId });
  for (const d of orphans) {
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
