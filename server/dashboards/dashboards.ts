import mongoose from 'mongoose';
import type { CreateDashboard, DashboardDto, DashboardTab, PublicDashboardSummaryDto, UpdateDashboard } from '@common/schemas/dashboard';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import { DASHBOARD_REFRESH_MS } from '@common/constants';
import type { AppContext, DashboardDoc, DataSourceDoc, RecordDoc } from '../core';
import { settledRevision, encodeKeys, NotFoundError, ValidationError, dashboardConfiguration, presentDashboard, presentDataSource, presentPublicSummary, presentRecord, findDataSource } from '../core';
import { presentPublicHeadFromDtos } from './presentPublicView';

const FIRST_TAB: DashboardTab = { id: 'tab1', name: 'Tab 1', style: null, configuration: {}, widgets: [] };

async function loadDashboard(ctx: AppContext, id: string): Promise<DashboardDoc | null> {
  if (!mongoose.isObjectIdOrHexString(id)) return null;
  return ctx.models.Dashboard.findById(id).lean<DashboardDoc>();
}

async function requireDashboard(ctx: AppContext, id: string): Promise<DashboardDoc> {
  const d = await loadDashboard(ctx, id);
  if (!d) throw NotFoundError(`Dashboard ${id}`);
  return d;
}

async function dataSourceNames(ctx: AppContext, ids: (string | null | undefined)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => Boolean(x) && mongoose.isObjectIdOrHexString(x)))];
  if (!wanted.length) return new Map();
  const docs = await ctx.models.DataSource.find({ _id: { $in: wanted } }).lean<DataSourceDoc[]>();
  return new Map(docs.map((d) => [String(d._id), d.name]));
}

async function present(ctx: AppContext, d: DashboardDoc): Promise<DashboardDto> {
  const names = await dataSourceNames(ctx, [d.dataSourceId]);
  return presentDashboard(d, d.dataSourceId ? (names.get(d.dataSourceId) ?? null) : null);
}

async function requireSourceId(ctx: AppContext, dataSourceId: string): Promise<string> {
  const ds = await findDataSource(ctx, dataSourceId);
  if (!ds) throw ValidationError(`dataSourceId: Data source ${dataSourceId} not found`, [{ path: 'dataSourceId', message: `Data source ${dataSourceId} not found` }]);
  return String(ds._id);
}

export async function listDashboards(ctx: AppContext): Promise<DashboardDto[]> {
  const docs = await ctx.models.Dashboard.find().sort({ createdAt: 1 }).lean<DashboardDoc[]>();
  const names = await dataSourceNames(ctx, docs.map((d) => d.dataSourceId));
  return docs.map((d) => presentDashboard(d, d.dataSourceId ? (names.get(d.dataSourceId) ?? null) : null));
}

export async function getDashboard(ctx: AppContext, id: string): Promise<DashboardDto> {
  return present(ctx, await requireDashboard(ctx, id));
}

/** Creates a dashboard; it starts as a draft with one tab named "Tab 1". */
export async function createDashboard(ctx: AppContext, input: CreateDashboard): Promise<DashboardDto> {
  const dataSourceId = await requireSourceId(ctx, input.dataSourceId);
  const configuration = {
    keyMappings: input.configuration?.keyMappings ?? {},
    refreshInterval: input.configuration?.refreshInterval ?? DASHBOARD_REFRESH_MS,
    tabs: input.configuration?.tabs?.length ? input.configuration.tabs : [FIRST_TAB],
    filters: input.configuration?.filters ?? [],
  };
  const doc = await ctx.models.Dashboard.create({
    name: input.name,
    description: input.description ?? '',
    dataSourceId,
    isPublished: input.isPublished ?? false,
    configuration: encodeKeys(configuration),
  });
  const dto = await present(ctx, doc.toObject() as DashboardDoc);
  ctx.events.emit('dashboard.changed', { dashboard: dto, wasPublished: false, previousDataSourceId: dto.dataSourceId });
  return dto;
}

