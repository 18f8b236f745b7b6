import { create } from 'zustand';
import type { PublicDashboardChanged, RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import type { RecordDto } from '@common/schemas/record';

export type ViewerHead = Pick<PublicDashboardResponse, 'dashboard' | 'tabs' | 'dataSource'>;
export type ViewerStatus = 'loading' | 'ready' | 'notFound' | 'error';

/**
 * The viewer's data. Records live in a Map keyed by recordId that is updated in place: a pushed
 * change swaps one record object and bumps `version`, so a row or card that selects its own record
 * re-renders alone while lists derived from `version` recompute their order.
 */
export interface ViewerState {
  dashboardId: string | null;
  status: ViewerStatus;
  error: string | null;
  head: ViewerHead | null;
  records: Map<string, RecordDto>;
  /** recordIds in server order. */
  order: string[];
  /** Bumped on every change of `records` or `order`. */
  version: number;
  /** What the change to `version` touched, for incremental widget totals; null: start over. */
  change: RecordsChange | null;
  revision: number;
  truncated: boolean;
}

export interface RecordsChange {
  version: number;
  upserted: string[];
  removed: string[];
  /** The records these ids held before the change (none for a new record). */
  previous: Map<string, RecordDto>;
}

export const useViewerStore = create<ViewerState>(() => ({
  dashboardId: null, status: 'loading', error: null, head: null, records: new Map(), order: [], version: 0, change: null, revision: 0, truncated: false,
}));

const set = useViewerStore.setState;
const get = useViewerStore.getState;

/** Starts over for another dashboard. */
export function resetViewer(dashboardId: string) {
  set({ dashboardId, status: 'loading', error: null, head: null, records: new Map(), order: [], version: 0, change: null, revision: 0, truncated: false });
}

/** Takes a full REST answer, keeping unchanged record objects so their rows do not re-render. */
export function loadView(view: PublicDashboardResponse) {
  const old = get().records;
  const records = new Map<string, RecordDto>();
  const order: string[] = [];
  const upserted: string[] = [];
  const previous = new Map<string, RecordDto>();
  for (const r of view.records) {
    const prev = old.get(r.recordId);
    const same = prev && prev.revision === r.revision && prev.lastUpdated === r.lastUpdated;
    records.set(r.recordId, same ? prev : r);
    if (!same) {
      upserted.push(r.recordId);
      if (prev) previous.set(r.recordId, prev);
    }
    order.push(r.recordId);
  }
  const removed = [...old.keys()].filter((id) => !records.has(id));
  for (const id of removed) previous.set(id, old.get(id)!);
  set((s) => ({
    status: 'ready', error: null, head: { dashboard: view.dashboard, tabs: view.tabs, dataSource: view.dataSource },
    records, order, version: s.version + 1, change: { version: s.version + 1, upserted, removed, previous }, revision: view.revision, truncated: view.truncated,
  }));
}

export function markNotFound() {
  set({ status: 'notFound', head: null, records: new Map(), order: [], version: get().version + 1, change: null });
}

/** A failed fetch: an error screen only when there is nothing to show yet. */
export function markFailed(message: string) {
  if (get().status !== 'ready') set({ status: 'error', error: message });
}

export function setRevision(revision: number) {
  set({ revision });
}

/** Upserts pushed records by recordId in place; new ones are appended. */
export function applyUpserted(e: RecordsUpserted) {
  const { records, order } = get();
  let added = false;
  const previous = new Map<string, RecordDto>();
  for (const r of e.records) {
    const prev = records.get(r.recordId);
    if (!prev) {
      order.push(r.recordId);
      added = true;
    } else if (!previous.has(r.recordId)) previous.set(r.recordId, prev);
    records.set(r.recordId, r);
  }
  const upserted = [...new Set(e.records.map((r) => r.recordId))];
  set((s) => ({ version: s.version + 1, change: { version: s.version + 1, upserted, removed: [], previous }, order: added ? [...order] : order, revision: e.revision }));
}

export function applyRemoved(e: RecordsRemoved) {
  if (e.all) {
    set((s) => ({ records: new Map(), order: [], version: s.version + 1, change: null, revision: e.revision }));
    return;
  }
  const { records } = get();
  const gone = new Set(e.recordIds);
  const previous = new Map<string, RecordDto>();
  for (const id of gone) {
    const prev = records.get(id);
    if (prev) previous.set(id, prev);
    records.delete(id);
  }
  set((s) => ({ order: s.order.filter((id) => !gone.has(id)), version: s.version + 1, change: { version: s.version + 1, upserted: [], removed: [...previous.keys()], previous }, revision: e.revision }));
}

export function applyHead(e: PublicDashboardChanged) {
  set({ head: { dashboard: e.dashboard, tabs: e.tabs, dataSource: e.dataSource } });
}

/** The current records in server order (recomputed by callers when `version` changes). */
export function currentRecords(): RecordDto[] {
  const { records, order } = get();
  const out: RecordDto[] = [];
  for (const id of order) {
    const r = records.get(id);
    if (r) out.push(r);
  }
  return out;
}
