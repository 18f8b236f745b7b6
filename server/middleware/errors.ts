import type { Context, Next } from 'koa';
import { ApiError } from '../errors';
import type { Logger } from '../log';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

/** Turns every thrown error into the one JSON error shape; never leaks a stack trace. */
export function errorHandler(log: Logger, maxBodyBytes: number) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (raw) {
      const err = toApiError(raw, maxBodyBytes);
      if (err.status >= 500) log.error(`${ctx.method} ${ctx.path} failed`, raw);
      ctx.status = err.status;
      ctx.body = err.toBody();
    }
  };
}

function toApiError(raw: unknown, maxBodyBytes: number): ApiError {
  if (raw instanceof ApiError) return raw;
  const e = (raw ?? {}) as HttpLikeError;
  const status = e.status ?? e.statusCode ?? 500;
  if (status === 413 || e.type === 'entity.too.large') {
    return new ApiError(413, 'payload_too_large', `Request body is larger than the limit of ${formatBytes(maxBodyBytes)}`);
  }
  if (status === 400 && (e.type === 'entity.parse.failed' || /JSON|Unexpected token|invalid json/i.test(e.message ?? ''))) {
    return new ApiError(400, 'malformed_json', 'Request body is not valid JSON');
  }
  if (status === 415) return new ApiError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json');
  if (status >= 400 && status < 500) return new ApiError(status, 'bad_request', e.expose && e.message ? e.message : 'Bad request');
  return new ApiError(500, 'internal_error', 'Something went wrong on the server; the error was logged');
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
