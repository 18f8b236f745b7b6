import type { IngestRejection, IngestResult, IngestSourceResult } from '@common/schemas/ingest';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext } from '../context';
import { ApiError, BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import type { DataSourceDoc } from '../models';
import { presentDataSource } from '../presenters';
import { findDataSource, isIngestKeyOf } from './dataSources';
import { writeRecords } from './writeRecords';

type Json = Record<string, unknown>;
type Format = IngestResult['format'];

interface Item {
  index: number;
  sourceId: string | null;
  record: unknown;
}

/** Who is ingesting: the admin, or the holder of some credential that must be a source's ingest key. */
export type IngestCredential = { admin: true } | { admin: false; credential: string };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

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
    if (isObject(record) && sid) {
      stripped = { ...record };
      delete (stripped as Json).sourceId;
    }
    return { index, sourceId: sid, record: stripped };
  });
  return { format, items, primaryKey };
}

/** MongoDB documents nest at most 100 levels; the record sits two levels down. */
const MAX_DEPTH = 90;

function tooDeep(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return true;
  if (value === null || typeof value !== 'object') return false;
  for (const v of Object.values(value)) if (tooDeep(v, depth + 1)) return true;
  return false;
}

function keyProblem(record: unknown, primaryKey: string): string | null {
  if (!isObject(record)) return 'record is not a JSON object';
  if (tooDeep(record)) return `record is nested deeper than ${MAX_DEPTH} levels`;
  if (!Object.prototype.hasOwnProperty.call(record, primaryKey)) return `record has no primary key field "${primaryKey}"`;
  const v = record[primaryKey];
  if (v === null || v === '') return `primary key field "${primaryKey}" is empty`;
  if (typeof v === 'object') return `primary key field "${primaryKey}" must be a string, number or boolean`;
  return null;
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

  const sources = new Map<string, DataSourceDoc>();
  for (const sourceId of bySource.keys()) {
    const ds = await findDataSource(ctx, sourceId);
    if (!ds) {
      if (format !== 'array') throw NotFoundError(`Data source ${sourceId}`);
      for (const item of bySource.get(sourceId)!) rejections.push({ index: item.index, sourceId, reason: `data source ${sourceId} not found` });
      bySource.delete(sourceId);
      continue;
    }
    if (!who.admin && !isIngestKeyOf(ds, who.credential)) {
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
    const allUnknown = rejections.every((r) => r.reason.startsWith('data source '));
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
  const { DataSource, Record } = ctx.models;
  const firstObject = items.find((i) => isObject(i.record) && Object.keys(i.record).length > 0);
  const primaryKey = explicitKey ?? ds.primaryKey ?? (firstObject ? Object.keys(firstObject.record as Json)[0] : undefined);
  const accepted: { recordId: string; record: Json }[] = [];
  for (const item of items) {
    const problem = primaryKey ? keyProblem(item.record, primaryKey) : 'record is not a JSON object with at least one field';
    if (problem) rejections.push({ index: item.index, sourceId: ds.sourceId, reason: problem });
    else accepted.push({ recordId: String((item.record as Json)[primaryKey!]), record: item.record as Json });
  }
  const base = { sourceId: ds.sourceId, primaryKey: primaryKey ?? '', rejected: items.length - accepted.length };
  if (accepted.length === 0) return { ...base, inserted: 0, updated: 0, revision: ds.revision ?? 0 };

  const bumped = await DataSource.findByIdAndUpdate(ds._id, { $inc: { revision: 1 } }, { returnDocument: 'after' }).lean<DataSourceDoc>();
  const revision = bumped!.revision;
  const { inserted, updated, records } = await writeRecords(ctx, ds, accepted, revision);
  const fields = new Set<string>();
  for (const { record } of accepted) for (const k of Object.keys(record)) if (k !== 'custom_fields') fields.add(k);
  const known = new Set(ds.fields ?? []);
  const newFields = [...fields].filter((f) => !known.has(f));
  const recordCount = await Record.countDocuments({ dataSourceId: ds._id });
  const after = await DataSource.findByIdAndUpdate(
    ds._id,
    {
      $set: { recordCount, ...(!ds.primaryKey && primaryKey ? { primaryKey } : {}) },
      ...(newFields.length ? { $addToSet: { fields: { $each: newFields } } } : {}),
    },
    { returnDocument: 'after' },
  ).lean<DataSourceDoc>();
  ctx.events.emit('records.upserted', { dataSourceId: String(ds._id), sourceId: ds.sourceId, revision, total: recordCount, records });
  ctx.events.emit('datasource.changed', { dataSource: presentDataSource(after!) });
  return { ...base, inserted, updated, revision };
}
