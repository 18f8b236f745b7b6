import type { Context, Next } from 'koa';
import { ErrorCode } from '@common/schemas/errors';
import { ApiError } from '../errors';
import type { Logger } from '../log';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** Connection errors a client causes by hanging up, timing out or aborting an upload. */
const CLIENT_CONNECTION_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ECANCELED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_HTTP_REQUEST_TIMEOUT']);
/** A client hanging up while its answer is sent: routine, not worth a line at info. */
const HANG_UPS = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Whether an error is the client's doing, not the server's: malformed HTTP (Node's parser codes
 * HPE_*), a connection reset or aborted, a stalled upload timed out, a body cut short (raw-body's
 * `request.aborted`). Matched by code and type, never by message.
 */
export function isClientFault(e: unknown): boolean {
  const { code, type } = (e ?? {}) as { code?: unknown; type?: unknown };
  return (typeof code === 'string' && (code.startsWith('HPE_') || CLIENT_CONNECTION_CODES.has(code))) || type === 'request.aborted';
}

/** One line about a client's fault (its code and Node's message; no stack). */
const clientFaultLine = (e: unknown) => {
  const { code, message } = e as { code?: string; message?: string };
  return `client connection error (${code ?? 'request aborted'}): ${message ?? ''}`;
};

/**
 * Koa's `error` listener: a client's fault is one line at info (hang-ups at debug), without a
 * stack; anything else is the server's and is logged as an error with its stack.
 */
export function logKoaError(log: Logger) {
  return (e: Error & { code?: string }) => {
    if (!isClientFault(e)) return log.error('unhandled Koa error', e);
    if (e.code && HANG_UPS.has(e.code)) log.debug(clientFaultLine(e));
    else log.info(clientFaultLine(e));
  };
}

/**
 * Turns every thrown error into the one JSON error shape; never leaks a stack trace. When a request
 * is refused before its body was read (401, 404, 405, 413, 429…), the connection is closed after the
 * answer instead of draining an upload nobody will read.
 */
export function errorHandler(log: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (raw) {
      const clientFault = isClientFault(raw);
      const err = clientFault ? new ApiError(400, ErrorCode.validationFailed, 'The request was aborted or malformed') : toApiError(raw);
      if (clientFault) log.info(`${ctx.method} ${ctx.path}: ${clientFaultLine(raw)}`);
      else if (err.status >= 500) log.error(`${ctx.method} ${ctx.path} failed`, raw);
      ctx.status = err.status;
      for (const [k, v] of Object.entries(err.headers ?? {})) ctx.set(k, v);
      ctx.body = err.toBody();
    }
    if (ctx.status >= 400 && !ctx.req.readableEnded && hasUnreadBody(ctx)) ctx.set('Connection', 'close');
  };
}

const hasUnreadBody = (ctx: Context) => ctx.req.headers['transfer-encoding'] !== undefined || Number(ctx.req.headers['content-length'] ?? 0) > 0;

function toApiError(raw: unknown): ApiError {
  if (raw instanceof ApiError) return raw;
  const e = (raw ?? {}) as HttpLikeError;
  const status = e.status ?? e.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, ErrorCode.validationFailed, e.expose && e.message ? e.message : 'The request could not be understood');
  return new ApiError(500, ErrorCode.internalError, 'Something went wrong on the server; the error was logged');
}
