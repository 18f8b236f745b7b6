import mongoose from 'mongoose';
import type { Context } from 'koa';
import type { AppContext, DashboardDoc } from '../core';
import { NotFoundError, findDataSource } from '../core';
import { readSessionCookie, bearerToken, resolvePrincipal, askerOf, mayUseDashboard } from '../access';
import { publicDashboardView } from './dashboards';

/**
 * A draft (or any) dashboard's view for a signed-in person, read-only: only tried when the request
 * carries a session cookie or a bearer token, so anonymous requests never look anything up.
 * Null when the request has no valid credential or the person may not see this dashboard.
 */
export async function signedInDashboardView(app: AppContext, ctx: Context, id: string) {
  if (!readSessionCookie(ctx.get('cookie')) && !bearerToken(ctx)) return null;
  const principal = await resolvePrincipal(app, ctx).catch(() => null);
  if (!mayUseDashboard(askerOf(principal), id) || !mongoose.isObjectIdOrHexString(id)) return null;
  const dashboard = await app.models.Dashboard.findById(id).lean<DashboardDoc>();
  if (!dashboard) throw NotFoundError(`Dashboard ${id}`);
  const dataSource = dashboard.dataSourceId ? await findDataSource(app, dashboard.dataSourceId) : null;
  return publicDashboardView(app, dashboard, dataSource);
}
