import type Router from '@koa/router';
import { CreateDashboard, UpdateDashboard } from '@common/schemas/dashboard';
import type { AppContext } from '../../context';
import { checkDashboardLimit, dashboardLimit, refuseLimited } from '../../middleware/guards';
import { validate } from '../../middleware/validate';
import { canonicalParams } from '../../middleware/params';
import { ObjectIdParam } from '@common/ids';
import { createDashboard, deleteDashboard, getDashboard, listDashboards, updateDashboard } from '../../services/dashboards';
import { resourceRouter } from '../router';

/** Dashboard management under /api/admin/dashboards (drafts included): viewers read, editors change; a limited person only their chosen dashboards. */
export function dashboardsRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dashboardId = canonicalParams({ id: ObjectIdParam }, 'Dashboard');
  router.get('/admin/dashboards', auth.viewer(), async (ctx) => {
    const limit = dashboardLimit(ctx);
    const all = await listDashboards(app);
    ctx.body = limit ? all.filter((d) => limit.has(d.id)) : all;
  });
  router.get('/admin/dashboards/:id', auth.viewer(), dashboardId, async (ctx) => {
    checkDashboardLimit(ctx, ctx.params.id);
    ctx.body = await getDashboard(app, ctx.params.id);
  });
  router.post('/admin/dashboards', auth.editor(), adminJson(), validate({ body: CreateDashboard }, async (ctx, { body }) => {
    refuseLimited(ctx, 'create dashboards');
    ctx.status = 201;
    ctx.body = await createDashboard(app, body);
  }));
  router.patch('/admin/dashboards/:id', auth.editor(), dashboardId, adminJson(), validate({ body: UpdateDashboard }, async (ctx, { body }) => {
    checkDashboardLimit(ctx, ctx.params.id);
    ctx.body = await updateDashboard(app, ctx.params.id, body);
  }));
  router.delete('/admin/dashboards/:id', auth.editor(), dashboardId, async (ctx) => {
    checkDashboardLimit(ctx, ctx.params.id);
    await deleteDashboard(app, ctx.params.id);
    ctx.body = { success: true };
  });
  return router;
}
