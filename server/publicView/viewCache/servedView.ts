import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Slicer } from '../../core';

export type Encoding = 'gzip' | 'br';

/** A body as it goes out: its pieces, written one after another (never joined: a 20 MB copy is one long turn). */
export interface BodyPieces {
  pieces: readonly Buffer[];
  length: number;
}

const lengthOf = (pieces: readonly Buffer[]) => pieces.reduce((n, p) => n + p.length, 0);

/** Compresses pieces through a zlib stream (the work runs on libuv's threads, a piece at a time). */
function compress(pieces: readonly Buffer[], encoding: Encoding, size: number): Promise<BodyPieces> {
  const z = encoding === 'gzip' ? zlib.createGzip({ level: 6 }) : zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } });
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    z.on('data', (b: Buffer) => out.push(b));
    z.on('end', () => resolve({ pieces: out, length: lengthOf(out) }));
    z.on('error', reject);
    Readable.from(pieces).pipe(z);
  });
}

/**
 * One serialized public view: its body (in pieces), its ETag (a hash of the body, so every process
 * that holds the same view gives the same validator) and its compressed forms, each computed once,
 * lazily.
 */
export class ServedView implements BodyPieces {
  readonly etag: string;
  readonly pieces: readonly Buffer[];
  readonly length: number;
  private readonly encoded = new Map<Encoding, Promise<BodyPieces>>();
  private readonly ready = new Map<Encoding, BodyPieces>();
  private encodedBytes = 0;

  constructor(
    body: Buffer | readonly Buffer[],
    readonly revision: number,
    readonly dataSourceId: string | null,
    /** The body's hash when it was computed already (fromPieces). */
    digest?: string,
  ) {
    this.pieces = Buffer.isBuffer(body) ? [body] : body;
    this.length = lengthOf(this.pieces);
    if (!digest) {
      const hash = crypto.createHash('sha1');
      for (const p of this.pieces) hash.update(p);
      digest = hash.digest('base64url');
    }
    this.etag = `W/"${digest}"`;
  }

  static fromText(text: string, revision: number, dataSourceId: string | null): ServedView {
    return new ServedView(Buffer.from(text, 'utf8'), revision, dataSourceId);
  }

  /**
   * A body made of pieces (a large source's records come in many), hashed as they come, giving the
   * loop a turn between pieces: a 20 MB body is never one long turn of encoding, hashing or copying.
   * The same bytes, and so the same ETag, as `fromText` of their text.
   */
  static async fromPieces(pieces: Iterable<Buffer | string> | AsyncIterable<Buffer | string>, revision: number, dataSourceId: string | null, slicer = new Slicer()): Promise<ServedView> {
    const hash = crypto.createHash('sha1');
    const buffers: Buffer[] = [];
    for await (const piece of pieces) {
      const b = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
      if (!b.length) continue;
      hash.update(b);
      buffers.push(b);
      await slicer.tick();
    }
    return new ServedView(buffers, revision, dataSourceId, hash.digest('base64url'));
  }

  /** The whole body as one Buffer (small bodies, tests): a copy. */
  get body(): Buffer {
    return this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces as Buffer[]);
  }

  /** The body compressed with `encoding` (gzip level 6, brotli quality 5: fast enough per revision). */
  compressed(encoding: Encoding): Promise<BodyPieces> {
    let done = this.encoded.get(encoding);
    if (!done) {
      done = compress(this.pieces, encoding, this.length);
      done
        .then((b) => {
          this.encodedBytes += b.length;
          this.ready.set(encoding, b);
        })
        .catch(() => this.encoded.delete(encoding));
      this.encoded.set(encoding, done);
    }
    return done;
  }

  /** The compressed body if it is already computed (no waiting), else null. */
  compressedNow(encoding: Encoding): BodyPieces | null {
    return this.ready.get(encoding) ?? null;
  }

  get bytes(): number {
    return this.length + this.encodedBytes;
  }
}
