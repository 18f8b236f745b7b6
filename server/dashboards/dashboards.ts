import mongoose from 'mongoose';
import type { CreateDashboard, DashboardDto, DashboardTab, PublicDashboardSummaryDto, UpdateDashboard } from '@common/schemas/dashboard';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import { DASHBOARD_REFRESH_MS } from '@common/constants';
import type { AppContext, DashboardDoc, DataSourceDoc, RecordDoc } from '../core';
import { settledRevision, encodeKeys, NotFoundError, ValidationError, dashboardConfiguration, presentDashboard, presentDataSource, presentPublicSummary, presentRecord, findDataSource } from '../core';
import { presentPublicHeadFromDtos } from './presentPublicView';
import { createVersioned, saveVersioned, type SaveOptions } from './versions/saveVersioned';

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

/** Creates a dashboard (version 1); it starts as a draft with one tab named "Tab 1". */
export async function createDashboard(ctx: AppContext, input: CreateDashboard, opts: SaveOptions = {}): Promise<DashboardDto> {
  const dataSourceId = await requireSourceId(ctx, input.dataSourceId);
  const configuration = {
    keyMappings: input.configuration?.keyMappings ?? {},
    refreshInterval: input.configuration?.refreshInterval ?? DASHBOARD_REFRESH_MS,
    tabs: input.configuration?.tabs?.length ? input.configuration.tabs : [FIRST_TAB],
    filters: input.configuration?.filters ?? [],
  };
  const doc = await createVersioned(ctx, {
    name: input.name,
    description: input.description ?? '',
    dataSourceId,
    isPublished: input.isPublished ?? false,
    configuration: encodeKeys(configuration),
  }, opts);
  const dto = await present(ctx, doc);
  ctx.events.emit('dashboard.changed', { dashboard: dto, wasPublished: false, previousDataSourceId: dto.dataSourceId });
  return dto;
}

/**
 * Applies any subset of name, description, dataSourceId, isPublished and configuration, as a new
 * version (`message`: the save's own words; `ifMatch`: refused with 409 unless it is the current version).
 */
export async function updateDashboard(ctx: AppContext, id: string, patch: UpdateDashboard, opts: SaveOptions = {}): Promise<DashboardDto> {
  const { message, ...fields } = patch;
  const dataSourceId = fields.dataSourceId === undefined || fields.dataSourceId === null ? fields.dataSourceId : await requireSourceId(ctx, fields.dataSourceId);
  const { before, after } = await saveVersioned(ctx, id, (before) => {
    const set: Record<string, unknown> = {};
    if (fields.name !== undefined) set.name = fields.name;
    if (fields.description !== undefined) set.description = fields.description;
    if (fields.isPublished !== undefined) set.isPublished = fields.isPublished;
    if (dataSourceId !== undefined) set.dataSourceId = dataSourceId;
    if (fields.configuration !== undefined) set.configuration = encodeKeys({ ...dashboardConfiguration(before), ...stripUndefined(fields.configuration) });
    return set;
  }, { message, ...opts });
  return announceChange(ctx, before, after);
}

/** Tells the view cache, the rooms and the console what a save made of a dashboard (as every change is pushed). */
export async function announceChange(ctx: AppContext, before: DashboardDoc, after: DashboardDoc): Promise<DashboardDto> {
  const dto = await present(ctx, after);
  ctx.events.emit('dashboard.changed', { dashboard: dto, wasPublished: Boolean(before.isPublished), previousDataSourceId: before.dataSourceId ?? null });
  return dto;
}

/**
 * Leaves every dashboard on a removed data source with none, each as a new version by whoever removed
 * the source (the source's name kept in the version's words). Answers the dashboards as they became;
 * the caller announces them after the source's own events.
 */
export async function detachDashboardsFrom(ctx: AppContext, source: { id: string; name: string }): Promise<DashboardDoc[]> {
  const out: DashboardDoc[] = [];
  for (const d of await dashboardsOnSource(ctx, source.id)) {
    out.push((await saveVersioned(ctx, String(d._id), () => ({ dataSourceId: null }), { sourceNames: { [source.id]: source.name } })).after);
  }
  return out;
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
