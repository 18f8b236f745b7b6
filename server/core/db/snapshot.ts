import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';

const { EJSON } = mongoose.mongo.BSON;
type Doc = mongoose.mongo.Document;

/**
 * The offline engine keeps nothing itself: its data is written to one file in the data folder.
 * One line each, in canonical Extended JSON (so ids, dates, binaries, 32/64-bit integers and
 * doubles come back as the types they were):
 *
 *   ["livedash-snapshot", 1, "<ISO time>"]
 *   ["collection", "<name>"]        then one line per document of it, objects
 *   …
 *   ["end", {"<name>": <count>, …}, "<sha256 of every byte before this line>"]
 *
 * A file without its end line, with other counts or another digest was cut short or changed, and
 * never loads. It is written to a temp file, flushed to disk and renamed over the last one, so a
 * crash while writing leaves the last good snapshot in place.
 */

const FORMAT = 'livedash-snapshot';
const VERSION = 1;

/** A snapshot that cannot be loaded, and why, in words for the operator. */
export class SnapshotUnreadable extends Error {}

export interface SnapshotSummary {
  at: Date;
  collections: number;
  documents: number;
  bytes: number;
}

/** Driver read options that keep a value's BSON type (an Int32 stays one, not a JS number). */
export const EXACT_TYPES = { promoteValues: false, promoteLongs: false, promoteBuffers: false } as const;

const line = (v: unknown) => `${JSON.stringify(v)}\n`;

/**
 * Writes the collections' documents (read one collection at a time through `read`) to `file`,
 * atomically. Lines go out as the documents arrive, waiting when the disk is behind.
 */
export async function writeSnapshot(file: string, names: readonly string[], read: (name: string) => AsyncIterable<Doc>): Promise<SnapshotSummary> {
  const tmp = `${file}.tmp`;
  const out = fs.createWriteStream(tmp);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const put = async (text: string) => {
    hash.update(text);
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
  };
  const at = new Date();
  const counts: Record<string, number> = {};
  try {
    await put(line([FORMAT, VERSION, at.toISOString()]));
    for (const name of names) {
      await put(line(['collection', name]));
      let n = 0;
      let chunk = '';
      for await (const doc of read(name)) {
        chunk += `${EJSON.stringify(doc, { relaxed: false })}\n`;
        n++;
        if (chunk.length >= 64 * 1024) {
          await put(chunk);
          chunk = '';
        }
      }
      if (chunk) await put(chunk);
      counts[name] = n;
    }
    const end = line(['end', counts, hash.digest('hex')]);
    bytes += Buffer.byteLength(end);
    out.write(end);
    await Promise.race([new Promise<void>((r) => out.end(r)), failed]);
    // On disk before it replaces the last good one (a power cut must not leave an empty file).
    const fd = await fs.promises.open(tmp, 'r+');
    await fd.sync().finally(() => fd.close());
    await fs.promises.rename(tmp, file);
    await syncFolder(path.dirname(file));
  } catch (e) {
    out.destroy();
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  const documents = Object.values(counts).reduce((a, b) => a + b, 0);
  return { at, collections: names.length, documents, bytes };
}

async function syncFolder(dir: string) {
  const fd = await fs.promises.open(dir, 'r').catch(() => null);
  await fd?.sync().catch(() => undefined);
  await fd?.close();
}

/** A snapshot read back: when it was taken and each collection's documents, in their BSON types. */
export interface Snapshot {
  at: Date;
  collections: Map<string, Doc[]>;
  bytes: number;
}

/**
 * Reads and checks a snapshot: SnapshotUnreadable, naming the file and what is wrong, when it is
 * cut short, changed, or not a snapshot. Null when there is none.
 */
export async function readSnapshot(file: string): Promise<Snapshot | null> {
  const raw = await fs.promises.readFile(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (!raw) return null;
  const refuse = (why: string) => new SnapshotUnreadable(`${file} ${why}`);
  if (raw.length === 0 || raw[raw.length - 1] !== 0x0a) throw refuse('was cut short (its last line is incomplete)');
  const lastStart = raw.lastIndexOf(0x0a, raw.length - 2) + 1;
  let end: unknown;
  try {
    end = JSON.parse(raw.subarray(lastStart).toString('utf8'));
  } catch {
    end = null;
  }
  if (!Array.isArray(end) || end[0] !== 'end' || typeof end[2] !== 'string') throw refuse('was cut short (it has no end line)');
  const body = raw.subarray(0, lastStart);
  if (crypto.createHash('sha256').update(body).digest('hex') !== end[2]) throw refuse('does not match its checksum (changed or damaged after it was written)');
  const lines = body.toString('utf8').split('\n');
  lines.pop();
  let head: unknown;
  try {
    head = JSON.parse(lines[0]);
  } catch {
    head = null;
  }
  if (!Array.isArray(head) || head[0] !== FORMAT) throw refuse('is not a LiveDash snapshot');
  if (head[1] !== VERSION) throw refuse(`is a snapshot of format ${String(head[1])}, which this version does not read`);
  const collections = new Map<string, Doc[]>();
  let current: Doc[] | null = null;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith('[')) {
      const [kind, name] = JSON.parse(l) as [string, string];
      if (kind !== 'collection') throw refuse(`has an unknown line ${i + 1}`);
      current = [];
      collections.set(name, current);
    } else if (current) {
      current.push(EJSON.parse(l, { relaxed: false }) as Doc);
    } else {
      throw refuse(`has a document before its first collection (line ${i + 1})`);
    }
  }
  const counts = end[1] as Record<string, number>;
  for (const [name, docs] of collections) {
    if (counts[name] !== docs.length) throw refuse(`holds ${docs.length} documents of ${name} where its end line says ${counts[name]}`);
  }
  if (Object.keys(counts).length !== collections.size) throw refuse('lacks collections its end line names');
  return { at: new Date(String(head[2])), collections, bytes: raw.length };
}
