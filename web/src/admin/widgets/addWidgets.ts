import type { DashboardDto } from '@common/schemas/dashboard';
import { navigateAdmin } from '../shell/nav';
import { saveDashboard } from '../stores/dashboardSave';

/** A dashboard with a tab to put widgets on: a new one gets an "Overview" tab (saved at once). */
export async function withTab(d: DashboardDto): Promise<DashboardDto> {
  if (d.configuration.tabs.length > 0) return d;
  const tabs = [{ id: 'tab1', name: 'Overview', style: null, configuration: {}, widgets: [] }];
  return saveDashboard(d, { configuration: { ...d.configuration, tabs } });
}

/** "Add widgets": the Widgets screen on this dashboard, with a tab to build. */
export async function addWidgets(d: DashboardDto): Promise<void> {
  const ready = await withTab(d);
  navigateAdmin('dashboard-builder', 'widgets', ready.id);
}
