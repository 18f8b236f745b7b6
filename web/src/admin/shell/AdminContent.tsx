import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { ApiDocs } from '../apiDocs/ApiDocs';
import { ConfigureScreen } from '../configure/ConfigureScreen';
import { DashboardsManager } from '../dashboards/DashboardsManager';
import { DataSourcesOverview } from '../dataSources/DataSourcesOverview';
import { PublishedDashboards } from '../published/PublishedDashboards';
import { AdminsOnly, NotAvailable } from '../ui/States';
import { groupOf } from './nav';
import { useCan } from '../../api/session';
import type { Place } from './usePlace';

const IntegrationsScreen = lazy(() => import('../integrations/IntegrationsScreen'));
const PermissionsScreen = lazy(() => import('../permissions/PermissionsScreen'));
const UsersScreen = lazy(() => import('../account/UsersScreen'));
const ActivityLogScreen = lazy(() => import('../activity/ActivityLogScreen'));
const AlertsScreen = lazy(() => import('../alerts/AlertsScreen'));
const ReportsScreen = lazy(() => import('../reports/ReportsScreen'));
const AnalyticsScreen = lazy(() => import('../analytics/AnalyticsScreen'));
const WidgetsScreen = lazy(() => import('../widgets/WidgetsScreen'));
const TemplatesScreen = lazy(() => import('../widgets/templates/TemplatesScreen'));
const ExportScreen = lazy(() => import('../export/ExportScreen'));
const ImportScreen = lazy(() => import('../import/ImportScreen'));
const SettingsScreen = lazy(() => import('../settings/SettingsScreen'));
const lazyScreen = (screen: React.ReactNode) => <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>{screen}</Suspense>;

/** Picks the screen for the current main tab and sub-tab (a sidebar item without a screen of its own shows its group's screen). */
export function AdminContent({ place, go }: { place: Place; go(mainTab: string, subTab?: string, dashboardId?: string | null, source?: string | null): void }) {
  const { mainTab, subTab } = place;
  const isAdmin = useCan('admin');
  const group = groupOf(mainTab);
  const item = [...(group?.items ?? []), ...(group?.subTabs ?? [])].find((i) => i.key === subTab);
  if (item?.adminOnly && !isAdmin) return <AdminsOnly label={item.label} what={item.onlyAdminsCan ?? `open ${item.label}`} />;
  if (mainTab === 'data-sources' && subTab === 'overview') return <DataSourcesOverview />;
  if (mainTab === 'data-sources' && subTab === 'export') return lazyScreen(<ExportScreen source={place.source} onSource={(id) => go(mainTab, subTab, null, id)} />);
  if (mainTab === 'data-sources' && subTab === 'import') return lazyScreen(<ImportScreen />);
  if (mainTab === 'data-sources' && subTab === 'integrations') {
    return (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
        <IntegrationsScreen />
      </Suspense>
    );
  }
  if (mainTab === 'dashboard-builder' && subTab === 'builder') return <DashboardsManager source={place.source} />;
  if (mainTab === 'dashboard-builder' && subTab === 'configure') {
    return <ConfigureScreen dashboardId={place.dashboardId} onOpen={(id) => go('dashboard-builder', 'configure', id)} />;
  }
  if (mainTab === 'published-dashboards' && subTab === 'permissions') return lazyScreen(<PermissionsScreen />);
  if (mainTab === 'published-dashboards' && subTab === 'users') return lazyScreen(<UsersScreen />);
  if (mainTab === 'published-dashboards' && subTab === 'analytics') return lazyScreen(<AnalyticsScreen />);
  if (mainTab === 'published-dashboards' && subTab === 'activity') return lazyScreen(<ActivityLogScreen />);
  if (mainTab === 'published-dashboards' && subTab === 'alerts') return lazyScreen(<AlertsScreen />);
  if (mainTab === 'published-dashboards' && subTab === 'reports') return lazyScreen(<ReportsScreen scheduleFor={place.dashboardId} onScheduled={() => place.dashboardId && go(mainTab, subTab, null)} />);
  if (mainTab === 'published-dashboards' && subTab === 'settings') return lazyScreen(<SettingsScreen />);
  if (mainTab === 'dashboard-builder' && subTab === 'widgets') return lazyScreen(<WidgetsScreen initialDashboardId={place.dashboardId} />);
  if (mainTab === 'dashboard-builder' && subTab === 'templates') return lazyScreen(<TemplatesScreen />);
  // The published list and the docs page serve their whole main tab, every sidebar item included.
  if (mainTab === 'published-dashboards') return <PublishedDashboards />;
  if (mainTab === 'api-docs') return <ApiDocs section={subTab} source={place.source} onSource={(id) => go(mainTab, subTab, null, id)} />;
  const label = groupOf(mainTab)?.items.find((i) => i.key === subTab)?.label ?? subTab;
  return <NotAvailable label={label} />;
}