/** Applies any subset of name, description, dataSourceId, isPublished and configuration. */
export async function updateDashboard(ctx: AppContext, id: string, patch: UpdateDashboard): Promise<DashboardDto> {
  const before = await requireDashboard(ctx, id);
  const set: Record<string, unknown> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.isPublished !== undefined) set.isPublished = patch.isPublished;
  if (patch.dataSourceId !== undefined) set.dataSourceId = patch.dataSourceId === null ? null : await requireSourceId(ctx, patch.dataSourceId);
  if (patch.configuration !== undefined) {
    const merged = { ...dashboardConfiguration(before), ...stripUndefined(patch.configuration) };
    set.configuration = encodeKeys(merged);
  }
  const after = await ctx.models.Dashboard.findByIdAndUpdate(before._id, { $set: set, $inc: { revision: 1 } }, { returnDocument: 'after' }).lean<DashboardDoc>();
  if (!after) throw NotFoundError(`Dashboard ${id}`);
  const dto = await present(ctx, after);
  ctx.events.emit('dashboard.changed', { dashboard: dto, wasPublished: Boolean(before.isPublished), previousDataSourceId: before.dataSourceId ?? null });
  return dto;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Deletes a dashboard; its tabs live inside it and go with it. */
export async function deleteDashboard(ctx: AppContext, id: string): Promise<void> {
  const d = await requireDashboard(ctx, id);
  await ctx.models.Dashboard.deleteOne({ _id: d._id });
  ctx.events.emit('dashboard.removed', { dashboardId: String(d._id), wasPublished: Boolean(d.isPublished), dataSourceId: d.dataSourceId ?? null });
}

/** Published dashboards for the public list, newest first. */
export async function listPublicDashboards(ctx: AppContext): Promise<PublicDashboardSummaryDto[]> {
  const docs = await ctx.models.Dashboard.find({ isPublished: true }).sort({ updatedAt: -1 }).lean<DashboardDoc[]>();
  const sourceIds = docs.map((d) => d.dataSourceId).filter((x): x is string => Boolean(x) && mongoose.isObjectIdOrHexString(x));
  const sources = await ctx.models.DataSource.find({ _id: { $in: sourceIds } }).lean<DataSourceDoc[]>();
  const touched = new Map(sources.map((s) => [String(s._id), s.updatedAt]));
  return docs.map((d) => presentPublicSummary(d, d.dataSourceId ? (touched.get(d.dataSourceId) ?? null) : null));
}

/** A published dashboard (404 for drafts and unknown ids) with its source metadata. */
export async function loadPublishedDashboard(ctx: AppContext, id: string): Promise<{ dashboard: DashboardDoc; dataSource: DataSourceDoc | null }> {
  const dashboard = await loadDashboard(ctx, id);
  if (!dashboard || !dashboard.isPublished) throw NotFoundError(`Dashboard ${id}`);
  const dataSource = dashboard.dataSourceId ? await findDataSource(ctx, dashboard.dataSourceId) : null;
  return { dashboard, dataSource };
}

/**
 * The public view without its records: what a viewer redraws when the dashboard's look changes.
 * One presenter for both paths: the view cache builds the same head from the events' DTOs.
 */
export function publicDashboardHead(dashboard: DashboardDoc, dataSource: DataSourceDoc | null): Omit<PublicDashboardResponse, 'records' | 'truncated'> {
  const head = presentPublicHeadFromDtos(presentDashboard(dashboard, dataSource?.name ?? null), dataSource ? presentDataSource(dataSource) : null);
  return { ...head, revision: dataSource ? settledRevision(dataSource) : 0 };
}

/** Everything the public viewer draws: dashboard, tabs, data source and records. */
export async function publicDashboardView(ctx: AppContext, dashboard: DashboardDoc, dataSource: DataSourceDoc | null): Promise<PublicDashboardResponse> {
  const limit = ctx.config.VIEW_MAX_RECORDS;
  const docs = dataSource
    ? await ctx.models.Record.find({ dataSourceId: dataSource._id }).sort({ _id: 1 }).limit(limit + 1).lean<RecordDoc[]>()
    : [];
  const truncated = docs.length > limit;
  return { ...publicDashboardHead(dashboard, dataSource), records: (truncated ? docs.slice(0, limit) : docs).map(presentRecord), truncated };
}

/** Every dashboard on a data source, published or a draft (one read). */
export async function dashboardsOnSource(ctx: AppContext, dataSourceId: string): Promise<DashboardDoc[]> {
  return ctx.models.Dashboard.find({ dataSourceId }).lean<DashboardDoc[]>();
}
