import { about } from '../core';
import type Router from '@koa/router';
import type { DashboardAnalyticsDto } from '@common/schemas/analytics';
import type { AppContext } from '../core';
import { viewerCounter } from './viewerCounts';
import { listDashboards } from '../dashboards';
import { askerOfRequest, usableDashboards, resourceRouter } from '../access';

/** GET /api/admin/analytics: every dashboard's viewers right now and views per day (30 days). */
export function analyticsRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  router.get('/admin/analytics', auth.editor(), about({ summary: 'Live viewer counts and views per day of every dashboard', answer: 'Analytics summary' }), async (ctx) => {
    const dashboards = usableDashboards(askerOfRequest(ctx), await listDashboards(app));
    const counter = viewerCounter(app);
    const ids = dashboards.map((d) => d.id);
    const [viewers, history] = counter ? await Promise.all([counter.viewers(ids), counter.stats.history(ids)]) : [new Map<string, number>(), new Map()];
    const body: DashboardAnalyticsDto[] = dashboards.map((d) => ({
      dashboardId: d.id,
      name: d.name,
      isPublished: d.isPublished,
      viewers: viewers.get(d.id) ?? 0,
      viewsByDay: history.get(d.id) ?? [],
    }));
    ctx.body = body;
  });
  return router;
}
