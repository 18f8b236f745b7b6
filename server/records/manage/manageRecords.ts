import mongoose from 'mongoose';
import { ErrorCode } from '@common/schemas/errors';
import type { DeleteRecordResult, DeleteRecordsResult, ReplaceRecordsResult } from '@common/schemas/records/sourceRecords';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { compileFilter } from '@common/widgets/filters';
import { recordTimeReader } from '@common/time/recordTime';
import type { AppContext, DataSourceDoc, RecordDoc } from '../../core';
import { decodeKeys, encodeKeys, ApiError, ForbiddenError, NotFoundError, closeChange, openChange, presentDataSource, presentRecord, findDataSource, requireDataSource, keyRotatedError } from '../../core';
import type { ParsedRecords } from '../ingest/parseRecords';
import type { IngestCredential } from '../ingest/ingestRecords';
import { checkRecords, isObject, structureProblem } from './recordRules';
import { removeRecordsInLock } from '../writer/removeRecords';
import { enforceRetention } from '../writer/retention';
import { withSourceLock } from '../writer/sourceLock';
import { keyWritesTo, mayIngestInto } from '../../access';

type Json = Record<string, unknown>;

/**
 * The source a record-management call names (`sourceId` or id). An ingest key manages only its own
 * source: any other name answers the same 403, whether that source exists or not.
 */
export async function managedSource(ctx: AppContext, who: IngestCredential, idOrSourceId: string): Promise<DataSourceDoc> {
  if (who.admin) {
    const ds = await requireDataSource(ctx, idOrSourceId);
    // Out of an admin's personal token's reach (a person limited to chosen dashboards): as unknown.
    if (!(await mayIngestInto(ctx, who, ds))) throw NotFoundError(`Data source ${idOrSourceId}`);
    return ds;
  }
  if (!keyWritesTo(who.source, idOrSourceId)) {
    throw ForbiddenError(`This ingest key cannot manage the records of data source ${idOrSourceId}: use that source's own ingest key or the admin token`, ErrorCode.ingestKeyForbidden);
  }
  // The guard's source may come from a cache (sourceCache): read it again, and the key must still be its own.
  const ds = await findDataSource(ctx, String(who.source._id));
  if (!ds || ds.ingestKeyHash !== who.source.ingestKeyHash) throw keyRotatedError();
  return ds;
}

/** One activity entry per call: counts, never the records. */
function logChange(ctx: AppContext, who: IngestCredential, ds: DataSourceDoc, kind: string, summary: string, details: Record<string, number | boolean>) {
  ctx.events.emit('activity.happened', {
    kind, category: 'ingest', objectType: 'dataSource', objectId: String(ds._id), objectName: ds.name,
    summary: `${summary} in data source "${ds.name}"`,
    credential: who.admin ? 'admin' : 'ingestKey', keyHint: who.admin ? null : (ds.ingestKeyHint ?? null),
    details,
  });
}

/** DELETE …/records/:key — the record with that primary-key value (or, append-only, that record id). */
export async function deleteRecord(ctx: AppContext, who: IngestCredential, ds: DataSourceDoc, key: string): Promise<DeleteRecordResult> {
  return withSourceLock(ctx, String(ds._id), async () => {
    const { Record } = ctx.models;
    const byId = ds.appendOnly && mongoose.isObjectIdOrHexString(key) ? [{ _id: new mongoose.Types.ObjectId(key) }] : [];
    const found = await Record.findOne({ dataSourceId: ds._id, $or: [{ recordId: key }, ...byId] }).lean<RecordDoc>();
    if (!found) throw NotFoundError(`Record "${key}" of data source ${ds.sourceId}`);
    await removeRecordsInLock(ctx, ds, [found.recordId]);
    logChange(ctx, who, ds, 'records.deleted', 'Deleted 1 record', { deleted: 1 });
    return { deleted: 1, recordId: found.recordId };
  });
}

const DELETE_CHUNK = 5_000;

