import { about, activity } from '../core';
import type Router from '@koa/router';
import { UpdateEmbedding } from '@common/schemas/embedding';
import type { AppContext } from '../core';
import { askerOfRequest, requireDashboardUse, resourceRouter } from '../access';
import { validate, canonicalParams } from '../core';
import { ObjectIdParam } from '@common/ids';
import { getEmbedding, setEmbedding } from './embedding';

/** A dashboard's allowed embedding origins (frame-ancestors of its viewer pages). */
export function embeddingRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dashboardId = canonicalParams({ id: ObjectIdParam }, 'Dashboard');
  router.get('/admin/dashboards/:id/embedding', auth.editor(), about({ summary: 'The origins allowed to embed a dashboard', answer: '{dashboardId, origins}' }), dashboardId, async (ctx) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.body = await getEmbedding(app, ctx.params.id);
  });
  router.put('/admin/dashboards/:id/embedding', auth.editor(), about({ summary: 'Set the origins allowed to embed a dashboard', answer: '{dashboardId, origins}', activity: activity('dashboard.embeddingChanged', 'dashboard', 'changed the embedding origins of dashboard', 'param:id') }), dashboardId, adminJson(), validate({ body: UpdateEmbedding }, async (ctx, { body }) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.body = await setEmbedding(app, ctx.params.id, body.origins);
  }));
  return router;
}
