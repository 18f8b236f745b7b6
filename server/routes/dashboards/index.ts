import type Router from '@koa/router';
import { CreateDashboard, UpdateDashboard } from '@common/schemas/dashboard';
import type { AppContext } from '../../context';
import { validate } from '../../middleware/validate';
import { canonicalParams } from '../../middleware/params';
import { ObjectIdParam } from '@common/ids';
import { createDashboard, deleteDashboard, getDashboard, listDashboards, updateDashboard } from '../../services/dashboards';
import { resourceRouter } from '../router';

/** Admin dashboard management under /api/admin/dashboards (drafts included). */
export function dashboardsRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dashboardId = canonicalParams({ id: ObjectIdParam }, 'Dashboard');
  router.get('/admin/dashboards', auth.admin(), async (ctx) => {
    ctx.body = await listDashboards(app);
  });
  router.get('/admin/dashboards/:id', auth.admin(), dashboardId, async (ctx) => {
    ctx.body = await getDashboard(app, ctx.params.id);
  });
  router.post('/admin/dashboards', auth.admin(), adminJson(), validate({ body: CreateDashboard }, async (ctx, { body }) => {
    ctx.status = 201;
    ctx.body = await createDashboard(app, body);
  }));
  router.patch('/admin/dashboards/:id', auth.admin(), dashboardId, adminJson(), validate({ body: UpdateDashboard }, async (ctx, { body }) => {
    ctx.body = await updateDashboard(app, ctx.params.id, body);
  }));
  router.delete('/admin/dashboards/:id', auth.admin(), dashboardId, async (ctx) => {
    await deleteDashboard(app, ctx.params.id);
    ctx.body = { success: true };
  });
  return router;
}
