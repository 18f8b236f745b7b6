import { stringify } from 'csv-stringify/sync';
import { CSV_OPTIONS, neutralise } from '@common/csv';
import type { DateOrder } from '@common/schemas/dataSource';
import { ErrorCode } from '@common/schemas/errors';
import { ImportPlan, type DryRunDto, type ImportDuplicate, type ImportRejection } from '@common/schemas/imports';
import { readPath } from '@common/paths';
import { readDate } from '@common/types/dates';
import type { z } from 'zod';
import { type AppContext, ApiError, BadRequestError, ForbiddenError, requireDataSource } from '../core';
import type { Principal } from '../access';
import { askerOf, checkSourceInBody, hasRole } from '../access';
import type { DataSourceDoc, RecordDoc } from '../core';
import { createDataSource, removeDataSource } from '../dataSources';
import { replaceAllRecords, checkRecords, type Keying, writeToSource } from '../records';
import { fileOf, MAX_REJECTIONS, progressOf, removeFile, type ImportJob } from './importJobs';
import { readRows } from './readRows';

/**
 * The dry run and the import of an uploaded file. Both read the whole file once to check it (each
 * row converted to its columns' types and checked like any ingest; the key unique over the whole
 * file); the import then reads it again and writes in batches of IMPORT_BATCH rows through the
 * source's group-commit writer — or, to replace a source's records, all at once on success only.
 */

type Plan = z.infer<typeof ImportPlan>;
type Json = Record<string, unknown>;
type Column = Plan['columns'][number];

/** Rows written per batch: each batch is one write, whole or not at all. */
export const IMPORT_BATCH = 500;
/** Rejections and duplicates an answer lists (all rejections are in the CSV). */
const LISTED = 100;

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const BOOLEANS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };
const shown = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);

