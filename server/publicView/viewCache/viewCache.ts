import mongoose from 'mongoose';
import { canonicalObjectId } from '@common/ids';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import type { AppContext, DashboardDoc } from '../../core';
import { NotFoundError, presentDashboard, findDataSource } from '../../core';
import { presentPublicHeadFromDtos } from '../../dashboards';
import { ServedView } from './servedView';
import type { SourceView } from './sourceView';
import { isLive, ShareLinkCache } from './shareLinks';
import { LockedLinks } from './lockedLinks';
import { metricsOf } from '../../core';
import { applyToSource, bodyPieces, lockedTest, readSource, type ViewEvent, withoutLastByte } from './viewBody';

export { lockedTest, VIEW_EVENTS, type ViewEvent, type ViewEventName } from './viewBody';

/** Share views held at most (one body per link); beyond it the oldest goes and is built again when asked. */
const MAX_SHARE_VIEWS = 1_000;

const REMOVED = 'removed' as const;

interface Served {
  dashboard: DashboardDto;
  source: SourceView | null;
  sourceVersion: number;
  view: ServedView;
}

/** What a locked view is made of (`ViewCache.credentialView`). */
export interface LockedAccess {
  /** Names the view: a share link's id, or (signed embedding) the token. */
  key: string;
  dashboardId: string;
  /** Locked filters: only the records matching all of them (none: every record). */
  filters: WidgetFilter[];
  /** The credential's own part of the answer, after the view's fields. */
  part: { name: string; value: unknown };
  /** False: built for this answer only, not held (a revoked link). */
  hold: boolean;
}

/** A locked view: its dashboard's served view (`base`) plus the credential's own part (`share`, `embed`). */
interface SharedServed {
  base: ServedView;
  view: ServedView;
}

/**
 * Public views served from memory. Per data source the presented records (built once from
 * MongoDB, then kept current by the domain events); per dashboard its last known DTO. A served
 * body is built once per (dashboard, source version). Events that arrive while a source is being
 * read from the database are replayed on the result, so no write falls between the read and the
 * events. Least recently viewed sources are dropped beyond `maxBytes`. Share links' views are the
 * same bodies (drafts included) with the link's `share` part, looked up by token in memory.
 */
export class ViewCache {
  private readonly dashboards = new Map<string, DashboardDto | typeof REMOVED>();
  private readonly sources = new Map<string, SourceView>();
  private readonly builds = new Map<string, { events: ViewEvent[]; promise: Promise<SourceView> }>();
  /** Served bodies being built, per dashboard, with what they are built from. */
  private readonly bodies = new Map<string, { dashboard: DashboardDto; source: SourceView | null; version: number; promise: Promise<ServedView> }>();
  private readonly served = new Map<string, Served>();
  private readonly shared = new Map<string, SharedServed>();
  /** Share links by token (revocation applied from the events, expiry checked per lookup). */
  readonly links: ShareLinkCache;
  /** Links with locked filters whose viewers are on this process: their deltas are filtered here. */
  readonly locked: LockedLinks;
  private generation = 0;
  private enabled = true;
  /** Database reads made to build views (tests and the benchmark read it). */
  readonly stats = { sourceBuilds: 0, dashboardLoads: 0, servedBuilds: 0, evictions: 0, databaseViews: 0 };

