import { useEffect } from 'react';
import { create } from 'zustand';
import type { DashboardDto, UpdateDashboard } from '@common/schemas/dashboard';
import type { DashboardVersionDto } from '@common/schemas/dashboardVersion';
import { ErrorCode } from '@common/schemas/errors';
import { ApiCallError, api } from '../../api/client';
import { useDashboards } from './dashboards';

/**
 * The one way the console saves a dashboard: PATCH with If-Match of the version the edit was made
 * on. A save on a version someone else has replaced since is refused by the server (409); it is
 * then held here, with the version now current, for the conflict dialog (ui/versions) to offer
 * "load theirs", "see what changed" or "save mine over theirs" — the edit itself stays in its editor.
 */

/** A refused save, waiting for the person's choice. */
export interface SaveConflict {
  dashboardId: string;
  dashboardName: string;
  /** The version the refused save was made on. */
  base: number;
  /** The version now current, and who saved it. */
  current: DashboardVersionDto;
  /** What was sent, to send again over theirs. */
  patch: UpdateDashboard;
}

interface SaveState {
  /** The version each dashboard's unsaved edits started from, while some are unsaved (`useHeldBase`). */
  bases: Record<string, number>;
  conflict: SaveConflict | null;
  /** Counts "load theirs": forms that hold their own edits start again from the dashboard when it moves. */
  theirsLoaded: number;
}

export const useDashboardSaves = create<SaveState>(() => ({ bases: {}, conflict: null, theirsLoaded: 0 }));

/** "Load theirs": the dashboard as it is now in the store, every held edit of it given up (`discardEdits`: the editors'). */
export async function loadTheirs(dashboardId: string, discardEdits: () => void): Promise<void> {
  const current = await api.get<DashboardDto>(`/api/admin/dashboards/${encodeURIComponent(dashboardId)}`);
  useDashboards.getState().upsert(current);
  discardEdits();
  useDashboardSaves.setState((s) => {
    const { [dashboardId]: _gone, ...bases } = s.bases;
    return { bases, conflict: null, theirsLoaded: s.theirsLoaded + 1 };
  });
}

/** Whether an error is a refused stale save (the conflict dialog says it: callers need not). */
export const isVersionConflict = (e: unknown): boolean => e instanceof ApiCallError && e.code === ErrorCode.versionConflict;

/**
 * While `held` (an editor of the dashboard holds unsaved edits), saves name the version the edits
 * started from, not a newer one pushed meanwhile: a change someone else saved in between is then
 * refused and shown, never overwritten unseen.
 */
export function useHeldBase(dashboard: Pick<DashboardDto, 'id' | 'version'> | undefined, held: boolean): void {
  const id = dashboard?.id;
  const version = dashboard?.version;
  useEffect(() => {
    if (!id || !held) return;
    useDashboardSaves.setState((s) => (s.bases[id] !== undefined || version === undefined ? s : { bases: { ...s.bases, [id]: version } }));
    return () =>
      useDashboardSaves.setState((s) => {
        const { [id]: _gone, ...bases } = s.bases;
        return { bases };
      });
    // The version is read when the edits begin, not followed.
  }, [id, held]);
}

/** The version a save of this dashboard is made on: an explicit one, the held base, else the one shown. */
function baseOf(d: Pick<DashboardDto, 'id' | 'version'>, ifMatch?: number): number {
  if (ifMatch !== undefined) return ifMatch;
  const held = useDashboardSaves.getState().bases[d.id];
  if (held !== undefined) return held;
  return useDashboards.getState().items.find((x) => x.id === d.id)?.version ?? d.version;
}

/**
 * Saves a change of a dashboard (PATCH with If-Match) and puts the answer in the store. Refused as
 * stale: the conflict is held for the dialog and the call fails with the server's 409.
 */
export async function saveDashboard(d: Pick<DashboardDto, 'id' | 'name' | 'version'>, patch: UpdateDashboard, opts: { ifMatch?: number } = {}): Promise<DashboardDto> {
  const base = baseOf(d, opts.ifMatch);
  try {
    const saved = await api.patch<DashboardDto>(`/api/admin/dashboards/${encodeURIComponent(d.id)}`, patch, { headers: { 'If-Match': `"${base}"` } });
    useDashboards.getState().upsert(saved);
    // Our own save moves the base on: the edits still unsaved elsewhere now stand on it (a save over theirs was chosen having seen them).
    useDashboardSaves.setState((s) => (s.bases[d.id] !== undefined ? { bases: { ...s.bases, [d.id]: saved.version } } : s));
    return saved;
  } catch (e) {
    if (isVersionConflict(e)) {
      const current = (e as ApiCallError).error?.current as DashboardVersionDto;
      useDashboardSaves.setState({ conflict: { dashboardId: d.id, dashboardName: d.name, base, current, patch } });
    }
    throw e;
  }
}
