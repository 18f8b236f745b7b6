import { about } from './core';
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext } from './core';
import { ApiError, openApiDocument } from './core';
import { dashboardsRouter, dashboardVersionsRouter } from './dashboards';
import { dataSourcesRouter } from './dataSources';
import { healthRouter, engineRouter } from './operations';
import { ingestRouter, sourceRecordsRouter, manageRecordsRouter } from './records';
import { publicDashboardsRouter, analyticsRouter } from './publicView';
import { shareLinksRouter, embeddingRouter, embedRouter } from './sharing';
import { activityRouter } from './activity';
import { resourceRouter, authRouter, usersRouter } from './access';
import { importsRouter } from './imports';
import { settingsRouter } from './settings';

/** Every REST route under /api, each resource router declaring its own routes' audiences. */
export function buildApiRouter(app: AppContext, extra: Router[]): Router {
  const api = new Router({ prefix: '/api', sensitive: true, strict: true });
  for (const r of [healthRouter(app), dataSourcesRouter(app), ingestRouter(app), sourceRecordsRouter(app), manageRecordsRouter(app), dashboardsRouter(app), dashboardVersionsRouter(app), publicDashboardsRouter(app), shareLinksRouter(app), activityRouter(app), analyticsRouter(app), embeddingRouter(app), embedRouter(app), engineRouter(app), authRouter(app), usersRouter(app), importsRouter(app), settingsRouter(app), openApiRouter(app, () => api), ...extra]) {
    api.use(r.routes());
  }
  return api;
}

const isApiPath = (p: string) => p === '/api' || p.startsWith('/api/');

/**
 * Mounts the API: unknown paths answer a JSON 404 and a wrong method on a known path a JSON 405
 * with `Allow` — both before any guard or body parser runs.
 */
export function mountApi(api: Router): Middleware[] {
  const shapeMisses = async (ctx: Context, next: Next) => {
    await next();
    if (!isApiPath(ctx.path) || ctx.body != null) return;
    if (ctx.status === 405 || ctx.status === 501) {
      const allow = ctx.response.get('Allow');
      const err = new ApiError(405, ErrorCode.methodNotAllowed, `${ctx.method} is not allowed on ${ctx.path}; use ${allow || 'another method'}`, undefined, { Allow: allow });
      ctx.status = 405;
      ctx.body = err.toBody();
    } else if (ctx.status === 404) {
      ctx.body = new ApiError(404, ErrorCode.notFound, `No API endpoint ${ctx.method} ${ctx.path}`).toBody();
      ctx.status = 404; // setting a body made it 200
    }
  };
  return [shapeMisses, api.routes() as Middleware, api.allowedMethods() as Middleware];
}

/** GET /api/openapi.json: public (it lists routes and shapes, never a secret); built once, when first asked, from the whole API router. */
export function openApiRouter(app: AppContext, api: () => Router): Router {
  const { router, auth } = resourceRouter(app);
  let doc: ReturnType<typeof openApiDocument> | null = null;
  router.get('/openapi.json', auth.public(), about({ summary: 'This API as an OpenAPI 3.1 document, generated from the routes', answer: 'OpenAPI 3.1 document' }), async (ctx) => {
    doc ??= openApiDocument(api(), app.config.PUBLIC_URL);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = doc;
  });
  return router;
}