  constructor(
    private readonly ctx: AppContext,
    private readonly maxBytes: number,
  ) {
    this.links = new ShareLinkCache(ctx);
    this.locked = new LockedLinks({
      dashboard: (id) => {
        const d = this.dashboards.get(id);
        return d === REMOVED ? null : d;
      },
      source: (id) => this.sources.get(id),
      warm: (dashboardId) => void this.view(dashboardId, { drafts: true }).catch(() => undefined),
    });
  }

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
        this.links.removeDashboard(e.payload.dashboardId);
        this.locked.removeDashboard(e.payload.dashboardId);
        return;
      case 'shareLink.revoked':
        this.links.revoke(e.payload.link.id);
        this.shared.delete(e.payload.link.id);
        this.locked.unwatch(e.payload.link.id);
        return;
      default: {
        const sourceId = e.name === 'datasource.changed' ? e.payload.dataSource.id : e.payload.dataSourceId;
        this.builds.get(sourceId)?.events.push(e);
        const held = this.sources.get(sourceId);
        // Locked links' deltas are decided against the records as they were before this change.
        if (e.name === 'records.upserted' || e.name === 'records.removed') this.locked.changed(e);
        if (held && !applyToSource(held, e)) this.dropSource(sourceId);
      }
    }
  }

  /** The public view of a published dashboard (404 for drafts — unless `drafts`, for share links — and unknown ids). */
  async view(dashboardId: string, opts: { drafts?: boolean } = {}): Promise<ServedView> {
    const drafts = opts.drafts ?? false;
    // Only the canonical spelling is ever a key here (the edges canonicalise, common/ids.ts).
    if (canonicalObjectId(dashboardId) !== dashboardId) throw NotFoundError(`Dashboard ${dashboardId}`);
    const counted = metricsOf(this.ctx).viewCache;
    if (!this.enabled) {
      counted.inc({ result: 'miss' });
      return this.fromDatabase(dashboardId, drafts);
    }
    const dashboard = await this.dashboard(dashboardId, drafts);
    const source = dashboard.dataSourceId ? await this.source(dashboard.dataSourceId) : null;
    const held = this.served.get(dashboardId);
    const version = source?.version ?? 0;
    const hit = held && held.dashboard === dashboard && held.source === source && held.sourceVersion === version;
    counted.inc({ result: hit ? 'hit' : 'miss' });
    if (hit) return held.view;
    // One build per (dashboard, source version): the requests and joins that ask meanwhile wait for it.
    const under = this.bodies.get(dashboardId);
    if (under && under.dashboard === dashboard && under.source === source && under.version === version) return under.promise;
    const promise = this.buildServed(dashboardId, dashboard, source, version);
    this.bodies.set(dashboardId, { dashboard, source, version, promise });
    return promise.finally(() => {
      if (this.bodies.get(dashboardId)?.promise === promise) this.bodies.delete(dashboardId);
    });
  }

  /** A dashboard's served view, built in slices; kept when nothing it was built from changed meanwhile. */
  private async buildServed(dashboardId: string, dashboard: DashboardDto, source: SourceView | null, version: number): Promise<ServedView> {
    const head = presentPublicHeadFromDtos(dashboard, source?.meta ?? null);
    const revision = source?.meta ? source.revision : 0;
    const view = await ServedView.fromPieces(bodyPieces(head, source, null, revision), revision, dashboard.dataSourceId);
    this.stats.servedBuilds++;
    const current = this.dashboards.get(dashboardId) === dashboard && (!source || (this.sources.get(source.dataSourceId) === source && source.version === version));
    if (current) {
      this.served.set(dashboardId, { dashboard, source, sourceVersion: version, view });
      this.enforceBudget(source);
    }
    return view;
  }

  /**
   * The served view of a published dashboard if it is held and current, without waiting or
   * reading anything; null otherwise (then `view()` answers).
   */
  peek(dashboardId: string, opts: { drafts?: boolean } = {}): ServedView | null {
    if (!this.enabled) return null;
    const held = this.served.get(dashboardId);
    if (!held || this.dashboards.get(dashboardId) !== held.dashboard) return null;
    if (!held.dashboard.isPublished && !opts.drafts) return null;
    const source = held.source;
    if (source && (this.sources.get(source.dataSourceId) !== source || source.version !== held.sourceVersion)) return null;
    if (source) source.lastViewed = Date.now();
    return held.view;
  }

  /**
   * The view a live share link opens (its dashboard, published or not, plus the link's `share`
   * part); 404 for unknown, revoked and expired tokens alike. Counts a use of the link.
   */
  async shareView(token: string): Promise<ServedView> {
    const link = await this.links.get(token, { hold: this.enabled });
    if (!link || !isLive(link)) throw NotFoundError('Share link');
    const share = link.filters.length ? { allowCsv: link.allowCsv, expiresAt: link.expiresAt, filters: link.filters } : { allowCsv: link.allowCsv, expiresAt: link.expiresAt };
    const view = await this.credentialView({ key: link.id, dashboardId: link.dashboardId, filters: link.filters, part: { name: 'share', value: share }, hold: !link.revoked });
    this.links.touch(link);
    return view;
  }

  /**
   * A dashboard seen through a credential that is not a person — a share link, a signed embed
   * token: published or not, only the records its locked filters allow, and the credential's own
   * part of the answer (`"share": …`, `"embed": …`). Built once per key and change of the
   * dashboard's view (from the held records), then held (at most MAX_SHARE_VIEWS of them).
   */
  async credentialView(access: LockedAccess): Promise<ServedView> {
    const base = await this.view(access.dashboardId, { drafts: true });
    let held = this.shared.get(access.key);
    if (!held || held.base !== base) {
      // The dashboard's body less its closing brace, then the credential's own part (bytes as they are: no text in between).
      const body = access.filters.length ? await this.lockedBody(access.dashboardId, access.filters, base) : withoutLastByte(base.pieces);
      held = { base, view: await ServedView.fromPieces([...body, `,${JSON.stringify(access.part.name)}:${JSON.stringify(access.part.value)}}`], base.revision, base.dataSourceId) };
      if (this.enabled && access.hold) {
        this.shared.delete(access.key);
        if (this.shared.size >= MAX_SHARE_VIEWS) this.shared.delete(this.shared.keys().next().value!);
        this.shared.set(access.key, held);
      }
    }
    return held.view;
  }

  /**
   * The dashboard's head with only the records matching every locked filter, less its closing brace
   * — from the held source when `base` is the held view (built once per source version), else from
   * the database.
   */
  private async lockedBody(dashboardId: string, filters: WidgetFilter[], base: ServedView): Promise<Buffer[]> {
    const served = this.served.get(dashboardId);
    let source: SourceView | null;
    let dashboard: DashboardDto;
    if (served && served.view === base) {
      source = served.source;
      dashboard = served.dashboard;
    } else {
      ({ dashboard, source } = await this.readDashboard(dashboardId, true));
    }
    const meta = source?.meta ?? null;
    const revision = meta && source ? source.revision : 0;
    const pieces: Buffer[] = [];
    for await (const piece of bodyPieces(presentPublicHeadFromDtos(dashboard, meta), source, lockedTest(filters, meta), revision)) pieces.push(typeof piece === 'string' ? Buffer.from(piece) : piece);
    // Less the closing brace: the credential's part follows.
    return withoutLastByte(pieces);
  }

  /**
   * A dashboard's view (published or a draft) with only the records matching every locked filter,
   * as objects: the records a share link locking the same filters opens, read the same way — from
   * the held source, else from the database. A scheduled report draws it (server/reports/render).
   */
  async lockedView(dashboardId: string, filters: WidgetFilter[]): Promise<PublicDashboardResponse> {
    if (canonicalObjectId(dashboardId) !== dashboardId) throw NotFoundError(`Dashboard ${dashboardId}`);
    let dashboard: DashboardDto;
    let source: SourceView | null;
    if (this.enabled) {
      dashboard = await this.dashboard(dashboardId, true);
      source = dashboard.dataSourceId ? await this.source(dashboard.dataSourceId) : null;
    } else {
      this.stats.databaseViews++;
      ({ dashboard, source } = await this.readDashboard(dashboardId, true));
    }
    const meta = source?.meta ?? null;
    const records = source ? await source.filteredRecords(lockedTest(filters, meta)) : [];
    return { ...presentPublicHeadFromDtos(dashboard, meta), revision: meta && source ? source.revision : 0, records, truncated: source?.truncated ?? false };
  }

  /** The share view of a token if its link is held and live and its view current, without waiting; null otherwise. */
  peekShare(token: string): ServedView | null {
    const link = this.links.peek(token);
    if (!link || !isLive(link)) return null;
    const view = this.peekLocked(link.id, link.dashboardId);
    if (view) this.links.touch(link);
    return view;
  }

  /** A held locked view (`credentialView`'s) if it is current, without waiting; null otherwise. */
  peekLocked(key: string, dashboardId: string): ServedView | null {
    if (!this.enabled) return null;
    const held = this.shared.get(key);
    if (!held || this.peek(dashboardId, { drafts: true }) !== held.base) return null;
    return held.view;
  }

  /** Drops a held locked view (its credential ended). */
  forgetLocked(key: string): void {
    this.shared.delete(key);
  }

  /** Forgets everything (e.g. after Redis was lost: events from other processes may be missing). */
  clear(): void {
    this.generation++;
    this.dashboards.clear();
    this.sources.clear();
    this.served.clear();
    this.shared.clear();
    this.links.clear();
    this.locked.forget();
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
    for (const s of this.shared.values()) n += s.view.bytes;
    return n;
  }

  private async dashboard(id: string, drafts: boolean): Promise<DashboardDto> {
    const held = this.dashboards.get(id);
    if (held === REMOVED) throw NotFoundError(`Dashboard ${id}`);
    if (held) {
      if (!held.isPublished && !drafts) throw NotFoundError(`Dashboard ${id}`);
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
    if (!dto || dto === REMOVED || (!dto.isPublished && !drafts)) throw NotFoundError(`Dashboard ${id}`);
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
    try {
      this.stats.sourceBuilds++;
      const view = await readSource(this.ctx, dataSourceId);
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

  private async fromDatabase(dashboardId: string, drafts: boolean): Promise<ServedView> {
    this.stats.databaseViews++;
    const { dashboard, source } = await this.readDashboard(dashboardId, drafts);
    const revision = source?.meta ? source.revision : 0;
    return ServedView.fromPieces(bodyPieces(presentPublicHeadFromDtos(dashboard, source?.meta ?? null), source, null, revision), revision, dashboard.dataSourceId ?? null);
  }

  /**
   * A dashboard and its source read from the database, not held: the source looked up as a view
   * looks it up (its id or sourceId), then read in slices like a held one (a large one must not hold the loop).
   */
  private async readDashboard(dashboardId: string, drafts: boolean): Promise<{ dashboard: DashboardDto; source: SourceView | null }> {
    const doc = await this.ctx.models.Dashboard.findById(dashboardId).lean<DashboardDoc>();
    if (!doc || (!doc.isPublished && !drafts)) throw NotFoundError(`Dashboard ${dashboardId}`);
    const dashboard = presentDashboard(doc, null);
    const ds = dashboard.dataSourceId ? await findDataSource(this.ctx, dashboard.dataSourceId) : null;
    return { dashboard, source: ds ? await readSource(this.ctx, String(ds._id)) : null };
  }
}
