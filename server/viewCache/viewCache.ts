import mongoose from 'mongoose';
import { canonicalObjectId } from '@common/ids';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { AppContext } from '../context';
import { NotFoundError } from '../errors';
import type { DomainEvents } from '../events';
import type { DashboardDoc, DataSourceDoc, RecordDoc } from '../models';
import { presentDashboard, presentDataSource, presentRecord } from '../presenters';
import { presentPublicHeadFromDtos, serializePublicView } from '../presenters/publicView';
import { loadPublishedDashboard, publicDashboardView } from '../services/dashboards';
import { ServedView } from './servedView';
import { SourceView } from './sourceView';

/** The domain events that change a public view; the cache listens to these (locally and from Redis). */
export const VIEW_EVENTS = ['records.upserted', 'records.removed', 'datasource.changed', 'datasource.removed', 'dashboard.changed', 'dashboard.removed'] as const;
export type ViewEventName = (typeof VIEW_EVENTS)[number];
export type ViewEvent = { [K in ViewEventName]: { name: K; payload: DomainEvents[K] } }[ViewEventName];

const REMOVED = 'removed' as const;

interface Served {
  dashboard: DashboardDto;
  source: SourceView | null;
  sourceVersion: number;
  view: ServedView;
}

/**
 * Public views served from memory. Per data source the presented records (built once from
 * MongoDB, then kept current by the domain events); per dashboard its last known DTO. A served
 * body is built once per (dashboard, source version). Events that arrive while a source is being
 * read from the database are replayed on the result, so no write falls between the read and the
 * events. Least recently viewed sources are dropped beyond `maxBytes`.
 */
export class ViewCache {
  private readonly dashboards = new Map<string, DashboardDto | typeof REMOVED>();
  private readonly sources = new Map<string, SourceView>();
  private readonly builds = new Map<string, { events: ViewEvent[]; promise: Promise<SourceView> }>();
  private readonly served = new Map<string, Served>();
  private generation = 0;
  private enabled = true;
  /** Database reads made to build views (tests and the benchmark read it). */
  readonly stats = { sourceBuilds: 0, dashboardLoads: 0, servedBuilds: 0, evictions: 0, databaseViews: 0 };

  constructor(
    private readonly ctx: AppContext,
    private readonly maxBytes: number,
  ) {}

  /** Applies one domain event (from this process or another). Never throws, never awaits. */
  apply(e: ViewEvent): void {
    switch (e.name) {
      case 'dashboard.changed': {
        const d = e.payload.dashboard;
        const held = this.dashboards.get(d.id);
        if (held !== REMOVED && (!held || held.revision <= d.revision)) this.dashboards.set(d.id, d);
        return;
      }
      case 'dashboard.removed':
        this.dashboards.set(e.payload.dashboardId, REMOVED);
        this.served.delete(e.payload.dashboardId);
        return;
      default: {
        const sourceId = e.name === 'datasource.changed' ? e.payload.dataSource.id : e.payload.dataSourceId;
        this.builds.get(sourceId)?.events.push(e);
        const held = this.sources.get(sourceId);
        if (held && !applyToSource(held, e)) this.dropSource(sourceId);
      }
    }
  }

  /** The public view of a published dashboard (404 for drafts and unknown ids). */
  async view(dashboardId: string): Promise<ServedView> {
    // Only the canonical spelling is ever a key here (the edges canonicalise, common/ids.ts).
    if (canonicalObjectId(dashboardId) !== dashboardId) throw NotFoundError(`Dashboard ${dashboardId}`);
    if (!this.enabled) return this.fromDatabase(dashboardId);
    const dashboard = await this.dashboard(dashboardId);
    const source = dashboard.dataSourceId ? await this.source(dashboard.dataSourceId) : null;
    const held = this.served.get(dashboardId);
    if (held && held.dashboard === dashboard && held.source === source && held.sourceVersion === source?.version) return held.view;
    const head = presentPublicHeadFromDtos(dashboard, source?.meta ?? null);
    const text = serializePublicView(head, source ? source.json() : '[]', source?.meta ? source.revision : 0, source?.truncated ?? false);
    const view = ServedView.fromText(text, source?.meta ? source.revision : 0, dashboard.dataSourceId);
    this.stats.servedBuilds++;
    if (this.dashboards.get(dashboardId) === dashboard && (!source || this.sources.get(source.dataSourceId) === source)) {
      this.served.set(dashboardId, { dashboard, source, sourceVersion: source?.version ?? 0, view });
      this.enforceBudget(source);
    }
    return view;
  }

  /**
   * The served view of a published dashboard if it is held and current, without waiting or
   * reading anything; null otherwise (then `view()` answers).
   */
  peek(dashboardId: string): ServedView | null {
    if (!this.enabled) return null;
    const held = this.served.get(dashboardId);
    if (!held || this.dashboards.get(dashboardId) !== held.dashboard) return null;
    const source = held.source;
    if (source && (this.sources.get(source.dataSourceId) !== source || source.version !== held.sourceVersion)) return null;
    if (source) source.lastViewed = Date.now();
    return held.view;
  }

