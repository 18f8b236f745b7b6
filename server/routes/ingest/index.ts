import type Router from '@koa/router';
import { IngestQuery } from '@common/schemas/ingest';
import type { AppContext } from '../../context';
import { jsonBody } from '../../middleware/body';
import type { IngestState } from '../../middleware/guards';
import { idempotent, type IdempotencyState } from '../../middleware/idempotency';
import { validate } from '../../middleware/validate';
import { ingestRecords } from '../../services/ingestRecords';
import { resourceRouter } from '../router';

/** POST /api/data/ingest: the admin token or the target source's ingest key; bodies up to INGEST_MAX_BYTES; an optional Idempotency-Key. */
export function ingestRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  router.post('/data/ingest', auth.ingest(), jsonBody({ limit: app.config.INGEST_MAX_BYTES }), idempotent(app), validate({ query: IngestQuery }, async (ctx, { query }) => {
    const { ingestCredential, idempotencyScope } = ctx.state as IngestState & IdempotencyState;
    ctx.body = await ingestRecords(app, ctx.request.body, ingestCredential, query, idempotencyScope);
  }));
  return router;
}
