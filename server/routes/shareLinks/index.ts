import type Router from '@koa/router';
import { z } from 'zod';
import { ErrorCode } from '@common/schemas/errors';
import { CreateShareLink, type ShareViewResponse } from '@common/schemas/shareLink';
import type { AppContext } from '../../context';
import { ForbiddenError } from '../../errors';
import { checkDashboardLimit } from '../../middleware/guards';
import { validate } from '../../middleware/validate';
import { publicDashboardView, publicViewEtag } from '../../services/dashboards';
import { attachmentHeader, exportDashboardCsv } from '../../services/exportCsv';
import { createShareLink, listShareLinks, loadDashboardForShare, revokeShareLink } from '../../services/shareLinks';
import { resourceRouter } from '../router';

const ExportQuery = z.object({ tab: z.string().min(1, 'tab must name a tab id').optional() });

/**
 * Share links: editors make, list and revoke them under /api/admin/dashboards/:id/links; anyone
 * holding a link's token opens the dashboard (published or not) under /api/share/:token.
 */
export function shareLinksRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);

  router.get('/admin/dashboards/:id/links', auth.editor(), async (ctx) => {
    checkDashboardLimit(ctx, ctx.params.id);
    ctx.body = await listShareLinks(app, ctx.params.id);
  });
  router.post('/admin/dashboards/:id/links', auth.editor(), adminJson(), validate({ body: CreateShareLink }, async (ctx, { body }) => {
    checkDashboardLimit(ctx, ctx.params.id);
    ctx.status = 201;
    ctx.body = await createShareLink(app, ctx.params.id, body);
  }));
  router.delete('/admin/dashboards/:id/links/:linkId', auth.editor(), async (ctx) => {
    checkDashboardLimit(ctx, ctx.params.id);
    ctx.body = await revokeShareLink(app, ctx.params.id, ctx.params.linkId);
  });

  router.get('/share/:token', auth.public(), async (ctx) => {
    const { link, dashboard, dataSource } = await loadDashboardForShare(app, ctx.params.token);
    const etag = publicViewEtag(dashboard, dataSource).replace(/"$/, `.${link.allowCsv ? 'csv' : 'nocsv'}"`);
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', 'no-cache, private');
    ctx.set('Referrer-Policy', 'no-referrer');
    if (ctx.get('if-none-match') === etag) {
      ctx.status = 304;
      return;
    }
    const view = await publicDashboardView(app, dashboard, dataSource);
    const body: ShareViewResponse = { ...view, share: { allowCsv: Boolean(link.allowCsv), expiresAt: link.expiresAt ? new Date(link.expiresAt).toISOString() : null } };
    ctx.body = body;
  });

  router.get('/share/:token/export', auth.public(), validate({ query: ExportQuery }, async (ctx, { query }) => {
    const { link, dashboard, dataSource } = await loadDashboardForShare(app, ctx.params.token);
    if (!link.allowCsv) throw ForbiddenError('CSV export is turned off for this share link', ErrorCode.shareCsvForbidden);
    const { fileName, stream } = await exportDashboardCsv(app, dashboard, dataSource, query.tab);
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = stream;
  }));

  return router;
}
