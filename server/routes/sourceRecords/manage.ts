import type Router from '@koa/router';
import { DeleteRecordsRequest, ReplaceRecordsBody, ReplaceRecordsQuery } from '@common/schemas/sourceRecords';
import type { AppContext } from '../../context';
import { jsonBody } from '../../middleware/body';
import type { IngestState } from '../../middleware/guards';
import { validate } from '../../middleware/validate';
import { deleteMatching, deleteRecord, managedSource, replaceAllRecords } from '../../services/manageRecords';
import { resourceRouter } from '../router';

/**
 * Record management of one data source (`:sourceId` is its sourceId or id): the admin token or that
 * source's ingest key. Every change is journalled and pushed live like an ingest.
 */
export function manageRecordsRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const who = (ctx: { state: unknown }) => (ctx.state as IngestState).ingestCredential;

  router.delete('/data/sources/:sourceId/records/:key', auth.ingest(), validate({}, async (ctx) => {
    const ds = await managedSource(app, who(ctx), ctx.params.sourceId);
    ctx.body = await deleteRecord(app, who(ctx), ds, ctx.params.key);
  }));

  router.post('/data/sources/:sourceId/records/delete', auth.ingest(), adminJson(), validate({ body: DeleteRecordsRequest }, async (ctx, { body }) => {
    const ds = await managedSource(app, who(ctx), ctx.params.sourceId);
    ctx.body = await deleteMatching(app, who(ctx), ds, body);
  }));

  // JSON array only for now (the source URL's NDJSON/CSV parser is another change).
  router.put('/data/sources/:sourceId/records', auth.ingest(), jsonBody({ limit: app.config.INGEST_MAX_BYTES }), validate({ body: ReplaceRecordsBody, query: ReplaceRecordsQuery }, async (ctx, { body, query }) => {
    const ds = await managedSource(app, who(ctx), ctx.params.sourceId);
    ctx.body = await replaceAllRecords(app, who(ctx), ds, body, query.primaryKey);
  }));

  return router;
}
