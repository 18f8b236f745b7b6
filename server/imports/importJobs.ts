import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import type { FieldType } from '@common/schemas/dataSource';
import { ErrorCode } from '@common/schemas/errors';
import type { ImportPreviewDto, ImportProgressDto, ImportRejection, ImportSettings } from '@common/schemas/imports';
import { TypeSampler } from '@common/types/infer';
import { AppHandle, type AppContext, ApiError, BadRequestError, NotFoundError, PayloadTooLargeError, decodedBody, formatBytes, pidRunning } from '../core';
import type { Principal } from '../access';
import { askerOf, mayUseImportJob, type Asker } from '../access';
import { isObject } from '../records';
import { detectSettings } from './detect';
import { readRows } from './readRows';

/**
 * Uploaded files waiting to be imported: each a temp file under os.tmpdir() named with the
 * process's pid, with what is known of it, held by this process. A file goes when its import ends, when it is discarded, or after
 * IMPORT_IDLE_SECONDS without use (what the job says stays a while longer for its status and
 * rejections).
 */

/** An upload: its progress as the screen sees it, and what the server keeps to import it. */
export interface ImportJob extends ImportProgressDto {
  file: string | null;
  size: number;
  /** Who uploaded it: a person's id, or the admin token. */
  owner: string;
  settings: ImportSettings;
  /** The last dry run's or import's rejections (the CSV download). */
  rejections: ImportRejection[];
  cancelRequested: boolean;
  touched: number;
}

/** Rows shown in the preview, and rows read to infer the columns' types. */
export const PREVIEW_ROWS = 100;
const SAMPLE_ROWS = 1_000;
/** Rejections kept per job for the CSV download. */
export const MAX_REJECTIONS = 100_000;

interface Registry {
  jobs: Map<string, ImportJob>;
  timer: NodeJS.Timeout;
}
const registries = new AppHandle<Registry>('the import jobs', (app) => {
    const jobs = new Map<string, ImportJob>();
    const idleMs = app.config.IMPORT_IDLE_SECONDS * 1000;
    const timer = setInterval(() => {
      const now = Date.now();
      for (const job of jobs.values()) {
        if (job.state === 'running' || now - job.touched < idleMs) continue;
        removeFile(job);
        // A finished job's status and rejections stay one more idle period.
        if (now - job.touched >= 2 * idleMs) jobs.delete(job.id);
      }
    }, Math.min(60_000, Math.max(200, idleMs / 2)));
    timer.unref();
    return { jobs, timer };
});

const registry = (app: AppContext): Registry => registries.of(app);

export function removeFile(job: ImportJob): void {
  if (!job.file) return;
  fs.rm(job.file, { force: true }, () => undefined);
  job.file = null;
}

const ownerOf = (p: Principal) => p.user?.id ?? 'admin-token';

/** A job the caller may use: their own, or any for an admin. Another person's is a 404, as if it did not exist. */
export function requireJob(app: AppContext, principal: Principal, id: string): ImportJob {
  const job = registry(app).jobs.get(id);
  if (!job || !mayUseImportJob({ ...askerOf(principal), userId: principal.user?.id ?? null }, job.owner)) throw NotFoundError(`Import ${id}`);
  job.touched = Date.now();
  return job;
}

/** The job's file, or a 410-like answer when it is gone (imported, discarded or idle too long). */
export function fileOf(job: ImportJob): string {
  if (!job.file) throw new ApiError(409, 'import_file_gone', `The file "${job.fileName}" of this import is no longer held (imported, discarded or idle too long): upload it again`);
  return job.file;
}

export const progressOf = (job: ImportJob): ImportProgressDto => ({
  id: job.id, fileName: job.fileName, state: job.state, read: job.read, written: job.written, rejected: job.rejected, dataSourceId: job.dataSourceId, message: job.message,
});

/** Streams the request body to a temp file, refusing more than IMPORT_MAX_BYTES with a 413. */
async function saveBody(ctx: Context, file: string, limit: number): Promise<number> {
  const tooLarge = () => PayloadTooLargeError(`The file is larger than the limit of ${formatBytes(limit)}: split it into smaller files and import each`);
  if (Number(ctx.get('content-length') || 0) > limit) throw tooLarge();
  let size = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > limit) cb(tooLarge());
      else cb(null, chunk);
    },
  });
  try {
    await pipeline(decodedBody(ctx), cap, fs.createWriteStream(file, { mode: 0o600 }));
  } catch (e) {
    fs.rm(file, { force: true }, () => undefined);
    if (e instanceof ApiError) throw e;
    throw BadRequestError('upload_failed', 'The upload ended before the whole file arrived: try again');
  }
  return size;
}

async function readHead(file: string): Promise<Buffer> {
  const fd = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fd.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fd.close();
  }
}

