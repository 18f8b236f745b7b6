import type Router from '@koa/router';
import { SourceRecordsQuery } from '@common/schemas/ingest';
import type { AppContext } from '../../context';
import type { IngestState } from '../../middleware/guards';
import type { ParsedRecords } from '../../middleware/parseRecords';
import { recordsBody } from '../../middleware/recordsBody';
import { validate } from '../../middleware/validate';
import { ingestIntoSource } from '../../services/ingestRecords';
import { resourceRouter } from '../router';

/**
 * POST /api/data/sources/:sourceId/records: a source's own URL. The admin token or the source's
 * ingest key (header, or `?key=`); a JSON object, a JSON array, NDJSON or CSV body.
 */
export function sourceRecordsRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  router.post(
    '/data/sources/:sourceId/records',
    auth.ingest({ queryKey: true }),
    recordsBody({ limit: app.config.INGEST_MAX_BYTES, maxRecords: app.config.INGEST_MAX_RECORDS }),
    validate({ query: SourceRecordsQuery }, async (ctx, { query }) => {
      const { ingestCredential } = ctx.state as IngestState;
      ctx.body = await ingestIntoSource(app, ingestCredential, ctx.params.sourceId, ctx.request.body as ParsedRecords, query);
    }),
  );
  return router;
}