/** POST …/records/delete — the records every filter matches (widget filter semantics), or only their count on a dry run. */
export async function deleteMatching(ctx: AppContext, who: IngestCredential, ds: DataSourceDoc, input: { filters: WidgetFilter[]; dryRun: boolean }): Promise<DeleteRecordsResult> {
  const typing = { fieldTypes: presentDataSource(ds).fieldTypes, dateOrder: ds.dateOrder === 'dmy' ? 'dmy' as const : 'mdy' as const };
  const tests = input.filters.map((f) => compileFilter(f, typing));
  return withSourceLock(ctx, String(ds._id), async () => {
    const matched: string[] = [];
    const cursor = ctx.models.Record.find({ dataSourceId: ds._id }).lean<RecordDoc[]>().cursor({ batchSize: 1000 });
    for await (const r of cursor as AsyncIterable<RecordDoc>) {
      const data = decodeKeys((r.data ?? {}) as Json);
      if (tests.every((t) => t(data))) matched.push(r.recordId);
    }
    if (input.dryRun) return { matched: matched.length, deleted: 0, dryRun: true };
    let deleted = 0;
    for (let i = 0; i < matched.length; i += DELETE_CHUNK) deleted += await removeRecordsInLock(ctx, ds, matched.slice(i, i + DELETE_CHUNK));
    if (deleted) logChange(ctx, who, ds, 'records.deleted', `Deleted ${deleted} record${deleted === 1 ? '' : 's'} by filter`, { deleted, filters: input.filters.length });
    return { matched: matched.length, deleted, dryRun: false };
  });
}

/** Whether this deployment runs multi-document transactions (the offline engine does, also standalone). */
const transactional = (ctx: AppContext) => ctx.transactions || ctx.db.mode === 'embedded-jongodb';

/**
 * The new set's records, keyed: by the source's primary key, or by server ids (append-only). All or
 * nothing. `newKey`: the request's key, for a source that has none yet (stored once nothing is refused).
 */
function keyRecords(ds: DataSourceDoc, items: ParsedRecords['items'], queryKey: string | undefined) {
  if (ds.appendOnly) {
    const rejections = items.flatMap(({ index, record }) => {
      const problem = isObject(record) ? structureProblem(record) : 'record is not a JSON object';
      return problem ? [{ index, sourceId: ds.sourceId, reason: problem }] : [];
    });
    const accepted = items.map(({ index, record }) => ({ index, recordId: new mongoose.Types.ObjectId().toHexString(), record: record as Json }));
    const fields = [...new Set(accepted.flatMap((a) => (isObject(a.record) ? Object.keys(a.record) : [])))];
    return { primaryKey: null, newKey: null, accepted, rejections, newFields: fields };
  }
  if (ds.primaryKey && queryKey && queryKey !== ds.primaryKey) {
    const message = `Data source ${ds.sourceId} is keyed by "${ds.primaryKey}"; this request names "${queryKey}". A source has one primary key: drop ?primaryKey or name "${ds.primaryKey}"`;
    throw new ApiError(409, ErrorCode.primaryKeyConflict, message, [{ path: 'primaryKey', message }]);
  }
  const primaryKey = ds.primaryKey ?? queryKey;
  if (!primaryKey) {
    throw new ApiError(400, 'no_primary_key', `Data source ${ds.sourceId} has no primary key yet: name the field that identifies a record with ?primaryKey=<field>, or make the source append-only`);
  }
  const found = checkRecords(ds.sourceId, new Set(), items, { primaryKey });
  const checked = { ...found, accepted: found.accepted.map((a) => ({ ...a, recordId: a.recordId ?? new mongoose.Types.ObjectId().toHexString() })) };
  return { primaryKey, newKey: ds.primaryKey ? null : primaryKey, ...checked };
}

/**
 * A single JSON object is one record, as on the source's URL; but one carrying the records array of
 * /api/data/ingest's wrapper would replace the whole set by that one record: refused.
 */
function refuseWrapper(body: ParsedRecords): void {
  const only = body.format === 'object' ? body.items[0]?.record : undefined;
  const wrapped = isObject(only) ? (['records', 'results', 'data'] as const).find((k) => Array.isArray(only[k])) : undefined;
  if (wrapped) {
    throw new ApiError(400, 'records_rejected', `Nothing was replaced: the body is one JSON object, which would become the whole set as one record; to replace the set with the records of "${wrapped}", send that array itself (or [{…}] for a set of one record)`);
  }
}

/**
 * PUT …/records — the whole set replaced, from any body the source's URL takes (parsed by
 * middleware/recordsBody). All or nothing: a row or line that cannot be read, or a record that is
 * not valid, refuses the whole replace (400 `records_rejected` naming each by index) — a replace
 * that dropped rows would lose them. In a transaction where the deployment runs them, so a
 * reader sees the old set or the new one, never a mix; elsewhere (a standalone mongod) the old
 * set goes and the new one lands one command after the other, and the answer says `atomic: false`.
 * Viewers get the records that went (records:removed) and the new set (records:upserted).
 */