const cellOf = (v: unknown): string | number | boolean | null =>
  v === undefined || v === null || v === '' ? null : typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean);

/** The first rows as read with these settings, the columns found and each column's inferred type. */
export async function previewOf(job: ImportJob): Promise<ImportPreviewDto> {
  const file = fileOf(job);
  const names: string[] = [];
  const known = new Set<string>();
  const sampled: Record<string, unknown>[] = [];
  const problems: ImportRejection[] = [];
  let tooDeep: ImportRejection | null = null;
  let seen = 0;
  const rows = readRows(file, job.settings);
  try {
    for await (const item of rows) {
      if (++seen > SAMPLE_ROWS) break;
      if ('error' in item) {
        if (item.tooDeep) tooDeep ??= { row: item.row, reason: item.error };
        if (problems.length < PREVIEW_ROWS) problems.push({ row: item.row, reason: item.error });
        continue;
      }
      for (const k of Object.keys(item.record)) {
        if (known.has(k) || known.size >= 500) continue;
        known.add(k);
        names.push(k);
      }
      sampled.push(item.record);
    }
  } finally {
    await rows.return(undefined);
  }
  // Columns are typed by their top-level values: an object or array is text.
  // A sample whose every row is too deep to read says so as a 400, as an ingest body does.
  if (!sampled.length && tooDeep) throw new ApiError(400, ErrorCode.jsonTooDeep, `The file cannot be read: ${tooDeep.reason}`);
  const sampler = new TypeSampler();
  for (const r of sampled) {
    const flat: Record<string, unknown> = {};
    // defineProperty: a column named "__proto__" is a column like any other.
    for (const k of names) Object.defineProperty(flat, k, { value: isObject(r[k]) ? [r[k]] : r[k], enumerable: true, writable: true, configurable: true });
    sampler.add(flat);
  }
  const types = sampler.types();
  return {
    id: job.id, fileName: job.fileName, size: job.size, settings: job.settings,
    columns: names.map((name) => ({ name, type: (Object.hasOwn(types, name) ? types[name] : 'text') as FieldType })),
    rows: sampled.slice(0, PREVIEW_ROWS).map((r) => names.map((n) => cellOf(r[n]))),
    problems,
  };
}

/** POST /api/admin/imports: the file saved, its settings detected, its first rows previewed. */
export async function uploadImport(app: AppContext, ctx: Context, principal: Principal, fileName: string): Promise<ImportPreviewDto> {
  const reg = registry(app);
  const id = crypto.randomBytes(12).toString('hex');
  const file = path.join(os.tmpdir(), `${UPLOAD_PREFIX}${process.pid}-${id}`);
  const size = await saveBody(ctx, file, app.config.IMPORT_MAX_BYTES);
  if (size === 0) {
    fs.rm(file, { force: true }, () => undefined);
    throw BadRequestError('empty_file', 'The file is empty: pick a CSV, TSV, JSON array or NDJSON file with at least one row');
  }
  const settings = detectSettings(await readHead(file), fileName);
  const job: ImportJob = {
    id, file, fileName, size, owner: ownerOf(principal), settings, state: 'uploaded', read: 0, written: 0, rejected: 0, dataSourceId: null, message: null, rejections: [],
    cancelRequested: false, touched: Date.now(),
  };
  reg.jobs.set(id, job);
  try {
    return await previewOf(job);
  } catch (e) {
    // A file refused at upload is not kept.
    discardJob(app, job);
    throw e;
  }
}

const UPLOAD_PREFIX = 'livedash-import-';

/**
 * At start-up: the uploads that a crashed or killed process left in the temp folder (its pid is
 * no longer running) are removed. Another live process's uploads on this machine stay.
 */
export async function removeOrphanUploads(app: AppContext): Promise<void> {
  const dir = os.tmpdir();
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const orphans = names.filter((n) => {
    const m = /^livedash-import-(?:(\d+)-)?[0-9a-f]+$/.exec(n);
    return m && (!m[1] || !pidRunning(Number(m[1])));
  });
  await Promise.all(orphans.map((n) => fs.promises.rm(path.join(dir, n), { force: true }).catch(() => undefined)));
  if (orphans.length) app.log.info(`removed ${orphans.length} import upload${orphans.length === 1 ? '' : 's'} left by a process that stopped`);
}

/** Drops a job and its file (a running import is cancelled first). */
export function discardJob(app: AppContext, job: ImportJob): void {
  if (job.state === 'running') {
    job.cancelRequested = true;
    return;
  }
  removeFile(job);
  registry(app).jobs.delete(job.id);
}

/** Whether a socket's person may follow an import: its uploader, or an admin. */
export function mayFollow(app: AppContext, id: string, who: Asker & { userId: string | null }): boolean {
  const job = registry(app).jobs.get(id);
  return Boolean(job && mayUseImportJob(who, job.owner));
}
