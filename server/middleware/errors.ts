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
      const err = toApiError(raw);
      if (err.status >= 500) log.error(`${ctx.method} ${ctx.path} failed`, raw);
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
