import { about, activity } from '../core';
import type Router from '@koa/router';
import { UpdateEmbedding } from '@common/schemas/sharing/embedding';
import type { AppContext } from '../core';
import { askerOfRequest, principalOf, requireDashboardUse, resourceRouter } from '../access';
import { validate, canonicalParams } from '../core';
import { ObjectIdParam } from '@common/ids';
import { getEmbedding, setEmbedding } from './embedding';
import { createEmbedSecret, madeBy } from './signedEmbedding/secrets';

/** A dashboard's allowed embedding origins (frame-ancestors of its viewer pages) and its embedding secret (signed embed tokens). */
export function embeddingRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dashboardId = canonicalParams({ id: ObjectIdParam }, 'Dashboard');
  router.get('/admin/dashboards/:id/embedding', auth.editor(), about({ summary: 'The origins allowed to embed a dashboard, and whether it has an embedding secret (when made, by whom; never the secret)', answer: '{dashboardId, origins, secret}' }), dashboardId, async (ctx) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.body = await getEmbedding(app, ctx.params.id);
  });
  router.put('/admin/dashboards/:id/embedding', auth.editor(), about({ summary: 'Set the origins allowed to embed a dashboard', answer: '{dashboardId, origins, secret}', activity: activity('dashboard.embeddingChanged', 'dashboard', 'changed the embedding origins of dashboard', 'param:id') }), dashboardId, adminJson(), validate({ body: UpdateEmbedding }, async (ctx, { body }) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.body = await setEmbedding(app, ctx.params.id, body.origins);
  }));
  // Logged by the service (created or rotated, who and when; never the secret): no route activity.
  router.post('/admin/dashboards/:id/embedding/secret', auth.editor(), about({ summary: 'Create or rotate a dashboard\'s embedding secret (the HS256 key of its signed embed tokens): the answer holds it once; tokens signed with the old one stop at once', answer: '{embedding, secret}' }), dashboardId, async (ctx) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await createEmbedSecret(app, ctx.params.id, madeBy(principalOf(ctx)));
  });
  return router;
}
