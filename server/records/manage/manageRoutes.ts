import { about } from '../../core';
import type Router from '@koa/router';
import { DeleteRecordsRequest, ReplaceRecordsQuery } from '@common/schemas/records/sourceRecords';
import type { AppContext } from '../../core';
import type { IngestState } from '../../access';
import type { ParsedRecords } from '../ingest/parseRecords';
import { recordsBody } from '../ingest/recordsBody';
import { validate } from '../../core';
import { deleteMatching, deleteRecord, managedSource, replaceAllRecords } from './manageRecords';
import { resourceRouter } from '../../access';

/**
 * Record management of one data source (`:sourceId` is its sourceId or id): the admin token or that
 * source's ingest key. Every change is journalled and pushed live like an ingest.
 */
export function manageRecordsRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const who = (ctx: { state: unknown }) => (ctx.state as IngestState).ingestCredential;

  router.delete('/data/sources/:sourceId/records/:key', auth.ingest(), about({ summary: 'Delete one record by its primary-key value (or record id of an append-only source)', answer: '{deleted}' }), validate({}, async (ctx) => {
    const ds = await managedSource(app, who(ctx), ctx.params.sourceId);
    ctx.body = await deleteRecord(app, who(ctx), ds, ctx.params.key);
  }));

  router.post('/data/sources/:sourceId/records/delete', auth.ingest(), about({ summary: 'Delete the records matching a filter; dryRun: true only counts them', answer: '{matched, deleted}' }), adminJson(), validate({ body: DeleteRecordsRequest }, async (ctx, { body }) => {
    const ds = await managedSource(app, who(ctx), ctx.params.sourceId);
    ctx.body = await deleteMatching(app, who(ctx), ds, body);
  }));

  // Every body shape of the source's URL (JSON object or array, NDJSON, CSV; gzip/br), read by the same parser.
  router.put('/data/sources/:sourceId/records', auth.ingest(), about({ summary: 'Replace all of a source\'s records at once', answer: 'Ingest report', body: 'Same shapes as POST' }), recordsBody({ limit: app.config.INGEST_MAX_BYTES, maxRecords: app.config.INGEST_MAX_RECORDS, timeoutSeconds: app.config.INGEST_BODY_TIMEOUT_SECONDS, wholeSet: true }), validate({ query: ReplaceRecordsQuery }, async (ctx, { query }) => {
    const ds = await managedSource(app, who(ctx), ctx.params.sourceId);
    ctx.body = await replaceAllRecords(app, who(ctx), ds, ctx.request.body as ParsedRecords, query.primaryKey);
  }));

  return router;
}
