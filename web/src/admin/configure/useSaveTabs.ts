import type { DashboardDto, DashboardTab } from '@common/schemas/dashboard';
import { api, errorText } from '../../api/client';
import { useDashboards } from '../stores/dashboards';
import { useToast } from '../ui/toast';

/**
 * Saves a dashboard's tabs (PATCH /api/admin/dashboards/:id with {configuration:{tabs}}): applied to
 * the store at once, then replaced by the server's answer; a failure reloads and says so.
 */
export function useSaveTabs(dashboard: DashboardDto | undefined) {
  const toast = useToast();
  return async (tabs: DashboardTab[], successToast?: string): Promise<boolean> => {
    if (!dashboard) return false;
    const store = useDashboards.getState();
    store.upsert({ ...dashboard, configuration: { ...dashboard.configuration, tabs } });
    try {
      const saved = await api.patch<DashboardDto>(`/api/admin/dashboards/${encodeURIComponent(dashboard.id)}`, { configuration: { tabs } });
      useDashboards.getState().upsert(saved);
      if (successToast) toast.success(successToast, 'Your dashboard configuration has been saved.');
      return true;
    } catch (e) {
      toast.error('Error', 'Failed to update dashboard. Please try again.');
      console.warn('save tabs failed', errorText(e));
      void useDashboards.getState().load();
      return false;
    }
  };
}

/** The next free tab number: tab{n} / "Tab {n}". */
export function nextTab(tabs: DashboardTab[]): DashboardTab {
  let n = tabs.length + 1;
  const ids = new Set(tabs.map((t) => t.id));
  while (ids.has(`tab${n}`)) n++;
  return { id: `tab${n}`, name: `Tab ${n}`, style: null, configuration: {}, widgets: [] };
}
