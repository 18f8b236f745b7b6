import crypto from 'node:crypto';
import mongoose from 'mongoose';
import type { ReportFormat } from '@common/schemas/report';
import type { ReportFileDoc, ReportModels, RunFile } from './models';

/*
 * A run's files, kept REPORT_FILES_DAYS in MongoDB so every process serves them at their signed
 * links: a head per file and its bytes in chunks of up to 1 MB (a document stays far below
 * MongoDB's 16 MB, on a real mongod and the offline engine alike — GridFS would do the same on a
 * mongod, and the offline engine's writes cost the square of a collection's size, so a run writes
 * all its chunks in one command and all its heads in another).
 */

const CHUNK_BYTES = 1024 * 1024;

/** A drawn file, as the renderer hands it over. */
export interface DrawnFile {
  format: ReportFormat;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** Keeps a run's files until `expiresAt`; answers how its deliveries name them. */
export async function keepFiles(models: ReportModels, reportId: string, runId: string, files: DrawnFile[], expiresAt: Date): Promise<RunFile[]> {
  if (!files.length) return [];
  const heads: (Omit<ReportFileDoc, '_id'> & { _id: mongoose.Types.ObjectId })[] = [];
  const chunks: { fileId: string; n: number; data: Buffer }[] = [];
  for (const f of files) {
    const _id = new mongoose.Types.ObjectId();
    const n = Math.max(1, Math.ceil(f.bytes.length / CHUNK_BYTES));
    for (let i = 0; i < n; i++) chunks.push({ fileId: String(_id), n: i, data: f.bytes.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES) });
    heads.push({
      _id, reportId, runId, format: f.format, filename: f.filename, contentType: f.contentType, bytes: f.bytes.length,
      sha256: crypto.createHash('sha256').update(f.bytes).digest('hex'), chunks: n, expiresAt,
    });
  }
  // The bytes first: a head is never found without them.
  await models.ReportFileChunk.insertMany(chunks, { ordered: true });
  await models.ReportFile.insertMany(heads, { ordered: true });
  return heads.map((h) => ({ fileId: String(h._id), format: h.format, filename: h.filename, contentType: h.contentType, bytes: h.bytes, sha256: h.sha256 }));
}

/** A kept file with its bytes, or null when it is gone (expired, its report deleted) or incomplete. */
export async function readFile(models: ReportModels, fileId: string): Promise<{ head: ReportFileDoc; bytes: Buffer } | null> {
  if (!mongoose.isObjectIdOrHexString(fileId)) return null;
  const head = await models.ReportFile.findById(fileId).lean<ReportFileDoc>();
  if (!head || head.expiresAt.getTime() <= Date.now()) return null;
  const parts = await models.ReportFileChunk.find({ fileId }).sort({ n: 1 }).lean();
  if (parts.length !== head.chunks) return null;
  // The driver hands binary data back as BSON Binary; a Buffer either way.
  const bytes = Buffer.concat(parts.map((p) => toBuffer(p.data)));
  return bytes.length === head.bytes ? { head, bytes } : null;
}

const toBuffer = (d: unknown): Buffer => (Buffer.isBuffer(d) ? d : d instanceof Uint8Array ? Buffer.from(d) : Buffer.from((d as { buffer: Uint8Array }).buffer));

/** The bytes of a run's files for an email (those still kept). */
export async function readRunFiles(models: ReportModels, files: RunFile[]): Promise<{ file: RunFile; bytes: Buffer }[]> {
  const out: { file: RunFile; bytes: Buffer }[] = [];
  for (const file of files) {
    const kept = await readFile(models, file.fileId);
    if (kept) out.push({ file, bytes: kept.bytes });
  }
  return out;
}

/** Removes files: those past their time (`{expiresAt: {$lte: now}}`), or a removed report's. Answers how many. */
export async function removeFiles(models: ReportModels, filter: Record<string, unknown>): Promise<number> {
  const heads = await models.ReportFile.find(filter).lean<ReportFileDoc[]>();
  if (!heads.length) return 0;
  const ids = heads.map((h) => String(h._id));
  // The heads first: a link then answers 404 at once, whatever is left of the bytes.
  await models.ReportFile.deleteMany({ _id: { $in: ids } });
  await models.ReportFileChunk.deleteMany({ fileId: { $in: ids } });
  return ids.length;
}
