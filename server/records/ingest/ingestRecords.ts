import type { UpdateMode } from '@common/schemas/dataSource';
import type { IngestRejection, IngestResult, IngestSourceResult } from '@common/schemas/records/ingest';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext, DataSourceDoc, IngestCredential } from '../../core';
import { ApiError, BadRequestError, ForbiddenError, NotFoundError, findDataSource, UnreadRecord, cachedSource } from '../../core';
import type { ParsedRecords } from './parseRecords';
import { isObject, structureProblem } from '../manage/recordRules';
import { keyingFor } from '../writer/keying';
import { writeToSource, type WriteOutcome } from '../writer/sourceWriter';
import { keyWritesTo, mayIngestInto, rateLimitsHandle } from '../../access';

type Json = Record<string, unknown>;
type Format = IngestResult['format'];

interface Item {
  index: number;
  sourceId: string | null;
  record: unknown;
}

/** Who ingests: the admin, or the holder of one data source's ingest key (that source, as the guard found it by the key). */
export type { IngestCredential } from '../../core';

export const tooManyRecords = (n: number, max: number) =>
  BadRequestError('too_many_records', `Too many records: ${n} in one request, the limit is ${max}; split the payload into batches`);

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
  if (list.length > maxRecords) throw tooManyRecords(list.length, maxRecords);
  const items = list.map((record, index) => {
    if (format !== 'array' || record instanceof UnreadRecord) return { index, sourceId, record };
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

/** The hash of the ingest key a request came with (the writer checks it is still the source's); undefined for the admin. */
export const keyHashOf = (who: IngestCredential) => (who.admin ? undefined : (who.source.ingestKeyHash ?? null));

/**
 * An ingest key writes to its own source only. Any other name gets the same 403, whether such a
 * source exists or not: a key holder learns nothing about other sources.
 */
const keyForbidden = (sourceId: string) =>
  ForbiddenError(`This ingest key cannot write to data source ${sourceId}: use that source's own ingest key or the admin token`, ErrorCode.ingestKeyForbidden);

/** The update mode a wrapper body names, if any. */
function bodyMode(body: unknown): UpdateMode | undefined {
  if (!isObject(body) || body.mode === undefined) return undefined;
  if (body.mode === 'merge' || body.mode === 'replace') return body.mode;
  throw new ApiError(400, ErrorCode.validationFailed, 'mode must be "replace" or "merge"', [{ path: 'mode', message: 'must be "replace" or "merge"' }]);
}

/** Upserts records by (data source, primary-key value) and reports what landed and what did not. */
export async function ingestRecords(
  ctx: AppContext,
  body: unknown,
  who: IngestCredential,
  query: { primaryKey?: string; mode?: UpdateMode } = {},
  idempotencyScope?: string,
): Promise<IngestResult> {
  const { format, items, primaryKey: bodyPrimaryKey } = detectFormat(body, ctx.config.INGEST_MAX_RECORDS);
  const explicitKey = bodyPrimaryKey ?? query.primaryKey;
  const mode = bodyMode(body) ?? query.mode;
  const rejections: IngestRejection[] = [];
  const bySource = new Map<string, Item[]>();
  for (const item of items) {
    if (item.record instanceof UnreadRecord) {
      rejections.push({ index: item.index, sourceId: item.sourceId, reason: item.record.reason });
      continue;
    }
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
    if (!who.admin && !keyWritesTo(who.source, sourceId)) throw keyForbidden(sourceId);
    // An ingest key writes to its own source, which the guard already read.
    const found = who.admin ? await findDataSource(ctx, sourceId) : who.source;
    // A source out of the credential's reach (a limited admin's personal token) reads as an unknown one.
    const ds = found && (await mayIngestInto(ctx, who, found)) ? found : null;
    if (!ds) {
      if (format !== 'array') throw NotFoundError(`Data source ${sourceId}`);
      for (const item of bySource.get(sourceId)!) rejections.push({ index: item.index, sourceId, reason: `data source ${sourceId} not found` });
      unknownSourceRejections += bySource.get(sourceId)!.length;
      bySource.delete(sourceId);
      continue;
    }
    sources.set(sourceId, ds);
  }

  for (const ds of sources.values()) await rateLimitsHandle.of(ctx).ingestSource.take(String(ds._id));
  const jobs = [...bySource].map(([sourceId, items]) => ({ ds: sources.get(sourceId)!, job: { items, explicitKey, keyless: 'firstField' as const, mode, keyHash: keyHashOf(who), idempotencyScope } }));
  // A batch naming several sources is checked whole first: one source's refusal writes none of them.
  if (jobs.length > 1) for (const { ds, job } of jobs) keyingFor(ds, job);
  const outcomes = await Promise.all(jobs.map(({ ds, job }) => writeToSource(ctx, ds, job)));
  return ingestReport(format, items.length, rejections, outcomes, unknownSourceRejections);
}

/**
 * The answer of an ingest: counts, rejections and warnings by record index. Nothing landed: 400
 * (404 when every record named a missing source), listing the first reasons.
 */
export function ingestReport(format: Format, received: number, rejections: IngestRejection[], outcomes: WriteOutcome[], unknownSourceRejections = 0): IngestResult {
  for (const o of outcomes) rejections.push(...o.rejections);
  rejections.sort((a, b) => a.index - b.index);
  const warnings = outcomes.flatMap((o) => o.warnings).sort((a, b) => a.index - b.index);
  const results = outcomes.map((o) => o.result);
  const inserted = results.reduce((n, r) => n + r.inserted, 0);
  const updated = results.reduce((n, r) => n + r.updated, 0);
  const result: IngestResult = { success: inserted + updated > 0, format, received, inserted, updated, rejected: rejections.length, rejections, warnings, sources: results };
  if (!result.success) {
    const allUnknown = unknownSourceRejections > 0 && unknownSourceRejections === rejections.length;
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
 * Records sent to a source's own URL: the source named by sourceId or id (an ingest key: its own
 * source only, any other name the same 403), keyed by the source's key, the request's
 * `?primaryKey=` while the source has none, or else append-only.
 */
export async function ingestIntoSource(
  ctx: AppContext,
  who: IngestCredential,
  sourceId: string,
  body: ParsedRecords,
  query: { primaryKey?: string; mode?: UpdateMode },
  idempotencyScope?: string,
): Promise<IngestResult> {
  let ds: DataSourceDoc | null;
  // The source's identity only (cached: sourceCache); the writer reads it again under its lock.
  if (who.admin) ds = await cachedSource(ctx, 'ref', sourceId, () => findDataSource(ctx, sourceId));
  else if (keyWritesTo(who.source, sourceId)) ds = who.source;
  else throw keyForbidden(sourceId);
  if (!ds || !(await mayIngestInto(ctx, who, ds))) throw NotFoundError(`Data source ${sourceId}`);
  await rateLimitsHandle.of(ctx).ingestSource.take(String(ds._id));
  const rejections = body.unreadable.map((u) => ({ index: u.index, sourceId: ds.sourceId, reason: u.reason }));
  const outcome = body.items.length ? [await writeToSource(ctx, ds, { items: body.items, explicitKey: query.primaryKey, keyless: 'appendOnly', mode: query.mode, keyHash: keyHashOf(who), idempotencyScope })] : [];
  return ingestReport(body.format, body.items.length + body.unreadable.length, rejections, outcome);
}

/**
 * Upserts records into one data source by primary-key value (an integration sync), through the
 * same group-committed writer as every ingest.
 */
export async function upsertRecordsIntoSource(
  ctx: AppContext,
  ds: DataSourceDoc,
  items: { index: number; record: unknown }[],
  explicitKey: string | undefined,
  rejections: IngestRejection[] = [],
): Promise<IngestSourceResult> {
  const outcome = await writeToSource(ctx, ds, { items, explicitKey, keyless: 'firstField' });
  rejections.push(...outcome.rejections);
  return outcome.result;
}
