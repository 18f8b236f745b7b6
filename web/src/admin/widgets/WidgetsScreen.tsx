import { Button, Card, Flex, Segmented, Select, Skeleton, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { DashboardDto } from '@common/schemas/dashboard';
import { useToastSubmit } from '../ui/toast';
import { withTab } from './addWidgets';
import { useState } from 'react';
import { useDashboards } from '../stores/dashboards';
import { EmptyState } from '../ui/States';
import { WidgetBuilder } from './WidgetBuilder';
import { guardedLeave } from '../../leaveGuard';
import { discardUnsaved, useUnsavedGuard } from '../configure/unsavedEdits';
import { useHeldBase } from '../stores/dashboardSave';
import { VersionConflictDialog } from '../ui/versions/VersionConflictDialog';

function widgetCount(d: DashboardDto): string {
  const n = d.configuration.tabs.reduce((sum, t) => sum + t.widgets.length, 0);
  return n === 0 ? 'no widgets yet' : n === 1 ? '1 widget' : `${n} widgets`;
}

/** Manage Dashboards > Widgets: pick a dashboard and a tab, then build its widgets on the grid. */
export default function WidgetsScreen({ initialDashboardId = null }: { initialDashboardId?: string | null }) {
  const { items, status } = useDashboards();
  const [dashboardId, setDashboardId] = useState<string | null>(initialDashboardId);
  const submit = useToastSubmit();
  const [tabId, setTabId] = useState<string | null>(null);
  // Unsaved widgets: another dashboard or tab, the sidebar, back and reload ask first, as in Configure.
  const unsaved = useUnsavedGuard();
  const shown = items.find((d) => d.id === dashboardId) ?? items[0];
  // While widgets are unsaved, their save names the version the edit began on (stores/dashboardSave.ts).
  useHeldBase(shown, unsaved.length > 0);
  if (status === 'idle' || (status === 'loading' && items.length === 0)) return <Card><Skeleton active /></Card>;
  if (items.length === 0) return <EmptyState title="No Dashboards Available" text="Create a dashboard first (or start one from a template) to add widgets." />;
  const dashboard = items.find((d) => d.id === dashboardId) ?? items[0];
  const tabs = dashboard.configuration.tabs;
  const tab = tabs.find((t) => t.id === tabId) ?? tabs[0];
  return (
    <Flex vertical gap={16} data-testid="widgets-screen">
      <div>
        <Typography.Title level={3} style={{ marginTop: 0 }}>Widgets</Typography.Title>
        <Typography.Paragraph type="secondary">
          KPI tiles, bar, donut and line charts, tables and bucket boards on a tab's grid. They update live on the published dashboard.
        </Typography.Paragraph>
      </div>
      <Flex gap={16} wrap align="center">
        <Select
          aria-label="Dashboard"
          style={{ minWidth: 260 }}
          value={dashboard.id}
          onChange={(id) => guardedLeave(() => {
            setDashboardId(id);
            setTabId(null);
          })}
          // Each dashboard with its widget count: the ones still to build read "no widgets yet".
          options={items.map((d) => ({ value: d.id, label: `${d.name} · ${widgetCount(d)}` }))}
        />
        {tabs.length > 0 && <Segmented aria-label="Tab" value={tab?.id} onChange={(id) => guardedLeave(() => setTabId(String(id)))} options={tabs.map((t) => ({ value: t.id, label: t.name }))} />}
      </Flex>
      {!tab ? (
        <Flex vertical align="start" gap={8} data-testid="widgets-no-tab">
          <Typography.Text>This dashboard has no tab yet: widgets sit on a tab.</Typography.Text>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void submit.run(() => withTab(dashboard), { failure: 'Error' })}>Add a tab and build it</Button>
        </Flex>
      ) : !dashboard.dataSourceId ? (
        <EmptyState title="No data source" text="Link this dashboard to a data source to build widgets from its records." />
      ) : (
        <WidgetBuilder key={`${dashboard.id}/${tab.id}`} dashboard={dashboard} tab={tab} />
      )}
      <VersionConflictDialog discardEdits={discardUnsaved} />
    </Flex>
  );
}
