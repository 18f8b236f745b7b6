import mongoose from 'mongoose';
import type { DashboardVersionsPage, DashboardVersionWithContentDto, VersionsQuery } from '@common/schemas/dashboardVersion';
import type { DashboardDiff } from '@common/dashboards/diff';
import { diffDashboards } from '@common/dashboards/diffSentences';
import type { AppContext, DashboardDoc } from '../../core';
import { NotFoundError } from '../../core';
import { contentOf, presentContent, presentVersion, versionId, versionsOf, type DashboardVersionDoc } from './versionModel';
import { saveVersioned, type SaveOptions } from './saveVersioned';

async function requireDashboardDoc(ctx: AppContext, id: string): Promise<DashboardDoc> {
  const d = mongoose.isObjectIdOrHexString(id) ? await ctx.models.Dashboard.findById(id).lean<DashboardDoc>() : null;
  if (!d) throw NotFoundError(`Dashboard ${id}`);
  return d;
}

async function requireVersion(ctx: AppContext, dashboardId: string, version: number): Promise<DashboardVersionDoc> {
  const v = await versionsOf.of(ctx).findById(versionId(dashboardId, version)).lean<DashboardVersionDoc>();
  if (!v) throw NotFoundError(`Version ${version} of dashboard ${dashboardId}`);
  return v;
}

/** A page of a dashboard's history, newest first: versions below `before`, at most `limit`. */
export async function listVersions(ctx: AppContext, dashboardId: string, q: VersionsQuery): Promise<DashboardVersionsPage> {
  await requireDashboardDoc(ctx, dashboardId);
  const filter = q.before === undefined ? { dashboardId } : { dashboardId, version: { $lt: q.before } };
  const docs = await versionsOf.of(ctx).find(filter).sort({ version: -1 }).limit(q.limit + 1).lean<DashboardVersionDoc[]>();
  const page = docs.slice(0, q.limit);
  return { versions: page.map(presentVersion), nextBefore: docs.length > q.limit ? page[page.length - 1].version : null };
}

/** One version with the dashboard as it left it. */
export async function getVersion(ctx: AppContext, dashboardId: string, version: number): Promise<DashboardVersionWithContentDto> {
  await requireDashboardDoc(ctx, dashboardId);
  const v = await requireVersion(ctx, dashboardId, version);
  return { ...presentVersion(v), dashboard: presentContent(contentOf(v)) };
}

/** What changed from version `from` to version `to` (default: the current one), with the data sources named in its sentences. */
export async function diffVersions(ctx: AppContext, dashboardId: string, from: number, to?: number): Promise<DashboardDiff> {
  const d = await requireDashboardDoc(ctx, dashboardId);
  const [a, b] = await Promise.all([requireVersion(ctx, dashboardId, from), requireVersion(ctx, dashboardId, to ?? d.version ?? 0)]);
  const [ca, cb] = [contentOf(a), contentOf(b)];
  const ids = [ca.dataSourceId, cb.dataSourceId].filter((x): x is string => Boolean(x) && mongoose.isObjectIdOrHexString(x));
  const sources = ids.length ? await ctx.models.DataSource.find({ _id: { $in: ids } }).lean() : [];
  const names = new Map(sources.map((s) => [String(s._id), s.name]));
  return diffDashboards(presentContent(ca), presentContent(cb), a.version, b.version, (id) => (id ? (names.get(id) ?? null) : null));
}

/**
 * Puts version `version`'s content back as a new version ("Restored from version 3: …"). A data
 * source removed since is not brought back: the dashboard keeps none. `mayUseSource` is asked
 * first when the restore would move the dashboard to another source (the access policy's check).
 */
export async function restoreVersion(
  ctx: AppContext, dashboardId: string, version: number, mayUseSource: (dataSourceId: string) => Promise<void>, opts: SaveOptions = {},
): Promise<{ before: DashboardDoc; after: DashboardDoc }> {
  const d = await requireDashboardDoc(ctx, dashboardId);
  const v = await requireVersion(ctx, dashboardId, version);
  const content = contentOf(v);
  const sourceId = content.dataSourceId;
  const sourceExists = sourceId && mongoose.isObjectIdOrHexString(sourceId) ? Boolean(await ctx.models.DataSource.exists({ _id: sourceId })) : false;
  if (sourceExists && sourceId !== d.dataSourceId) await mayUseSource(sourceId!);
  const { name, description, isPublished, configuration } = content;
  return saveVersioned(ctx, dashboardId, () => ({ name, description, isPublished, configuration, dataSourceId: sourceExists ? sourceId : null }), {
    ...opts, restoredFrom: version, summary: (changes) => `Restored from version ${version}${changes === 'No changes' ? '' : `: ${changes}`}`,
  });
}
