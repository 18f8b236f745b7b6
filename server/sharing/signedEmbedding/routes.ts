import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { ErrorCode } from '@common/schemas/errors';
import type { EmbedTerms } from '@common/schemas/sharing/embedding';
import type { AppContext, DashboardDoc } from '../../core';
import { about, ApiError, attachmentHeader, exportDashboardCsv, findDataSource, ForbiddenError, validate } from '../../core';
import { embedTokenFilters, failedCredentials, rateLimitsHandle, resourceRouter } from '../../access';
import { SHARE_VIEW_HEADERS, sendLockedView, viewCacheOf, type FastRoute, type ServedView } from '../../publicView';
import { EmbedRefused, embedAccessOf, embedViewCacheKey } from './access';
import type { EmbedGrant } from './tokens';

const ExportQuery = z.object({ tab: z.string().min(1, 'tab must name a tab id').optional() });

/** What an embed route knows once the guard let it through: the verified token. */
interface EmbedState {
  embedGrant: EmbedGrant;
}
const grantOf = (ctx: Context): EmbedGrant => (ctx.state as EmbedState).embedGrant;

/**
 * The `embed` audience: the signed token in the path is the credential. Refused tokens answer 401
 * `embed_token_invalid` (one message, whatever the reason) and count, like wrong bearer
 * credentials, per (address, token) and per address (past the limit: 429 before any verification).
 */
export function embedGuard(app: AppContext) {
  const failures = failedCredentials(rateLimitsHandle.of(app));
  const access = embedAccessOf(app);
  const guard = async (ctx: Context, next: Next) => {
    const token = String(ctx.params.token ?? '');
    await failures.check(ctx, ctx.ip, token);
    try {
      (ctx.state as EmbedState).embedGrant = await access.open(token);
    } catch (e) {
      if (e instanceof EmbedRefused) await failures.failed(ctx.ip, token);
      throw e;
    }
    return next();
  };
  return Object.assign(guard, { audience: 'embed' as const });
}

/** What the page may do and show, from the token's claims. */
function termsOf(grant: EmbedGrant): EmbedTerms {
  return {
    allowCsv: grant.allowCsv,
    expiresAt: new Date(grant.exp * 1000).toISOString(),
    ...(grant.filters.length && { filters: grant.filters }),
    ...(grant.theme && { theme: grant.theme }),
    ...(grant.tab && { tab: grant.tab }),
  };
}

/**
 * A token's view: the locked view a share link with the same filters would give (the view cache's
 * one code path: drafts included, only the matching records, built once per change), with the
 * token's `embed` part. A dashboard deleted since its secret was read answers as a refused token.
 */
export async function embedView(app: AppContext, token: string, grant: EmbedGrant): Promise<ServedView> {
  try {
    return await viewCacheOf(app).credentialView({ key: embedViewCacheKey(token), dashboardId: grant.dashboardId, filters: embedTokenFilters(grant), part: { name: 'embed', value: termsOf(grant) }, hold: true });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) throw new EmbedRefused('no_secret');
    throw e;
  }
}

/**
 * `GET /api/embed/<token>` on the view cache's hot path: a token verified on this process and still
 * open, whose view is held and current, is answered before the Koa stack (a map look-up and a clock
 * comparison). Anything else goes through the guard.
 */
export function embedFastRoute(app: AppContext): FastRoute {
  const access = embedAccessOf(app);
  const cache = viewCacheOf(app);
  return {
    path: /^\/api\/embed\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/,
    route: '/api/embed/:token',
    headers: SHARE_VIEW_HEADERS,
    peek(token) {
      const grant = access.peek(token);
      const view = grant ? cache.peekLocked(embedViewCacheKey(token), grant.dashboardId) : null;
      if (view) access.used('view');
      return view;
    },
  };
}

/** A token's view and CSV export, for anyone holding a valid signed embed token. */
export function embedRouter(app: AppContext): Router {
  const { router } = resourceRouter(app);
  const access = embedAccessOf(app);
  const token = embedGuard(app);

  router.get('/embed/:token', token, about({ summary: 'The dashboard a signed embed token opens (published or not): only the records its filters allow', answer: '{dashboard, tabs, dataSource, records, embed}' }), async (ctx) => {
    const view = await embedView(app, ctx.params.token, grantOf(ctx));
    access.used('view');
    await sendLockedView(ctx, view);
  });

  router.get('/embed/:token/export', token, about({ summary: 'CSV export of what a signed embed token shows, when its allowCsv claim is true', answer: 'CSV file' }), validate({ query: ExportQuery }, async (ctx, { query }) => {
    const grant = grantOf(ctx);
    if (!grant.allowCsv) throw ForbiddenError('CSV export is turned off for this embedded dashboard (its token does not say allowCsv: true)', ErrorCode.embedCsvForbidden);
    const dashboard = await app.models.Dashboard.findById(grant.dashboardId).lean<DashboardDoc>();
    if (!dashboard) throw new EmbedRefused('no_secret');
    const dataSource = dashboard.dataSourceId ? await findDataSource(app, dashboard.dataSourceId) : null;
    // The token's filters hold here too: only matching records are exported.
    const { fileName, stream } = await exportDashboardCsv(app, dashboard, dataSource, query.tab, embedTokenFilters(grant));
    access.used('export');
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = stream;
  }));

  return router;
}
