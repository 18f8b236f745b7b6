import { create } from 'zustand';
import type { PublicDashboardChanged, RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import type { RecordDto } from '@common/schemas/records/record';
import { emptyRecords, orderedRecords, recordKeeper, type RecordsState } from './recordStore';

export type { RecordsChange } from './recordStore';
export type ViewerHead = Pick<PublicDashboardResponse, 'dashboard' | 'tabs' | 'dataSource'>;
export type ViewerStatus = 'loading' | 'ready' | 'notFound' | 'error';

/**
 * The viewer's data: the dashboard's head and its source's records, kept as every live record
 * store keeps them (recordStore.ts: updated in place, `version` bumped per change, `change` saying
 * what changed).
 */
export interface ViewerState extends RecordsState {
  dashboardId: string | null;
  status: ViewerStatus;
  error: string | null;
  head: ViewerHead | null;
  truncated: boolean;
}

const initial = (dashboardId: string | null): ViewerState => ({
  dashboardId, status: 'loading', error: null, head: null, ...emptyRecords(), version: 0, truncated: false,
});

export const useViewerStore = create<ViewerState>(() => initial(null));

const set = useViewerStore.setState;
const get = useViewerStore.getState;
const keeper = recordKeeper(useViewerStore);

/** Starts over for another dashboard. */
export function resetViewer(dashboardId: string) {
  set(initial(dashboardId));
}

/** Takes a full REST answer, keeping unchanged record objects so their rows do not re-render. */
export function loadView(view: PublicDashboardResponse) {
  keeper.load(view.records, view.revision, {
    status: 'ready', error: null, head: { dashboard: view.dashboard, tabs: view.tabs, dataSource: view.dataSource }, truncated: view.truncated,
  });
}

export function markNotFound() {
  keeper.clear({ status: 'notFound', head: null });
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
  keeper.upserted(e);
}

export function applyRemoved(e: RecordsRemoved) {
  keeper.removed(e);
}

export function applyHead(e: PublicDashboardChanged) {
  set({ head: { dashboard: e.dashboard, tabs: e.tabs, dataSource: e.dataSource } });
}

/** The current records in server order (recomputed by callers when `version` changes). */
export function currentRecords(): RecordDto[] {
  return orderedRecords(get());
}
