import Router from '@koa/router';
import { IngestQuery } from '@common/schemas/ingest';
import type { AppContext } from '../../context';
import { ApiError, UnauthorizedError } from '../../errors';
import { bearerToken, isAdminToken } from '../../middleware/auth';
import { parse } from '../../middleware/validate';
import { ingestRecords } from '../../services/ingestRecords';

/** POST /api/data/ingest: the admin token or the target source's ingest key. */
export function ingestRouter(app: AppContext): Router {
  const router = new Router();
  router.post('/data/ingest', async (ctx) => {
    const credential = bearerToken(ctx) ?? (ctx.get('x-ingest-key') || null);
    if (!credential) throw UnauthorizedError('Ingest needs a credential: send Authorization: Bearer <admin token or the data source\'s ingest key>');
    if (!ctx.is('application/json')) throw new ApiError(415, 'unsupported_media_type', 'Send the records as JSON with Content-Type: application/json');
    const query = parse(IngestQuery, ctx.query);
    const who = isAdminToken(credential, app.adminToken) ? ({ admin: true } as const) : ({ admin: false, credential } as const);
    ctx.body = await ingestRecords(app, ctx.request.body, who, query.primaryKey);
  });
  return router;
}
