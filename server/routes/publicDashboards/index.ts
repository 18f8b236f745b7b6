import type Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { validate } from '../../middleware/validate';
import { listPublicDashboards, loadPublishedDashboard, publicDashboardView, publicViewEtag } from '../../services/dashboards';
import { attachmentHeader, exportDashboardCsv } from '../../services/exportCsv';
import { resourceRouter } from '../router';

const ExportQuery = z.object({ tab: z.string().min(1, 'tab must name a tab id').optional() });

/** The public face: published dashboards only, no sign-in. */
export function publicDashboardsRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);

  router.get('/dashboards', auth.public(), async (ctx) => {
    ctx.body = await listPublicDashboards(app);
  });

  router.get('/dashboards/:id', auth.public(), async (ctx) => {
    const { dashboard, dataSource } = await loadPublishedDashboard(app, ctx.params.id);
    const etag = publicViewEtag(dashboard, dataSource);
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', 'no-cache');
    if (ctx.get('if-none-match') === etag) {
      ctx.status = 304;
      return;
    }
    ctx.body = await publicDashboardView(app, dashboard, dataSource);
  });

  router.get('/dashboards/:id/export', auth.public(), validate({ query: ExportQuery }, async (ctx, { query }) => {
    const { dashboard, dataSource } = await loadPublishedDashboard(app, ctx.params.id);
    const { fileName, stream } = await exportDashboardCsv(app, dashboard, dataSource, query.tab);
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = stream;
  }));

  return router;
}
