/** The console's navigation model: main tabs, sub-tabs and sidebar groups. */
export type MainTab = 'data-sources' | 'dashboard-builder' | 'published-dashboards' | 'api-docs';

export interface NavItem {
  key: string;
  label: string;
  /** Only admins see it (people, integrations, the activity log, settings); editors do not. */
  adminOnly?: boolean;
  /** What only admins may do there, for a person who reaches it by URL ("manage users"). */
  onlyAdminsCan?: string;
}

export interface NavGroup {
  mainTab: MainTab;
  label: string;
  items: NavItem[];
  /** The sub-tab row above the content. */
  subTabs: NavItem[];
}

export const NAV: NavGroup[] = [
  {
    mainTab: 'data-sources',
    label: 'Data Sources',
    items: [
      { key: 'overview', label: 'Data Sources' },
      { key: 'integrations', label: 'Integrations', adminOnly: true, onlyAdminsCan: 'manage integrations' },
      { key: 'import', label: 'Import Data' },
      { key: 'export', label: 'Export Data' },
    ],
    subTabs: [{ key: 'overview', label: 'Overview' }, { key: 'integrations', label: 'Integrations', adminOnly: true, onlyAdminsCan: 'manage integrations' }],
  },
  {
    mainTab: 'dashboard-builder',
    label: 'Manage Dashboards',
    items: [
      { key: 'builder', label: 'Dashboard Builder' },
      { key: 'configure', label: 'Configure' },
      { key: 'templates', label: 'Templates' },
      { key: 'widgets', label: 'Widgets' },
    ],
    subTabs: [{ key: 'builder', label: 'Builder' }, { key: 'configure', label: 'Configure' }],
  },
  {
    mainTab: 'published-dashboards',
    label: 'Published Dashboards',
    items: [
      { key: 'public', label: 'Public Dashboards' },
      { key: 'analytics', label: 'Analytics' },
      { key: 'permissions', label: 'Permissions' },
      { key: 'alerts', label: 'Alerts' },
      { key: 'reports', label: 'Reports' },
      { key: 'users', label: 'Users', adminOnly: true, onlyAdminsCan: 'manage users' },
      { key: 'activity', label: 'Activity Log', adminOnly: true, onlyAdminsCan: 'read the activity log' },
      { key: 'settings', label: 'Settings', adminOnly: true, onlyAdminsCan: 'change the settings' },
    ],
    subTabs: [{ key: 'public', label: 'Public' }, { key: 'analytics', label: 'Analytics' }],
  },
  {
    mainTab: 'api-docs',
    label: 'API Documentation',
    items: [
      { key: 'documentation', label: 'Documentation' },
      { key: 'examples', label: 'Examples' },
      { key: 'endpoints', label: 'Endpoints' },
      { key: 'authentication', label: 'Authentication' },
    ],
    subTabs: [{ key: 'documentation', label: 'Documentation' }, { key: 'examples', label: 'Examples' }],
  },
];

export const DEFAULT_PLACE = { mainTab: 'data-sources' as MainTab, subTab: 'overview' };

/** The items a role sees: admins all, editors none of the admin-only ones. */
export const visibleTo = (isAdmin: boolean) => (i: NavItem) => isAdmin || !i.adminOnly;

export function groupOf(mainTab: string): NavGroup | undefined {
  return NAV.find((g) => g.mainTab === mainTab);
}

/** A valid (mainTab, subTab) pair; a missing or unknown sub-tab becomes the tab's first one. */
export function normalizePlace(mainTab: string | null, subTab: string | null): { mainTab: MainTab; subTab: string } {
  const group = groupOf(mainTab ?? '') ?? groupOf(DEFAULT_PLACE.mainTab)!;
  const known = [...group.items, ...group.subTabs].some((i) => i.key === subTab);
  return { mainTab: group.mainTab, subTab: known && subTab ? subTab : group.subTabs[0].key };
}

/** Name of the in-page event that moves the console to a main tab and sub-tab. */
export const ADMIN_NAVIGATE_EVENT = 'admin:navigate';

export interface AdminNavigateDetail {
  mainTab: string;
  subTab?: string;
  /** Opens the Configure editor for this dashboard (with dashboard-builder / configure), or a report's form for it (published-dashboards / reports). */
  dashboardId?: string;
  /** The data source the screen opens with (API docs, Export Data): its id. */
  source?: string;
}

/** Moves the console from anywhere in the page (an in-page navigation event, so no component needs the router's props). */
export function navigateAdmin(mainTab: string, subTab?: string, dashboardId?: string, source?: string): void {
  window.dispatchEvent(new CustomEvent<AdminNavigateDetail>(ADMIN_NAVIGATE_EVENT, { detail: { mainTab, subTab, dashboardId, source } }));
}

/** The browser tab's name of a place: its sidebar item ("Import Data"), API items as "API Examples". */
export function placeTitle(mainTab: string, subTab: string): string {
  const group = groupOf(mainTab);
  const label = [...(group?.items ?? []), ...(group?.subTabs ?? [])].find((i) => i.key === subTab)?.label ?? group?.label ?? '';
  return mainTab === 'api-docs' && !label.startsWith('API') ? `API ${label}` : label;
}
