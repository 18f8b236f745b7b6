import { about } from '../../core';
import type Router from '@koa/router';
import { IngestQuery } from '@common/schemas/records/ingest';
import type { AppContext } from '../../core';
import { jsonBody, validate, parseJsonInSlices } from '../../core';
import type { IngestState } from '../../access';
import { idempotent, type IdempotencyState } from './idempotency';
import { ingestRecords, tooManyRecords } from './ingestRecords';
import { resourceRouter } from '../../access';

/** POST /api/data/ingest: the admin token or the target source's ingest key; bodies up to INGEST_MAX_BYTES; an optional Idempotency-Key. */
export function ingestRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  const max = app.config.INGEST_MAX_RECORDS;
  // Large bodies are read record by record; a records array over the limit is refused unread.
  const parse = (text: string) => parseJsonInSlices(text, { max, tooMany: (n) => tooManyRecords(n, max) });
  router.post('/data/ingest', auth.ingest(), about({ summary: 'Ingest records in any of the four formats (standard, Zendesk, generic, direct array); ?primaryKey= names the key field; an Idempotency-Key header makes a retry answer the first result (24 h)', answer: 'Ingest report {success, format, received, inserted, updated, rejected, rejections, sources}', body: 'JSON: {sourceId, primaryKey?, records:[…]} | {sourceId, results:[…]} | {sourceId, data:[…]} | [{sourceId, …}, …]', activity: 'ingest' }), jsonBody({ limit: app.config.INGEST_MAX_BYTES, timeoutSeconds: app.config.INGEST_BODY_TIMEOUT_SECONDS, parse }), idempotent(app), validate({ query: IngestQuery }, async (ctx, { query }) => {
    const { ingestCredential, idempotencyScope } = ctx.state as IngestState & IdempotencyState;
    ctx.body = await ingestRecords(app, ctx.request.body, ingestCredential, query, idempotencyScope);
  }));
  return router;
}
