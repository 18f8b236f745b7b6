import { about } from '../core';
import type Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../core';
import { validate, canonicalParams, attachmentHeader, exportDashboardCsv, ApiError } from '../core';
import { ObjectIdParam } from '@common/ids';
import { listPublicDashboards, loadPublishedDashboard, signedInDashboardView } from '../dashboards';
import { sendPublicView } from './viewCache';
import { resourceRouter } from '../access';

const ExportQuery = z.object({ tab: z.string().min(1, 'tab must name a tab id').optional() });

/** The public face: published dashboards only, no sign-in. */
export function publicDashboardsRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  const dashboardId = canonicalParams({ id: ObjectIdParam }, 'Dashboard');

  router.get('/dashboards', auth.public(), about({ summary: 'Published dashboards', answer: 'Dashboard[]' }), async (ctx) => {
    ctx.body = await listPublicDashboards(app);
  });

  // Served from memory (server/publicView/viewCache): no database read for a known view, ETag and 304 included.
  // A draft answers only a request with a valid session (or token): signed-in people see drafts read-only.
  router.get('/dashboards/:id', auth.public(), about({ summary: 'A published dashboard with its tabs, data source and records', answer: '{dashboard, tabs, dataSource, records}' }), dashboardId, async (ctx) => {
    try {
      await sendPublicView(ctx, app, ctx.params.id);
    } catch (e) {
      const draft = e instanceof ApiError && e.status === 404 ? await signedInDashboardView(app, ctx, ctx.params.id) : null;
      if (!draft) throw e;
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = draft;
    }
  });

  router.get('/dashboards/:id/export', auth.public(), about({ summary: 'CSV export of a published dashboard\'s tab (?tab=<tabId>)', answer: 'CSV file' }), dashboardId, validate({ query: ExportQuery }, async (ctx, { query }) => {
    const { dashboard, dataSource } = await loadPublishedDashboard(app, ctx.params.id);
    const { fileName, stream } = await exportDashboardCsv(app, dashboard, dataSource, query.tab);
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = stream;
  }));

  return router;
}
