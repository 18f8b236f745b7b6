import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { ErrorCode, MAX_JSON_DEPTH } from '@common/schemas/errors';
import { ApiError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body, set by `jsonBody()` on the routes that take one. */
    body?: unknown;
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

function decoded(req: IncomingMessage): Readable {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  switch (encoding) {
    case 'identity':
      return req;
    case 'gzip':
    case 'x-gzip':
      return req.pipe(zlib.createGunzip());
    case 'deflate':
      return req.pipe(zlib.createInflate());
    case 'br':
      return req.pipe(zlib.createBrotliDecompress());
    default:
      throw new ApiError(415, ErrorCode.unsupportedMediaType, `Unsupported Content-Encoding "${encoding}": send identity, gzip, deflate or br`);
  }
}

/** The deepest nesting of objects and arrays in JSON text (strings skipped), stopping past `limit`. */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** Turns the text of a JSON body into a value, or a 400 that says what is wrong with it. */
export function parseJsonText(text: string): unknown {
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ApiError(400, ErrorCode.jsonTooDeep, `The JSON body is nested deeper than the limit of ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    const where = e instanceof SyntaxError ? ` (${e.message.replace(/^JSON\.parse: /, '')})` : '';
    throw new ApiError(400, ErrorCode.malformedJson, `Request body is not valid JSON${where}`);
  }
}

/**
 * Reads a body of at most `limit` bytes (after decompression) as text. A middleware placed after
 * a route's guard calls it, so nothing is read for callers the route refuses. `timeoutSeconds`:
 * a body still arriving after that long answers 408 (a sender trickling bytes holds a connection
 * and its buffers for as long as it likes otherwise); the connection is then closed.
 */
export async function readBodyText(ctx: Context, limit: number, timeoutSeconds?: number): Promise<string> {
  const req = ctx.req;
  const stream = decoded(req);
  const identity = stream === req;
  let timer: NodeJS.Timeout | undefined;
  try {
    const reading = getRawBody(stream, { limit, encoding: 'utf8', length: identity ? req.headers['content-length'] : undefined });
    if (!timeoutSeconds) return await reading;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // What arrives later is not read: the answer closes the connection.
        reading.catch(() => undefined);
        stream.pause();
        reject(new ApiError(408, ErrorCode.bodyTimeout, `The request body did not arrive within ${timeoutSeconds} s: send it in one go, or in smaller requests`));
      }, timeoutSeconds * 1000);
    });
    return await Promise.race([reading, timedOut]);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const err = e as { type?: string; code?: string; status?: number };
    if (err.type === 'entity.too.large') throw PayloadTooLargeError(`Request body is larger than the limit of ${formatBytes(limit)}`);
    if (!identity && !err.type) {
      throw new ApiError(400, ErrorCode.badContentEncoding, `The body is not valid ${req.headers['content-encoding']} data, as its Content-Encoding says`);
    }
    if (err.type === 'request.size.invalid') throw new ApiError(400, ErrorCode.malformedJson, 'The body is shorter or longer than its Content-Length');
    if (err.type === 'request.aborted') throw new ApiError(400, ErrorCode.malformedJson, 'The request was aborted before its body was complete');
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** The request body as a stream, decompressed by its Content-Encoding (an upload streamed to a file). */
export const decodedBody = (ctx: Context): Readable => decoded(ctx.req);

/** Whether a request carries a body at all. */
export const requestHasBody = (ctx: Context) => hasBody(ctx.req);

/**
 * Reads a JSON body of at most `limit` bytes (after decompression) into `ctx.request.body`. It is
 * placed after a route's guard, so nothing is read for callers the route refuses. Keys such as
 * `__proto__` stay ordinary own properties (plain JSON.parse); services reject them where they matter.
 * `parse`: another reader of the text (large ingest bodies are read in slices); `timeoutSeconds` as readBodyText.
 */
export function jsonBody(opts: { limit: number; timeoutSeconds?: number; parse?: (text: string) => Promise<unknown> }): Middleware {
  return async (ctx: Context, next) => {
    if (!hasBody(ctx.req)) return next();
    if (!ctx.is('application/json', '+json')) throw UnsupportedMediaTypeError();
    const text = await readBodyText(ctx, opts.limit, opts.timeoutSeconds);
    ctx.request.body = opts.parse ? await opts.parse(text) : parseJsonText(text);
    return next();
  };
}
