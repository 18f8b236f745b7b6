import { about, activity } from '../core';
import type Router from '@koa/router';
import { CreateDashboard, UpdateDashboard } from '@common/schemas/dashboard';
import type { AppContext } from '../core';
import { askerOfRequest, checkSourceInBody, refuseLimited, requireDashboardUse, usableDashboards, resourceRouter } from '../access';
import { validate, canonicalParams } from '../core';
import { ObjectIdParam } from '@common/ids';
import { createDashboard, deleteDashboard, getDashboard, listDashboards, updateDashboard } from './dashboards';
import { ifMatchOf, versionEtag } from './versions/versionsRoutes';

/** Dashboard management under /api/admin/dashboards (drafts included): viewers read, editors change; a limited person only their chosen dashboards. */
export function dashboardsRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dashboardId = canonicalParams({ id: ObjectIdParam }, 'Dashboard');
  router.get('/admin/dashboards', auth.viewer(), about({ summary: 'All dashboards, drafts included', answer: 'Dashboard[]' }), async (ctx) => {
    ctx.body = usableDashboards(askerOfRequest(ctx), await listDashboards(app));
  });
  router.get('/admin/dashboards/:id', auth.viewer(), about({ summary: 'One dashboard with its configuration; its ETag is its current version (If-Match of a save)', answer: 'Dashboard' }), dashboardId, async (ctx) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    const dashboard = await getDashboard(app, ctx.params.id);
    ctx.set('ETag', versionEtag(dashboard.version));
    ctx.body = dashboard;
  });
  router.post('/admin/dashboards', auth.editor(), about({ summary: 'Create a dashboard', answer: 'Dashboard', status: 201, activity: activity('dashboard.created', 'dashboard', 'created dashboard', 'answer') }), adminJson(), validate({ body: CreateDashboard }, async (ctx, { body }) => {
    refuseLimited(askerOfRequest(ctx), 'create dashboards');
    await checkSourceInBody(app, askerOfRequest(ctx), body.dataSourceId);
    ctx.status = 201;
    const created = await createDashboard(app, body);
    ctx.set('ETag', versionEtag(created.version));
    ctx.body = created;
  }));
  router.patch(
    '/admin/dashboards/:id',
    auth.editor(),
    about({
      summary: 'Update a dashboard: any field, isPublished to publish, or configuration (tabs, widgets), as a new version (message: its words); with If-Match of an older version: 409 and the current one',
      answer: 'Dashboard',
      activity: activity('dashboard.updated', 'dashboard', 'updated dashboard', 'param:id'),
    }),
    dashboardId, adminJson(),
    validate({ body: UpdateDashboard }, async (ctx, { body }) => {
      const who = askerOfRequest(ctx);
      requireDashboardUse(who, ctx.params.id);
      const ifMatch = ifMatchOf(ctx);
      // Judged on the sources the person's dashboards show before this change: moving one's own dashboard never reaches a new source.
      if (body.dataSourceId) await checkSourceInBody(app, who, body.dataSourceId);
      const saved = await updateDashboard(app, ctx.params.id, body, { ifMatch });
      ctx.set('ETag', versionEtag(saved.version));
      ctx.body = saved;
    }),
  );
  router.delete('/admin/dashboards/:id', auth.editor(), about({ summary: 'Delete a dashboard and its tabs', answer: '{success: true}', activity: activity('dashboard.deleted', 'dashboard', 'deleted dashboard', 'param:id') }), dashboardId, async (ctx) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    await deleteDashboard(app, ctx.params.id);
    ctx.body = { success: true };
  });
  return router;
}
