import type { Context, Middleware } from 'koa';
import { ErrorCode } from '@common/schemas/errors';
import { ApiError, BadRequestError, readBodyText, requestHasBody } from '../../core';
import { parseRecords, type ParseRecordsOptions, type RecordsBodyType } from './parseRecords';

const ACCEPTED = 'application/json (one record or an array), application/x-ndjson (also application/jsonl, application/ndjson: one record a line) or text/csv (a header row)';

/** The kind of records body a Content-Type announces, or null. */
function bodyType(ctx: Context): RecordsBodyType | null {
  if (ctx.is('application/json', '+json')) return 'json';
  if (ctx.is('application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines')) return 'ndjson';
  if (ctx.is('text/csv')) return 'csv';
  return null;
}

/**
 * Reads the body of a source's URL (after its guard) into `ctx.request.body` as ParsedRecords:
 * the limits of ingest apply (bytes after decompression, records per request, the body timeout). `wholeSet`: the
 * body is the source's whole new set (PUT), which may be empty (`[]`, a CSV header alone).
 */
export function recordsBody(opts: { limit: number; maxRecords: number; timeoutSeconds: number } & ParseRecordsOptions): Middleware {
  return async (ctx, next) => {
    if (!requestHasBody(ctx)) throw BadRequestError('no_records', `The request has no body: send records as ${ACCEPTED}`);
    const type = bodyType(ctx);
    if (!type) throw new ApiError(415, ErrorCode.unsupportedMediaType, `Unsupported Content-Type "${ctx.get('content-type') || 'none'}": send ${ACCEPTED}`);
    ctx.request.body = await parseRecords(await readBodyText(ctx, opts.limit, opts.timeoutSeconds), type, opts.maxRecords, { wholeSet: opts.wholeSet });
    return next();
  };
}
