import { about, activity } from '../core';
import type Router from '@koa/router';
import { z } from 'zod';
import { ErrorCode } from '@common/schemas/errors';
import { CreateShareLink } from '@common/schemas/sharing/shareLink';
import type { AppContext } from '../core';
import { ForbiddenError, validate, canonicalParams, attachmentHeader, exportDashboardCsv } from '../core';
import { askerOfRequest, requireDashboardUse, resourceRouter, shareLinkFilters } from '../access';
import { ObjectIdParam, ShareTokenParam } from '@common/ids';
import { createShareLink, listShareLinks, loadDashboardForShare, revokeShareLink } from './shareLinks';
import { sendShareView } from '../publicView';

const ExportQuery = z.object({ tab: z.string().min(1, 'tab must name a tab id').optional() });

/**
 * Share links: editors make, list and revoke them under /api/admin/dashboards/:id/links; anyone
 * holding a link's token opens the dashboard (published or not) under /api/share/:token.
 */
export function shareLinksRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dashboardId = canonicalParams({ id: ObjectIdParam }, 'Dashboard');
  const link = canonicalParams({ id: ObjectIdParam, linkId: ObjectIdParam }, 'Share link');
  const token = canonicalParams({ token: ShareTokenParam }, 'Share link');

  router.get('/admin/dashboards/:id/links', auth.editor(), about({ summary: 'A dashboard\'s share links', answer: 'ShareLink[]' }), dashboardId, async (ctx) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.body = await listShareLinks(app, ctx.params.id);
  });
  router.post('/admin/dashboards/:id/links', auth.editor(), about({ summary: 'Make a share link (optional expiry, CSV allowed or not); the answer holds its URL once', answer: '{link, token, path}', status: 201, activity: activity('shareLink.created', 'shareLink', 'created share link', 'answer:link') }), dashboardId, adminJson(), validate({ body: CreateShareLink }, async (ctx, { body }) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.status = 201;
    ctx.body = await createShareLink(app, ctx.params.id, body);
  }));
  router.delete('/admin/dashboards/:id/links/:linkId', auth.editor(), about({ summary: 'Revoke a share link (it stops working at once)', answer: 'ShareLink', activity: activity('shareLink.revoked', 'shareLink', 'revoked share link', 'param:linkId') }), link, async (ctx) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.body = await revokeShareLink(app, ctx.params.id, ctx.params.linkId);
  });

  // Served from memory like the public view (server/publicView/viewCache): the token is looked up in the link
  // cache (revocation applied from the relayed events, expiry checked per request).
  router.get('/share/:token', auth.public(), about({ summary: 'The dashboard a share link opens, published or not', answer: '{dashboard, tabs, dataSource, records, share}' }), token, (ctx) => sendShareView(ctx, app, ctx.params.token));

  router.get('/share/:token/export', auth.public(), about({ summary: 'CSV export through a share link that allows it', answer: 'CSV file' }), token, validate({ query: ExportQuery }, async (ctx, { query }) => {
    const { link, dashboard, dataSource } = await loadDashboardForShare(app, ctx.params.token);
    if (!link.allowCsv) throw ForbiddenError('CSV export is turned off for this share link', ErrorCode.shareCsvForbidden);
    // A link's locked filters hold here too: only matching records are exported.
    const { fileName, stream } = await exportDashboardCsv(app, dashboard, dataSource, query.tab, shareLinkFilters(link));
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = stream;
  }));

  return router;
}