/** A row as its columns say: renamed, skipped, typed (number and boolean texts become values; a date must read as one). */
export function convertRow(row: Json, columns: Column[], dateOrder: DateOrder): { record: Json } | { error: string } {
  const record: Json = {};
  for (const c of columns) {
    if (c.skip) continue;
    let v = row[c.name];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v === 'string') {
      const t = v.trim();
      if (c.type === 'number') {
        if (!NUMBER.test(t)) return { error: `column "${c.name}": ${shown(v)} is not a number` };
        v = Number(t);
      } else if (c.type === 'boolean') {
        const b = BOOLEANS[t.toLowerCase()];
        if (b === undefined) return { error: `column "${c.name}": ${shown(v)} is not true or false` };
        v = b;
      } else if (c.type === 'datetime' && !readDate(t, { dateOrder, epoch: true })) {
        // A date-time column reads as the one date reader does: whole years (1900) and epoch seconds or milliseconds too.
        return { error: `column "${c.name}": ${shown(v)} is not a date or time` };
      }
    } else if (c.type === 'number' && typeof v !== 'number') {
      return { error: `column "${c.name}": ${shown(JSON.stringify(v))} is not a number` };
    }
    Object.defineProperty(record, c.field, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return { record };
}

/** Where the import goes and how records are keyed, checked against the target before any row is read. */
interface Resolved {
  plan: Plan;
  /** Null: a new source, created when the import starts. */
  ds: DataSourceDoc | null;
  keying: Keying;
  dateOrder: DateOrder;
}

const invalid = (path: string, message: string) => new ApiError(400, ErrorCode.validationFailed, `${path}: ${message}`, [{ path, message }]);

export async function resolvePlan(app: AppContext, principal: Principal, input: Plan): Promise<Resolved> {
  const plan = input;
  const active = plan.columns.filter((c) => !c.skip);
  if (!active.length) throw invalid('columns', 'every column is skipped: import at least one');
  const fields = new Set<string>();
  for (const c of active) {
    if (fields.has(c.field)) throw invalid('columns', `two columns land in the field "${c.field}": rename one of them or skip it`);
    fields.add(c.field);
  }
  if (plan.key !== null && !fields.has(plan.key)) throw invalid('key', `"${plan.key}" is not one of the imported fields: pick an imported column as the key, or none (append-only)`);
  const keying: Keying = plan.key === null ? { appendOnly: true } : { primaryKey: plan.key };
  if (plan.target.kind === 'new') {
    if (!hasRole(askerOf(principal), 'admin')) throw ForbiddenError('Creating a data source needs the admin role: import into an existing data source instead');
    if (plan.mode === 'replace') throw invalid('mode', 'a new data source has nothing to replace: use append');
    return { plan: { ...plan, mode: 'append' }, ds: null, keying, dateOrder: 'mdy' };
  }
  // A person limited to chosen dashboards imports only into a source one of them shows.
  await checkSourceInBody(app, askerOf(principal), plan.target.dataSourceId);
  const ds = await requireDataSource(app, plan.target.dataSourceId);
  const dateOrder: DateOrder = ds.dateOrder === 'dmy' ? 'dmy' : 'mdy';
  const conflict = (message: string) => new ApiError(409, ErrorCode.primaryKeyConflict, message, [{ path: 'key', message }]);
  if (ds.appendOnly && plan.key !== null) throw conflict(`Data source "${ds.name}" is append-only (no key): import with no key column`);
  if (ds.primaryKey && plan.key !== ds.primaryKey) throw conflict(`Data source "${ds.name}" is keyed by "${ds.primaryKey}": pick the column that lands in "${ds.primaryKey}" as the key`);
  if (plan.mode === 'upsert' && plan.key === null) throw invalid('mode', 'upsert updates records by their key: pick a key column, or use append');
  return { plan, ds, keying, dateOrder };
}

interface Scan {
  read: number;
  rejections: ImportRejection[];
  rejected: number;
  /** Rows not to write (rejected). */
  skipRows: Set<number>;
  duplicates: ImportDuplicate[];
  inserted: number;
  updated: number;
  removed: number;
  newFields: string[];
}

/** The keys a source holds (a cursor: one key at a time in memory besides the set). */
async function storedKeys(app: AppContext, ds: DataSourceDoc): Promise<Set<string>> {
  const keys = new Set<string>();
  const cursor = app.models.Record.find({ dataSourceId: ds._id }).select({ recordId: 1 }).lean<RecordDoc[]>().cursor({ batchSize: 5000 });
  for await (const r of cursor as AsyncIterable<RecordDoc>) keys.add(r.recordId);
  return keys;
}

/** One pass over the whole file: what would land, what would not and why, and the key's duplicates. */
async function scan(app: AppContext, job: ImportJob, r: Resolved, onRow?: (read: number) => void): Promise<Scan> {
  const { plan, ds, keying } = r;
  const existing = ds && !ds.appendOnly && plan.key !== null ? await storedKeys(app, ds) : new Set<string>();
  const existingCount = ds ? (ds.recordCount ?? existing.size) : 0;
  const known = new Set(ds?.fields ?? []);
  const before = new Set(known);
  const out: Scan = { read: 0, rejections: [], rejected: 0, skipRows: new Set(), duplicates: [], inserted: 0, updated: 0, removed: 0, newFields: [] };
  const firstRow = new Map<string, number>();
  const dupRows = new Map<string, number[]>();
  const kept = new Set<string>();
  const reject = (row: number, reason: string) => {
    out.rejected++;
    out.skipRows.add(row);
    if (out.rejections.length < MAX_REJECTIONS) out.rejections.push({ row, reason });
  };
  for await (const item of readRows(fileOf(job), plan.settings)) {
    out.read++;
    onRow?.(out.read);
    if ('error' in item) {
      reject(item.row, item.error);
      continue;
    }
    const converted = convertRow(item.record, plan.columns, r.dateOrder);
    if ('error' in converted) {
      reject(item.row, converted.error);
      continue;
    }
    const checked = checkRecords(ds?.sourceId ?? 'new', known, [{ index: item.row, record: converted.record }], keying);
    if (checked.rejections.length) {
      reject(item.row, checked.rejections[0].reason);
      continue;
    }
    const key = 'primaryKey' in keying ? String(readPath(converted.record, keying.primaryKey)) : null;
    if (key === null) {
      out.inserted++;
      continue;
    }
    const first = firstRow.get(key);
    if (first !== undefined) {
      const rows = dupRows.get(key) ?? [first];
      rows.push(item.row);
      dupRows.set(key, rows);
      continue;
    }
    firstRow.set(key, item.row);
    if (existing.has(key)) {
      if (plan.mode === 'append') {
        reject(item.row, `a record with the key ${shown(key)} is already in the data source: choose upsert to update it`);
        continue;
      }
      out.updated++;
      kept.add(key);
    } else out.inserted++;
  }
  // In file order (by each value's first row); at most LISTED row numbers each, with their count.
  out.duplicates = [...dupRows].sort((a, b) => a[1][0] - b[1][0]).map(([key, rows]) => ({ key, rows: rows.slice(0, LISTED), count: rows.length }));
  out.newFields = [...known].filter((f) => !before.has(f));
  if (plan.mode === 'replace') out.removed = ds?.appendOnly ? existingCount : existing.size - kept.size;
  return out;
}

const duplicatesError = (duplicates: ImportDuplicate[], key: string) => {
  const rowsOf = (d: ImportDuplicate) => `${d.rows.slice(0, 5).join(', ')}${d.count > 5 ? `, … (${d.count} rows)` : ''}`;
  const listed = duplicates.slice(0, 3).map((d) => `${shown(d.key)} on rows ${rowsOf(d)}`).join('; ');
  return new ApiError(409, ErrorCode.duplicateKeys, `The key "${key}" is not unique in the file, so nothing was written: ${duplicates.length} value${duplicates.length === 1 ? '' : 's'} repeat (${listed}${duplicates.length > 3 ? '; …' : ''}). Pick another key, or none (append-only)`,
    duplicates.slice(0, LISTED).map((d) => ({ path: 'key', message: `${d.key}: rows ${rowsOf(d)}` })));
};

/** POST /api/admin/imports/:id/dry-run: counts of what the import would do, nothing written. */
export async function dryRun(app: AppContext, principal: Principal, job: ImportJob, input: Plan): Promise<DryRunDto> {
  if (job.state === 'running') throw new ApiError(409, ErrorCode.conflict, 'This file is being imported now: wait for it to end, or cancel it');
  const r = await resolvePlan(app, principal, input);
  job.settings = r.plan.settings;
  const s = await scan(app, job, r);
  job.rejections = s.rejections;
  const imported = r.plan.columns.filter((c) => !c.skip).map((c) => c.field);
  return {
    read: s.read, inserted: s.inserted, updated: s.updated, rejected: s.rejected, removed: s.removed,
    rejections: s.rejections.slice(0, LISTED), duplicates: s.duplicates.slice(0, LISTED),
    mismatches: { newFields: r.ds ? s.newFields : [], missingFields: r.ds ? (r.ds.fields ?? []).filter((f) => !imported.includes(f)) : [] },
  };
}

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/** POST /api/admin/imports/:id/run: the import starts; progress goes out as `import.progress` events. */
export async function startImport(app: AppContext, principal: Principal, job: ImportJob, input: Plan): Promise<void> {
  if (job.state === 'running') throw new ApiError(409, ErrorCode.conflict, 'This file is being imported now: wait for it to end, or cancel it');
  fileOf(job);
  const r = await resolvePlan(app, principal, input);
  Object.assign(job, { settings: r.plan.settings, state: 'running', read: 0, written: 0, rejected: 0, message: null, cancelRequested: false, rejections: [], dataSourceId: r.ds ? String(r.ds._id) : null });
  emit(app, job);
  void runImport(app, job, r).catch(async (e: unknown) => {
    app.log.error('import failed', e);
    let removed = '';
    // A failed import into a new source leaves no half-filled source behind.
    if (!r.ds && job.dataSourceId) {
      const created = await app.models.DataSource.findById(job.dataSourceId).lean<DataSourceDoc>();
      if (created) await removeDataSource(app, created).then(() => (removed = ` The data source "${created.name}" it created was removed.`), (err: unknown) => app.log.error('removing the source of a failed import failed', err));
    }
    finish(app, job, 'failed', `Failed: ${e instanceof Error ? e.message : String(e)}.${removed}`);
  });
}

function emit(app: AppContext, job: ImportJob) {
  app.events.emit('import.progress', progressOf(job));
}

function finish(app: AppContext, job: ImportJob, state: 'done' | 'cancelled' | 'failed', message: string) {
  Object.assign(job, { state, message, touched: Date.now() });
  removeFile(job);
  emit(app, job);
}

async function runImport(app: AppContext, job: ImportJob, r: Resolved): Promise<void> {
  const { plan, keying } = r;
  const replace = plan.mode === 'replace';
  let lastEmit = 0;
  const s = await scan(app, job, r, (read) => {
    job.read = read;
    if (read - lastEmit >= 5000) {
      lastEmit = read;
      emit(app, job);
    }
  });
  job.rejections = s.rejections;
  job.rejected = s.rejected;
  if (s.duplicates.length && plan.key) return finish(app, job, 'failed', duplicatesError(s.duplicates, plan.key).message);
  if (job.cancelRequested) return finish(app, job, 'cancelled', 'Cancelled before anything was written: the data source is as it was.');
  let ds = r.ds;
  if (!ds) {
    const fieldTypes = Object.fromEntries(plan.columns.filter((c) => !c.skip).map((c) => [c.field, c.type]));
    const created = await createDataSource(app, { name: plan.target.kind === 'new' ? plan.target.name : job.fileName, ...('primaryKey' in keying ? { primaryKey: keying.primaryKey } : { appendOnly: true }), fieldTypes });
    ds = await requireDataSource(app, created.id);
    job.dataSourceId = created.id;
  }
  const target = ds;
  // The file is read and checked, the target exists: writing begins (rows read and rejected, and a new source's id, go out now).
  emit(app, job);
  const pending: { index: number; record: Json }[] = [];
  let batches = 0;
  const where = `data source "${target.name}"`;
  const write = async () => {
    if (job.cancelRequested) return false;
    const items = pending.splice(0);
    const outcome = await writeToSource(app, target, { items, explicitKey: plan.key ?? undefined, keyless: 'appendOnly', mode: 'replace' });
    batches++;
    job.written += outcome.result.inserted + outcome.result.updated;
    job.rejections.push(...outcome.rejections.slice(0, Math.max(0, MAX_REJECTIONS - job.rejections.length)).map((rej) => ({ row: rej.index, reason: rej.reason })));
    job.rejected += outcome.rejections.length;
    emit(app, job);
    return true;
  };
  for await (const item of readRows(fileOf(job), plan.settings)) {
    if (s.skipRows.has(item.row) || 'error' in item) continue;
    const converted = convertRow(item.record, plan.columns, r.dateOrder);
    if ('error' in converted) continue;
    pending.push({ index: item.row, record: converted.record });
    if (!replace && pending.length >= IMPORT_BATCH && !(await write())) {
      return finish(app, job, 'cancelled', `Cancelled after ${plural(batches, 'whole batch')}: ${plural(job.written, 'row')} written stay in the ${where}; the rest of the file was not imported.`);
    }
    if (replace && job.cancelRequested) break;
  }
  if (replace) {
    if (job.cancelRequested) return finish(app, job, 'cancelled', `Cancelled: nothing was replaced, the ${where} is as it was.`);
    const result = await replaceAllRecords(app, { admin: true }, target, { format: 'array', items: pending.map((p, index) => ({ index, record: p.record })), unreadable: [] }, plan.key ?? undefined);
    job.written = pending.length;
    summarize(app, job, target, s.removed);
    return finish(app, job, 'done', `Imported ${plural(job.written, 'row')} into the ${where}, replacing its records (${plural(result.removed, 'record')} removed${result.atomic ? '' : ', not atomically'}); ${plural(job.rejected, 'row')} rejected.`);
  }
  if (pending.length && !(await write())) {
    return finish(app, job, 'cancelled', `Cancelled after ${plural(batches, 'whole batch')}: ${plural(job.written, 'row')} written stay in the ${where}; the rest of the file was not imported.`);
  }
  summarize(app, job, target, 0);
  finish(app, job, 'done', `Imported ${plural(job.written, 'row')} into the ${where}: ${plural(s.inserted, 'row')} inserted, ${plural(s.updated, 'row')} updated, ${plural(job.rejected, 'row')} rejected.${await retentionNote(app, target, job.written)}`);
}

/** When the source's retention evicted imported records, says how many it keeps (never silent). */
async function retentionNote(app: AppContext, ds: DataSourceDoc, written: number): Promise<string> {
  const after = await app.models.DataSource.findById(ds._id).lean<DataSourceDoc>();
  const kept = after?.recordCount ?? written;
  return kept < written ? ` The source's retention keeps ${plural(kept, 'record')}: the oldest went (Data Sources › its card › Retention).` : '';
}

/** One activity entry per import: the file's name, the counts and who (the request's person, carried by the log). */
function summarize(app: AppContext, job: ImportJob, ds: DataSourceDoc, removed: number) {
  app.events.emit('activity.happened', {
    kind: 'records.imported', category: 'ingest', objectType: 'dataSource', objectId: String(ds._id), objectName: ds.name,
    summary: `Imported "${job.fileName}" into data source "${ds.name}": ${plural(job.written, 'row')} written, ${plural(job.rejected, 'row')} rejected`,
    details: { read: job.read, written: job.written, rejected: job.rejected, removed },
  });
}

/** POST /api/admin/imports/:id/cancel: the import stops before its next write. */
export function cancelImport(job: ImportJob): void {
  if (job.state !== 'running') throw BadRequestError('import_not_running', `This import is not running (it is ${job.state}): nothing to cancel`);
  job.cancelRequested = true;
}

/** The rejections as CSV by the server's CSV rules (common/csv): row, reason. */
export function rejectionsCsv(job: ImportJob): string {
  return stringify([['row', 'reason'], ...job.rejections.map((r) => [String(r.row), neutralise(r.reason)])], CSV_OPTIONS);
}
