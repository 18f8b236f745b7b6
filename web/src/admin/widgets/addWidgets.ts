import type { DashboardDto } from '@common/schemas/dashboard';
import { api } from '../../api/client';
import { navigateAdmin } from '../shell/nav';
import { useDashboards } from '../stores/dashboards';

/** A dashboard with a tab to put widgets on: a new one gets an "Overview" tab (saved at once). */
export async function withTab(d: DashboardDto): Promise<DashboardDto> {
  if (d.configuration.tabs.length > 0) return d;
  const tabs = [{ id: 'tab1', name: 'Overview', style: null, configuration: {}, widgets: [] }];
  const saved = await api.patch<DashboardDto>(`/api/admin/dashboards/${encodeURIComponent(d.id)}`, { configuration: { ...d.configuration, tabs } });
  useDashboards.getState().upsert(saved);
  return saved;
}

/** "Add widgets": the Widgets screen on this dashboard, with a tab to build. */
export async function addWidgets(d: DashboardDto): Promise<void> {
  const ready = await withTab(d);
  navigateAdmin('dashboard-builder', 'widgets', ready.id);
}
