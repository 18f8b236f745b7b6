import { ErrorCode } from '@common/schemas/errors';
import { ApiError, NotFoundError, type AppContext, type DataSourceDoc } from '../../core';
import { checkRecords, isObject, type Keying } from '../manage/recordRules';

/**
 * Which key a request's records are stored by: the source's own, the one the request names, or —
 * for a source that has none yet — the one its first request sets (append-only from a source URL,
 * the first field on /api/data/ingest).
 */

type Item = { index: number; record: unknown };

/** What of a request its keying depends on (a WriteJob is one). */
export interface KeyRequest {
  items: Item[];
  /** The key the request names (query, wrapper body, integration), if any. */
  explicitKey?: string;
  /** A source with neither key nor append-only: the source URL makes it append-only; /api/data/ingest takes the first field. */
  keyless: 'appendOnly' | 'firstField';
}

const conflict = (message: string) => new ApiError(409, ErrorCode.primaryKeyConflict, message, [{ path: 'primaryKey', message }]);

/**
 * The keying a request gets from the source as it stands, without writing anything: the source's
 * own, or the one the request would set on a source that has none. Throws the request's refusal
 * (409 another key, 400 an ambiguous first field), so a batch naming several sources can be
 * checked whole before any of it is written.
 */
export function keyingFor(ds: DataSourceDoc, job: KeyRequest): Keying {
  const wanted = job.explicitKey;
  if (ds.appendOnly) {
    if (wanted) throw conflict(`Data source ${ds.sourceId} is append-only (every record kept, no primary key), so records cannot be keyed by "${wanted}": send them without primaryKey`);
    return { appendOnly: true };
  }
  if (ds.primaryKey) {
    if (wanted && wanted !== ds.primaryKey) {
      throw conflict(`Data source ${ds.sourceId} is keyed by "${ds.primaryKey}", not "${wanted}": a source has one primary key. Send without primaryKey (or with "${ds.primaryKey}"), or use another data source`);
    }
    return { primaryKey: ds.primaryKey };
  }
  if (wanted) return { primaryKey: wanted };
  if (job.keyless === 'appendOnly') return { appendOnly: true };
  return { primaryKey: firstFieldKey(ds, job.items) };
}

/**
 * The keying of one request (keyingFor), and for a source that has none yet, the one this request
 * sets — atomically, so concurrent first requests of several processes agree.
 */
export async function planKeying(ctx: AppContext, ds: DataSourceDoc, job: KeyRequest): Promise<{ ds: DataSourceDoc; keying: Keying }> {
  const keying = keyingFor(ds, job);
  if (ds.appendOnly || ds.primaryKey) return { ds, keying };
  // Nothing would land (every record rejected): the source stays as it is.
  if (checkRecords(ds.sourceId, new Set(ds.fields ?? []), job.items, keying).accepted.length === 0) return { ds, keying };
  const set = 'appendOnly' in keying ? { appendOnly: true, primaryKey: null } : { primaryKey: keying.primaryKey };
  const won = await ctx.models.DataSource.findOneAndUpdate({ _id: ds._id, primaryKey: null, appendOnly: { $ne: true } }, { $set: set }, { returnDocument: 'after' }).lean<DataSourceDoc>();
  // The source's new keying reaches the console with the recount this write ends with.
  if (won) return { ds: won, keying };
  const current = await ctx.models.DataSource.findById(ds._id).lean<DataSourceDoc>();
  if (!current) throw NotFoundError(`Data source ${ds.sourceId}`);
  // Another process set the keying first: this request follows it (or is refused if it named another key).
  if (!current.primaryKey && !current.appendOnly) throw new ApiError(409, ErrorCode.conflict, `The keying of data source ${ds.sourceId} keeps changing: retry`);
  return planKeying(ctx, current, job);
}

/**
 * The first-field rule of /api/data/ingest (senders rely on it to key a source without naming the key), kept only where it loses nothing: the first
 * field of the first record, present in every record of the batch with a value no other record has.
 */
function firstFieldKey(ds: DataSourceDoc, items: Item[]): string {
  const objects = items.filter((i): i is { index: number; record: Record<string, unknown> } => isObject(i.record) && Object.keys(i.record).length > 0);
  if (!objects.length) return '';
  const field = Object.keys(objects[0].record)[0];
  const missing: number[] = [];
  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  for (const { index, record } of objects) {
    const v = Object.prototype.hasOwnProperty.call(record, field) ? record[field] : undefined;
    if (v === undefined || v === null || v === '' || typeof v === 'object') {
      missing.push(index);
      continue;
    }
    const key = String(v);
    const first = seen.get(key);
    if (first !== undefined) duplicates.push(`records #${first} and #${index} share ${JSON.stringify(key)}`);
    else seen.set(key, index);
  }
  if (!missing.length && !duplicates.length) return field;
  const what = duplicates.length
    ? `the first field "${field}" repeats in this batch (${duplicates.slice(0, 5).join('; ')}${duplicates.length > 5 ? `; ${duplicates.length - 5} more` : ''})`
    : `the first field "${field}" is missing or empty in record${missing.length > 1 ? 's' : ''} ${missing.slice(0, 5).map((i) => `#${i}`).join(', ')}${missing.length > 5 ? ', …' : ''}`;
  const message =
    `Data source ${ds.sourceId} has no primary key yet and ${what}, so keying by it would merge or drop records. ` +
    `Either name the key that identifies a record (primaryKey in the body or ?primaryKey=<field>), ` +
    `or make the source append-only to keep every record (PATCH /api/admin/data-sources/${String(ds._id)} with {"appendOnly": true}, or send to POST /api/data/sources/${ds.sourceId}/records without a key)`;
  throw new ApiError(400, ErrorCode.primaryKeyAmbiguous, message, [{ path: 'primaryKey', message: what }]);
}
