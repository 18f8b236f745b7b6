import type { DashboardDto, DashboardTab } from '@common/schemas/dashboard';
import { errorText } from '../../api/client';
import { sendAndSay } from '../../api/useSubmit';
import { useDashboards } from '../stores/dashboards';
import { isVersionConflict, saveDashboard } from '../stores/dashboardSave';
import { useToast } from '../ui/toast';

/**
 * Saves a dashboard's tabs (PATCH /api/admin/dashboards/:id with {configuration:{tabs}}, If-Match of
 * the version the edits started from: stores/dashboardSave.ts): applied to the store at once, then
 * replaced by the server's answer; a failure reloads and says so.
 */
export function useSaveTabs(dashboard: DashboardDto | undefined) {
  const toast = useToast();
  // Saves may overlap (a tab added while another is renamed): said one by one, busy flags are the editors'.
  // `optimistic: false` for an editor holding a draft: the store then shows only what the server holds, so a refused save leaves the draft as it was.
  return async (tabs: DashboardTab[], successToast?: string, { optimistic = true, message }: { optimistic?: boolean; message?: string } = {}): Promise<boolean> => {
    if (!dashboard) return false;
    const store = useDashboards.getState();
    if (optimistic) store.upsert({ ...dashboard, configuration: { ...dashboard.configuration, tabs } });
    const outcome = await sendAndSay(
      () => saveDashboard(dashboard, { configuration: { tabs }, ...(message ? { message } : {}) }),
      {
        success: successToast ? [successToast, 'Your dashboard configuration has been saved.'] : undefined,
        failure: (e) => {
          console.warn('save tabs failed', errorText(e));
          void useDashboards.getState().load();
          // A stale save is said by the conflict dialog; the edits stay in their editors.
          return isVersionConflict(e) ? undefined : ['Error', 'Failed to update dashboard. Please try again.'];
        },
      },
      toast,
    );
    return outcome.ok;
  };
}

/** The next free tab number: tab{n} / "Tab {n}". */
export function nextTab(tabs: DashboardTab[]): DashboardTab {
  let n = tabs.length + 1;
  const ids = new Set(tabs.map((t) => t.id));
  while (ids.has(`tab${n}`)) n++;
  return { id: `tab${n}`, name: `Tab ${n}`, style: null, configuration: {}, widgets: [] };
}
