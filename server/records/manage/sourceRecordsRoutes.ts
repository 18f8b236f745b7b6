import { about } from '../../core';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { SourceRecordsQuery, type IngestResult } from '@common/schemas/records/ingest';
import type { AppContext } from '../../core';
import type { IngestState } from '../../access';
import { idempotent, type IdempotencyState } from '../ingest/idempotency';
import type { ParsedRecords } from '../ingest/parseRecords';
import { recordsBody } from '../ingest/recordsBody';
import { validate } from '../../core';
import { ingestIntoSource } from '../ingest/ingestRecords';
import { resourceRouter } from '../../access';

/** The query parameters the source URL reads (the guard reads `key`). */
const KNOWN_PARAMS = Object.keys(SourceRecordsQuery.shape);

/**
 * Sets aside the query parameters the source URL does not read — webhook senders append their own
 * (`?timestamp=…&signature=…`) — so they are ignored instead of refused; the known ones are still
 * validated. Their names reach the answer's `warnings`.
 */
function ignoreUnknownParams(): Middleware {
  return (ctx, next) => {
    const unknown = Object.keys(ctx.query).filter((k) => !KNOWN_PARAMS.includes(k));
    if (unknown.length) {
      ctx.query = Object.fromEntries(Object.entries(ctx.query).filter(([k]) => KNOWN_PARAMS.includes(k)));
      (ctx.state as IgnoredParamsState).ignoredParams = unknown;
    }
    return next();
  };
}
interface IgnoredParamsState {
  ignoredParams?: string[];
}

/** The answer with a warning about the request itself (index -1) naming the parameters it ignored. */
function withIgnoredParams(result: IngestResult, ignored: string[] | undefined): IngestResult {
  if (!ignored?.length) return result;
  const names = ignored.map((k) => JSON.stringify(k)).join(', ');
  const message = `ignored query parameter${ignored.length > 1 ? 's' : ''} ${names}: this URL reads only ${KNOWN_PARAMS.join(', ')}`;
  return { ...result, warnings: [{ index: -1, message }, ...result.warnings] };
}

/**
 * POST /api/data/sources/:sourceId/records: a source's own URL. The admin token or the source's
 * ingest key (header, or `?key=`); a JSON object, a JSON array, NDJSON or CSV body. Query
 * parameters it does not read are ignored and named in `warnings`.
 */
export function sourceRecordsRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  router.post(
    '/data/sources/:sourceId/records',
    auth.ingest({ queryKey: true }), about({ summary: 'A source\'s own URL: one JSON object, a JSON array, NDJSON or CSV; key in the Authorization header or ?key=; mode=merge|replace; Idempotency-Key as on /api/data/ingest', answer: 'Ingest report plus warnings', body: 'application/json (an object or an array of objects), application/x-ndjson, text/csv (header row)', activity: 'ingest' }),
    recordsBody({ limit: app.config.INGEST_MAX_BYTES, maxRecords: app.config.INGEST_MAX_RECORDS, timeoutSeconds: app.config.INGEST_BODY_TIMEOUT_SECONDS }),
    ignoreUnknownParams(),
    // After ignoreUnknownParams: a webhook's own changing parameters (timestamp, signature) do not make a retry "another request".
    idempotent(app),
    validate({ query: SourceRecordsQuery }, async (ctx, { query }) => {
      const { ingestCredential, ignoredParams, idempotencyScope } = ctx.state as IngestState & IgnoredParamsState & IdempotencyState;
      const result = await ingestIntoSource(app, ingestCredential, ctx.params.sourceId, ctx.request.body as ParsedRecords, query, idempotencyScope);
      ctx.body = withIgnoredParams(result, ignoredParams);
    }),
  );
  return router;
}
