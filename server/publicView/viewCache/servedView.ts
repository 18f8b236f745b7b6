import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type Encoding = 'gzip' | 'br';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * One serialized public view: its body, its ETag (a hash of the body, so every process that holds
 * the same view gives the same validator) and its compressed forms, each computed once, lazily.
 */
export class ServedView {
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();
  private readonly ready = new Map<Encoding, Buffer>();
  private encodedBytes = 0;

  constructor(
    readonly body: Buffer,
    readonly revision: number,
    readonly dataSourceId: string | null,
  ) {
    this.etag = `W/"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
  }

  static fromText(text: string, revision: number, dataSourceId: string | null): ServedView {
    return new ServedView(Buffer.from(text, 'utf8'), revision, dataSourceId);
  }

  /** The body compressed with `encoding` (gzip level 6, brotli quality 5: fast enough per revision). */
  compressed(encoding: Encoding): Promise<Buffer> {
    let done = this.encoded.get(encoding);
    if (!done) {
      done =
        encoding === 'gzip'
          ? gzip(this.body, { level: 6 })
          : brotli(this.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.body.length } });
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
  compressedNow(encoding: Encoding): Buffer | null {
    return this.ready.get(encoding) ?? null;
  }

  get bytes(): number {
    return this.body.length + this.encodedBytes;
  }
}