export async function replaceAllRecords(ctx: AppContext, who: IngestCredential, ds: DataSourceDoc, body: ParsedRecords, queryKey?: string): Promise<ReplaceRecordsResult> {
  refuseWrapper(body);
  return withSourceLock(ctx, String(ds._id), async () => {
    const { Record } = ctx.models;
    const keyed = keyRecords(ds, body.items, queryKey);
    const rejections = [...body.unreadable, ...keyed.rejections].sort((a, b) => a.index - b.index);
    if (rejections.length) {
      const first = rejections.slice(0, 5).map((r) => `#${r.index}: ${r.reason}`).join('; ');
      throw new ApiError(400, 'records_rejected', `Nothing was replaced: ${rejections.length} record${rejections.length === 1 ? ' is' : 's are'} not valid (${first}${rejections.length > 5 ? '; …' : ''})`,
        rejections.map((r) => ({ path: String(r.index), message: r.reason })));
    }
    if (keyed.newKey && keyed.accepted.length) await ctx.models.DataSource.updateOne({ _id: ds._id, primaryKey: null }, { $set: { primaryKey: keyed.newKey } });
    const old = new Map((await Record.find({ dataSourceId: ds._id }).lean<RecordDoc[]>()).map((r) => [r.recordId, r]));
    const next = new Map(keyed.accepted.map((a) => [a.recordId, a.record]));
    const removedIds = [...old.keys()].filter((id) => !next.has(id));
    // Two journalled changes, so viewers apply the removal and the new set as two revisions.
    const removal = removedIds.length ? await openChange(ctx.models, ds._id) : null;
    const change = await openChange(ctx.models, ds._id);
    if (!change) throw NotFoundError(`Data source ${ds.sourceId}`);
    const now = new Date();
    const timeOf = recordTimeReader(ds.timeField, ds.dateOrder === 'dmy' ? 'dmy' : 'mdy');
    const docs = [...next].map(([recordId, record]) => {
      const known = old.get(recordId);
      return {
        _id: known?._id ?? new mongoose.Types.ObjectId(), dataSourceId: ds._id, recordId, data: encodeKeys(record), keyOrder: Object.keys(record),
        revision: change.revision, createdAt: known?.createdAt ?? now, lastUpdated: now, recordedAt: new Date(timeOf(record, now.getTime())),
      } as RecordDoc;
    });
    const atomic = transactional(ctx);
    // The count moves by what was deleted and inserted (a transaction retried counts its last try).
    let deleted = 0;
    if (atomic) {
      const session = await ctx.conn.startSession();
      try {
        await session.withTransaction(async () => {
          deleted = (await Record.deleteMany({ dataSourceId: ds._id }, { session })).deletedCount ?? 0;
          if (docs.length) await Record.insertMany(docs, { session, ordered: true, lean: true });
        });
      } finally {
        await session.endSession();
      }
    } else {
      deleted = (await Record.deleteMany({ dataSourceId: ds._id })).deletedCount ?? 0;
      if (docs.length) await Record.insertMany(docs, { ordered: true, lean: true });
    }
    if (removal) await closeChange(ctx.models, ds._id, removal, { added: 0 });
    const { after, recordCount } = await closeChange(ctx.models, ds._id, change, { added: docs.length - deleted, newFields: keyed.newFields });
    if (removal) ctx.events.emit('records.removed', { dataSourceId: String(ds._id), sourceId: ds.sourceId, revision: removal.revision, total: recordCount, recordIds: removedIds, all: false });
    if (docs.length) ctx.events.emit('records.upserted', { dataSourceId: String(ds._id), sourceId: ds.sourceId, revision: change.revision, total: recordCount, records: docs.map(presentRecord) });
    if (after) ctx.events.emit('datasource.changed', { dataSource: presentDataSource(after) });
    logChange(ctx, who, ds, 'records.replaced', `Replaced all records (${docs.length} now, ${removedIds.length} removed)`, { stored: docs.length, removed: removedIds.length, atomic });
    const evicted = after ? await enforceRetention(ctx, after) : 0;
    return { sourceId: ds.sourceId, stored: docs.length - evicted, removed: removedIds.length, atomic, revision: change.revision };
  });
}
