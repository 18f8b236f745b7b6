import Router from '@koa/router';
import { CreateDashboard, UpdateDashboard } from '@common/schemas/dashboard';
import type { AppContext } from '../../context';
import { parse } from '../../middleware/validate';
import { createDashboard, deleteDashboard, getDashboard, listDashboards, updateDashboard } from '../../services/dashboards';

/** Admin dashboard management under /api/admin/dashboards (drafts included). */
export function dashboardsRouter(app: AppContext): Router {
  const router = new Router({ prefix: '/admin/dashboards' });
  router.get('/', async (ctx) => {
    ctx.body = await listDashboards(app);
  });
  router.get('/:id', async (ctx) => {
    ctx.body = await getDashboard(app, ctx.params.id);
  });
  router.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await createDashboard(app, parse(CreateDashboard, ctx.request.body));
  });
  router.patch('/:id', async (ctx) => {
    ctx.body = await updateDashboard(app, ctx.params.id, parse(UpdateDashboard, ctx.request.body));
  });
  router.delete('/:id', async (ctx) => {
    await deleteDashboard(app, ctx.params.id);
    ctx.body = { success: true };
  });
  return router;
}
