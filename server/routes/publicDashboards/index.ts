import Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { parse } from '../../middleware/validate';
import { listPublicDashboards, loadPublishedDashboard } from '../../services/dashboards';
import { attachmentHeader, exportDashboardCsv } from '../../services/exportCsv';
import { sendPublicView } from '../../viewCache';

const ExportQuery = z.object({ tab: z.string().min(1, 'tab must name a tab id').optional() });

/** The public face: published dashboards only, no sign-in. */
export function publicDashboardsRouter(app: AppContext): Router {
  const router = new Router({ prefix: '/dashboards' });

  router.get('/', async (ctx) => {
    ctx.body = await listPublicDashboards(app);
  });

  // Served from memory (server/viewCache): no database read for a known view, ETag and 304 included.
  router.get('/:id', (ctx) => sendPublicView(ctx, app, ctx.params.id));

  router.get('/:id/export', async (ctx) => {
    const { tab } = parse(ExportQuery, ctx.query);
    const { dashboard, dataSource } = await loadPublishedDashboard(app, ctx.params.id);
    const { fileName, stream } = await exportDashboardCsv(app, dashboard, dataSource, tab);
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = stream;
  });

  return router;
}
