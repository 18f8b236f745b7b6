import type { IngestRejection, IngestResult, IngestSourceResult } from '@common/schemas/ingest';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext } from '../context';
import { ApiError, BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import type { DataSourceDoc } from '../models';
import { closeChange, openChange } from '../models/ingestJournal';
import { presentDataSource } from '../presenters';
import { findDataSource } from './dataSources';
import { checkRecords, isObject, structureProblem } from './recordRules';
import { enforceRetention } from './retention';
import { withSourceLock } from './sourceLock';
import { writeRecords } from './writeRecords';

type Json = Record<string, unknown>;
type Format = IngestResult['format'];

interface Item {
  index: number;
  sourceId: string | null;
  record: unknown;
}

/** Who is ingesting: the admin, or the holder of some credential that must be a source's ingest key. */
/** Who ingests: the admin, or the holder of one data source's ingest key (that source, as the guard found it by the key). */
export type IngestCredential = { admin: true } | { admin: false; source: DataSourceDoc };

/** Recognises the four payload shapes of the API docs and flattens them to indexed items. */
export function detectFormat(body: unknown, maxRecords: number): { format: Format; items: Item[]; primaryKey?: string } {
  let format: Format;
  let list: unknown[];
  let sourceId: string | null = null;
  let primaryKey: string | undefined;
  if (Array.isArray(body)) {
    format = 'array';
    list = body;
  } else if (isObject(body)) {
    const arrays = (['records', 'results', 'data'] as const).filter((k) => Array.isArray(body[k]));
    if (arrays.length === 0) {
      throw BadRequestError('no_records', 'No records array: send {"sourceId": "...", "records": [ ... ]} (or "results" / "data"), or a top-level array of records that each carry sourceId');
    }
    if (arrays.length > 1) throw BadRequestError('ambiguous_payload', `Send only one of records, results or data (got ${arrays.join(' and ')})`);
    format = arrays[0] === 'records' ? 'standard' : arrays[0] === 'results' ? 'zendesk' : 'generic';
    list = body[arrays[0]] as unknown[];
    if (typeof body.sourceId !== 'string' || !body.sourceId) throw BadRequestError('no_source_id', 'sourceId is required: name the data source to write into (e.g. "CSTM_…")');
    sourceId = body.sourceId;
    if (body.primaryKey !== undefined) {
      if (typeof body.primaryKey !== 'string' || !body.primaryKey) throw BadRequestError('bad_primary_key', 'primaryKey must be a non-empty string naming a field');
      primaryKey = body.primaryKey;
    }
  } else {
    throw BadRequestError('no_records', 'The body must be a JSON object with sourceId and a records array, or a JSON array of records');
  }
  if (list.length === 0) throw BadRequestError('no_records', 'The records array is empty: nothing to ingest');
  if (list.length > maxRecords) {
    throw BadRequestError('too_many_records', `Too many records: ${list.length} in one request, the limit is ${maxRecords}; split the payload into batches`);
  }
  const items = list.map((record, index) => {
    if (format !== 'array') return { index, sourceId, record };
    const sid = isObject(record) && typeof record.sourceId === 'string' ? record.sourceId : null;
    let stripped: unknown = record;
    // A record with a reserved key is not copied at all: it is rejected as it came.
    if (isObject(record) && sid && !structureProblem(record)) {
      stripped = { ...record };
      delete (stripped as Json).sourceId;
    }
    return { index, sourceId: sid, record: stripped };
  });
  return { format, items, primaryKey };
}

/** Upserts records by (data source, primary-key value) and reports what landed and what did not. */
export async function ingestRecords(ctx: AppContext, body: unknown, who: IngestCredential, queryPrimaryKey?: string): Promise<IngestResult> {
  const { format, items, primaryKey: bodyPrimaryKey } = detectFormat(body, ctx.config.INGEST_MAX_RECORDS);
  const explicitKey = bodyPrimaryKey ?? queryPrimaryKey;
  const rejections: IngestRejection[] = [];
  const bySource = new Map<string, Item[]>();
  for (const item of items) {
    if (!item.sourceId) {
      rejections.push({ index: item.index, sourceId: null, reason: 'record has no sourceId' });
      continue;
    }
    const list = bySource.get(item.sourceId) ?? [];
    list.push(item);
    bySource.set(item.sourceId, list);
  }

  let unknownSourceRejections = 0;
  const sources = new Map<string, DataSourceDoc>();
  for (const sourceId of bySource.keys()) {
    // An ingest key writes to its own source, which the guard already read.
    const own = !who.admin && (sourceId === who.source.sourceId || sourceId === String(who.source._id));
    const ds = own ? who.source : await findDataSource(ctx, sourceId);
    if (!ds) {
      if (format !== 'array') throw NotFoundError(`Data source ${sourceId}`);
      for (const item of bySource.get(sourceId)!) rejections.push({ index: item.index, sourceId, reason: `data source ${sourceId} not found` });
      unknownSourceRejections += bySource.get(sourceId)!.length;
      bySource.delete(sourceId);
      continue;
    }
    if (!who.admin && String(ds._id) !== String(who.source._id)) {
      throw ForbiddenError(`This ingest key cannot write to data source ${sourceId}: use that source's own ingest key or the admin token`, ErrorCode.ingestKeyForbidden);
    }
    sources.set(sourceId, ds);
  }

  const results: IngestSourceResult[] = [];
  for (const [sourceId, list] of bySource) {
    results.push(await upsertRecordsIntoSource(ctx, sources.get(sourceId)!, list, explicitKey, rejections));
  }
  rejections.sort((a, b) => a.index - b.index);
  const inserted = results.reduce((n, r) => n + r.inserted, 0);
  const updated = results.reduce((n, r) => n + r.updated, 0);
  const result: IngestResult = { success: inserted + updated > 0, format, received: items.length, inserted, updated, rejected: rejections.length, rejections, sources: results };
  if (!result.success) {
    const allUnknown = unknownSourceRejections === rejections.length;
    const first = rejections.slice(0, 5).map((r) => `#${r.index}: ${r.reason}`).join('; ');
    throw new ApiError(
      allUnknown ? 404 : 400,
      allUnknown ? 'not_found' : 'all_records_rejected',
      `No record was ingested (${rejections.length} rejected): ${first}${rejections.length > 5 ? '; …' : ''}`,
      rejections.map((r) => ({ path: `records.${r.index}`, message: r.reason })),
    );
  }
  return result;
}

/**
 * The source's primary key, set once: the first ingest to claim it wins (an atomic
 * findOneAndUpdate on primaryKey: null); everyone else reads the winner's.
 */
async function claimPrimaryKey(ctx: AppContext, ds: DataSourceDoc, key: string): Promise<string> {
  const { DataSource } = ctx.models;
  for (let attempt = 0; attempt < 3; attempt++) {
    const won = await DataSource.findOneAndUpdate({ _id: ds._id, primaryKey: null }, { $set: { primaryKey: key } }, { returnDocument: 'after' }).lean<DataSourceDoc>();
    if (won) return key;
    const current = await DataSource.findById(ds._id).lean<DataSourceDoc>();
    if (!current) throw NotFoundError(`Data source ${ds.sourceId}`);
    if (current.primaryKey) return current.primaryKey;
  }
  throw new ApiError(409, 'conflict', `The primary key of data source ${ds.sourceId} keeps changing: retry the ingest`);
}

/**
 * Upserts records into one data source by primary-key value, bumping the source's revision and
 * announcing the changed records. Used by REST ingest and by integration syncs.
 */
export async function upsertRecordsIntoSource(
  ctx: AppContext,
  ds: DataSourceDoc,
  items: { index: number; record: unknown }[],
  explicitKey: string | undefined,
  rejections: IngestRejection[] = [],
): Promise<IngestSourceResult> {
  const firstObject = items.find((i) => isObject(i.record) && Object.keys(i.record).length > 0);
  let primaryKey = explicitKey ?? ds.primaryKey ?? (firstObject ? Object.keys(firstObject.record as Json)[0] : undefined);
  let checked = checkRecords(ds.sourceId, ds.fields ?? [], items, primaryKey);
  if (checked.accepted.length && !ds.primaryKey && primaryKey) {
    const winner = await claimPrimaryKey(ctx, ds, primaryKey);
    // Another first ingest claimed a different key: this batch is keyed (and checked) by the winner's.
    if (!explicitKey && winner !== primaryKey) {
      primaryKey = winner;
      checked = checkRecords(ds.sourceId, ds.fields ?? [], items, primaryKey);
    }
  }
  rejections.push(...checked.rejections);
  const { accepted } = checked;
  const base = { sourceId: ds.sourceId, primaryKey: primaryKey ?? '', rejected: items.length - accepted.length };
  if (accepted.length === 0) return { ...base, inserted: 0, updated: 0, revision: ds.revision ?? 0 };

  return withSourceLock(ctx, String(ds._id), async () => {
    // Journalled: a process killed before closeChange leaves the source to be repaired at start.
    const change = await openChange(ctx.models, ds._id);
    if (!change) throw NotFoundError(`Data source ${ds.sourceId}`);
    const { revision } = change;
    const { inserted, updated, records } = await writeRecords(ctx, ds, accepted, revision);
    const { after, recordCount } = await closeChange(ctx.models, ds._id, change, checked.newFields);
    ctx.events.emit('records.upserted', { dataSourceId: String(ds._id), sourceId: ds.sourceId, revision, total: recordCount, records });
    if (after) ctx.events.emit('datasource.changed', { dataSource: presentDataSource(after) });
    // RETENTION (issue 18 #7): still under the lock, so the answer finds the source within maxRecords.
    if (after) await enforceRetention(ctx, after);
    return { ...base, inserted, updated, revision };
  });
}