  /** Forgets everything (e.g. after Redis was lost: events from other processes may be missing). */
  clear(): void {
    this.generation++;
    this.dashboards.clear();
    this.sources.clear();
    this.served.clear();
  }

  /** Off: every view is read from the database (while other processes' events cannot reach us). */
  setEnabled(on: boolean): void {
    if (!on) this.clear();
    this.enabled = on;
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** Bytes held now (records, served bodies and their compressed forms), as the budget counts them. */
  bytes(): number {
    let n = 0;
    for (const s of this.sources.values()) n += s.bytes;
    for (const s of this.served.values()) n += s.view.bytes;
    return n;
  }

  private async dashboard(id: string): Promise<DashboardDto> {
    const held = this.dashboards.get(id);
    if (held === REMOVED) throw NotFoundError(`Dashboard ${id}`);
    if (held) {
      if (!held.isPublished) throw NotFoundError(`Dashboard ${id}`);
      return held;
    }
    if (!mongoose.isObjectIdOrHexString(id)) throw NotFoundError(`Dashboard ${id}`);
    const generation = this.generation;
    this.stats.dashboardLoads++;
    const doc = await this.ctx.models.Dashboard.findById(id).lean<DashboardDoc>();
    // An event that arrived meanwhile is at least as new as what was read, unless the read is newer.
    const now = this.dashboards.get(id);
    let dto: DashboardDto | typeof REMOVED | undefined = now;
    if (now !== REMOVED && doc && (!now || (doc.revision ?? 0) > now.revision)) dto = presentDashboard(doc, null);
    if (dto && generation === this.generation) this.dashboards.set(id, dto);
    if (!dto || dto === REMOVED || !dto.isPublished) throw NotFoundError(`Dashboard ${id}`);
    return dto;
  }

  private source(dataSourceId: string): Promise<SourceView> {
    const held = this.sources.get(dataSourceId);
    if (held) {
      held.lastViewed = Date.now();
      return Promise.resolve(held);
    }
    let build = this.builds.get(dataSourceId);
    if (!build) {
      const events: ViewEvent[] = [];
      build = { events, promise: this.build(dataSourceId, events) };
      this.builds.set(dataSourceId, build);
    }
    return build.promise;
  }

  private async build(dataSourceId: string, events: ViewEvent[]): Promise<SourceView> {
    const generation = this.generation;
    const limit = this.ctx.config.VIEW_MAX_RECORDS;
    try {
      this.stats.sourceBuilds++;
      const { DataSource, Record } = this.ctx.models;
      const ds = mongoose.isObjectIdOrHexString(dataSourceId) ? await DataSource.findById(dataSourceId).lean<DataSourceDoc>() : null;
      const docs = ds ? await Record.find({ dataSourceId: ds._id }).sort({ _id: 1 }).limit(limit + 1).lean<RecordDoc[]>() : [];
      const view = new SourceView(dataSourceId, ds ? presentDataSource(ds) : null, docs.slice(0, limit).map(presentRecord), docs.length > limit, limit);
      let keep = true;
      for (const e of events) keep = applyToSource(view, e) && keep;
      if (keep && generation === this.generation && this.enabled) this.sources.set(dataSourceId, view);
      return view;
    } finally {
      this.builds.delete(dataSourceId);
    }
  }

  private dropSource(dataSourceId: string) {
    this.sources.delete(dataSourceId);
    for (const [id, s] of this.served) if (s.source?.dataSourceId === dataSourceId) this.served.delete(id);
  }

  private enforceBudget(keep: SourceView | null) {
    let total = this.bytes();
    while (total > this.maxBytes) {
      let oldest: SourceView | null = null;
      for (const s of this.sources.values()) if (s !== keep && (!oldest || s.lastViewed < oldest.lastViewed)) oldest = s;
      if (!oldest) break;
      this.dropSource(oldest.dataSourceId);
      this.stats.evictions++;
      total = this.bytes();
    }
    // A single view larger than the whole budget is served but not kept.
    if (total > this.maxBytes && keep) {
      this.dropSource(keep.dataSourceId);
      this.stats.evictions++;
    }
  }

  private async fromDatabase(dashboardId: string): Promise<ServedView> {
    this.stats.databaseViews++;
    const { dashboard, dataSource } = await loadPublishedDashboard(this.ctx, dashboardId);
    const view = await publicDashboardView(this.ctx, dashboard, dataSource);
    const text = serializePublicView(
      { dashboard: view.dashboard, tabs: view.tabs, dataSource: view.dataSource },
      JSON.stringify(view.records),
      view.revision,
      view.truncated,
    );
    return ServedView.fromText(text, view.revision, dashboard.dataSourceId ?? null);
  }
}

/** Applies a record or source event to a source view; false when the view must be rebuilt. */
function applyToSource(view: SourceView, e: ViewEvent): boolean {
  switch (e.name) {
    case 'records.upserted':
      return view.upsert(e.payload.revision, e.payload.records);
    case 'records.removed':
      return view.remove(e.payload.revision, e.payload.recordIds, e.payload.all);
    case 'datasource.changed':
      view.setMeta(e.payload.dataSource);
      return true;
    case 'datasource.removed':
      return false;
    default:
      return true;
  }
}
