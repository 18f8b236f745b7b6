import { compileLocked } from '@common/filterBar';
import { MAX_RECORDS_PER_MESSAGE, type RecordsRemoved, type RecordsUpserted } from '@common/realtime';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { RecordDto } from '@common/schemas/records/record';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import type { DomainEvents } from '../../core';
import type { SourceView } from './sourceView';

/**
 * What a locked view's viewers on this process are sent: their share of a change, or "fetch again".
 * `key` names the view: a share link's id, or a signed embedding view's key (server/sharing).
 */
export type LockedDelta =
  | { key: string; kind: 'upserted'; e: RecordsUpserted }
  | { key: string; kind: 'removed'; e: RecordsRemoved }
  | { key: string; kind: 'resync' };

type RecordsEvent =
  | { name: 'records.upserted'; payload: DomainEvents['records.upserted'] }
  | { name: 'records.removed'; payload: DomainEvents['records.removed'] };

interface Watched {
  dashboardId: string;
  filters: WidgetFilter[];
  /** Records of the source matching the filters (null: not counted yet). */
  matching: number | null;
}

/** What the view cache lends: its held dashboards and sources, and a way to load a dashboard's view. */
interface Held {
  dashboard(id: string): DashboardDto | null | undefined;
  source(dataSourceId: string): SourceView | undefined;
  warm(dashboardId: string): void;
}

/**
 * Locked views — share links with locked filters, signed embed tokens' filters — whose viewers are on
 * this process (each by its key: a link's id, an embed view's key). Every record change of their
 * source (this process's and, through the view-event relay, the others') is split here, against the
 * held records as they were before it: a viewer gets the changed records that match (upserted), the
 * ids of those that matched and no longer do (removed), and never a record — nor the id of one — it
 * was not allowed to see. The deltas keep the source's revision (parts numbered within it), so the
 * viewer's revision rules hold; `total` counts the matching records. When the records are not held
 * here (a cold or dropped view), the viewers are told to fetch the view again.
 */
export class LockedLinks {
  private readonly watched = new Map<string, Watched>();
  private listener: ((d: LockedDelta) => void) | null = null;

  constructor(private readonly held: Held) {}

  /** Realtime hears every locked delta (one listener: the process's Socket.IO server). */
  listen(fn: (d: LockedDelta) => void): () => void {
    this.listener = fn;
    return () => {
      if (this.listener === fn) this.listener = null;
    };
  }

  /** A viewer of a locked view joined on this process. */
  watch(key: string, dashboardId: string, filters: WidgetFilter[]): void {
    if (!this.watched.has(key)) this.watched.set(key, { dashboardId, filters, matching: null });
  }

  unwatch(key: string): void {
    this.watched.delete(key);
  }

  removeDashboard(dashboardId: string): void {
    for (const [id, w] of this.watched) if (w.dashboardId === dashboardId) this.watched.delete(id);
  }

  /** The held records were dropped: counts start over. */
  forget(): void {
    for (const w of this.watched.values()) w.matching = null;
  }

  /** A record change of some source, before the held view applies it. */
  changed(e: RecordsEvent): void {
    if (!this.listener || this.watched.size === 0) return;
    for (const [key, w] of this.watched) {
      const dashboard = this.held.dashboard(w.dashboardId);
      if (dashboard === null) continue;
      if (dashboard && dashboard.dataSourceId !== e.payload.dataSourceId) continue;
      const source = this.held.source(e.payload.dataSourceId);
      if (!dashboard || !source) {
        // Not known here: the viewers fetch the (filtered) view again, and this process loads it.
        w.matching = null;
        this.held.warm(w.dashboardId);
        this.listener({ key, kind: 'resync' });
        continue;
      }
      this.split(key, w, source, e);
    }
  }

  private split(key: string, w: Watched, source: SourceView, e: RecordsEvent): void {
    const meta = source.meta;
    const test = compileLocked(w.filters, meta ? { fieldTypes: meta.fieldTypes, dateOrder: meta.dateOrder } : undefined) ?? (() => true);
    if (w.matching === null) {
      let n = 0;
      for (const r of source.records.values()) if (test(r.dto.data)) n++;
      w.matching = n;
    }
    const was = (recordId: string) => {
      const held = source.records.get(recordId);
      return held ? test(held.dto.data) : false;
    };
    const { dataSourceId, revision } = e.payload;
    if (e.name === 'records.removed') {
      const p = e.payload;
      const recordIds = p.all ? [] : p.recordIds.filter((id) => {
        const held = source.records.get(id);
        return held !== undefined && held.dto.revision < revision && test(held.dto.data);
      });
      w.matching = p.all ? 0 : w.matching - recordIds.length;
      this.listener!({ key, kind: 'removed', e: { dataSourceId, revision, total: w.matching, part: 0, parts: 1, recordIds, all: p.all } });
      return;
    }
    const upserted: RecordDto[] = [];
    const left: string[] = [];
    const seen = new Set<string>();
    for (const r of e.payload.records) {
      const held = source.records.get(r.recordId);
      if (held && held.dto.revision > r.revision) continue;
      const before = seen.has(r.recordId) ? upserted.some((u) => u.recordId === r.recordId) : was(r.recordId);
      seen.add(r.recordId);
      const now = test(r.data);
      if (now) upserted.push(r);
      else if (before) left.push(r.recordId);
      w.matching += Number(now) - Number(before);
    }
    const chunks: RecordDto[][] = [];
    for (let i = 0; i < upserted.length; i += MAX_RECORDS_PER_MESSAGE) chunks.push(upserted.slice(i, i + MAX_RECORDS_PER_MESSAGE));
    // One message at least: the viewer's revision moves on even when nothing of it matches.
    if (chunks.length === 0 && left.length === 0) chunks.push([]);
    const parts = chunks.length + (left.length ? 1 : 0);
    const total = w.matching;
    chunks.forEach((records, part) => this.listener!({ key, kind: 'upserted', e: { dataSourceId, revision, total, part, parts, records } }));
    if (left.length) this.listener!({ key, kind: 'removed', e: { dataSourceId, revision, total, part: chunks.length, parts, recordIds: left, all: false } });
  }
}
