import type Router from '@koa/router';
import type { Context } from 'koa';
import { ObjectIdParam } from '@common/ids';
import { ImportDashboard, RestoreVersion, VersionDiffQuery, VersionParam, VersionsQuery } from '@common/schemas/dashboardVersion';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext } from '../../core';
import { ApiError, about, activity, attachmentHeader, canonicalParams, validate } from '../../core';
import { askerOfRequest, checkSourceInBody, refuseLimited, requireDashboardUse, resourceRouter } from '../../access';
import { announceChange, createDashboard } from '../dashboards';
import { dashboardDefinition, readDefinition } from './definition';
import { diffVersions, getVersion, listVersions, restoreVersion } from './versions';

/** The ETag of a dashboard's version: the version number, quoted (a strong validator for If-Match). */
export const versionEtag = (version: number) => `"${version}"`;

/**
 * The version a save names in If-Match: undefined without one (or `*`: any), else its number; an
 * If-Match that is not one version's ETag answers 400.
 */
export function ifMatchOf(ctx: Context): number | undefined {
  const raw = ctx.get('if-match').trim();
  if (!raw || raw === '*') return undefined;
  const m = /^"(\d{1,9})"$/.exec(raw) ?? /^(\d{1,9})$/.exec(raw);
  if (!m) throw new ApiError(400, ErrorCode.ifMatchInvalid, `If-Match must be one version's ETag as GET /api/admin/dashboards/:id answers it, e.g. "7" (got ${raw.slice(0, 60)})`);
  return Number(m[1]);
}

/** A file name from a dashboard's name, safe in a header and on any disk. */
const fileNameOf = (name: string) => `${name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim() || 'dashboard'}.dashboard.json`;

/**
 * A dashboard's history and its file, under /api/admin/dashboards: editors and admins (a person
 * limited to chosen dashboards on those only); viewers none.
 */
export function dashboardVersionsRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dashboardId = canonicalParams({ id: ObjectIdParam }, 'Dashboard');
  const versionNumber = canonicalParams({ n: VersionParam }, 'Version');

  router.get('/admin/dashboards/:id/versions', auth.editor(), about({ summary: 'A dashboard\'s versions, newest first (before, limit)', answer: '{versions: DashboardVersion[], nextBefore}' }), dashboardId, validate({ query: VersionsQuery }, async (ctx, { query }) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.body = await listVersions(app, ctx.params.id, query);
  }));
  router.get('/admin/dashboards/:id/versions/:n', auth.editor(), about({ summary: 'One version of a dashboard, with the dashboard as it was', answer: 'DashboardVersion & {dashboard}' }), dashboardId, versionNumber, async (ctx) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.body = await getVersion(app, ctx.params.id, Number(ctx.params.n));
  });
  router.get('/admin/dashboards/:id/versions/:n/diff', auth.editor(), about({ summary: 'What changed from version n to version `to` (default: the current one): added, removed, changed, settings, sentences', answer: 'DashboardDiff' }), dashboardId, versionNumber, validate({ query: VersionDiffQuery }, async (ctx, { query }) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    ctx.body = await diffVersions(app, ctx.params.id, Number(ctx.params.n), query.to);
  }));
  router.post(
    '/admin/dashboards/:id/versions/:n/restore',
    auth.editor(),
    about({ summary: 'Make version n\'s content the dashboard again, as a new version (pushed to open viewers and editors)', answer: 'Dashboard', activity: activity('dashboard.restored', 'dashboard', 'restored dashboard', 'param:id') }),
    dashboardId, versionNumber, adminJson(),
    validate({ body: RestoreVersion }, async (ctx, { body }) => {
      const who = askerOfRequest(ctx);
      requireDashboardUse(who, ctx.params.id);
      const { before, after } = await restoreVersion(app, ctx.params.id, Number(ctx.params.n), (sourceId) => checkSourceInBody(app, who, sourceId), { message: body.message, ifMatch: ifMatchOf(ctx) });
      ctx.set('ETag', versionEtag(after.version ?? 0));
      ctx.body = await announceChange(app, before, after);
    }),
  );
  router.get('/admin/dashboards/:id/definition', auth.editor(), about({ summary: 'The dashboard as one JSON file (no id of this server), for POST /api/admin/dashboards/import elsewhere', answer: 'DashboardDefinition file' }), dashboardId, async (ctx) => {
    requireDashboardUse(askerOfRequest(ctx), ctx.params.id);
    const file = await dashboardDefinition(app, ctx.params.id);
    ctx.set('Content-Disposition', attachmentHeader(fileNameOf(file.name)));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = file;
  });
  router.post(
    '/admin/dashboards/import',
    auth.editor(),
    about({ summary: 'A new draft dashboard from a dashboard file, on a data source that has every field it reads (422 naming what is missing)', answer: 'Dashboard', status: 201, activity: activity('dashboard.imported', 'dashboard', 'imported dashboard', 'answer') }),
    adminJson(),
    validate({ body: ImportDashboard }, async (ctx, { body }) => {
      const who = askerOfRequest(ctx);
      refuseLimited(who, 'create dashboards');
      await checkSourceInBody(app, who, body.dataSourceId);
      const read = await readDefinition(app, body);
      const created = await createDashboard(app, { ...read, isPublished: false }, { summary: () => `Imported '${read.name}' from a dashboard file` });
      ctx.status = 201;
      ctx.set('ETag', versionEtag(created.version));
      ctx.body = created;
    }),
  );
  return router;
}
