import { Button, Flex, Result, Skeleton, Tag, Typography } from 'antd';
import { CloseOutlined, DatabaseOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import type { DashboardTab, TabConfiguration, TabStyle } from '@common/schemas/dashboard';
import { StatusTag } from '../dashboards/StatusTag';
import { guardedLeave } from '../../leaveGuard';
import { useIsPhone } from '../shell/useSidebarState';
import { useDashboards } from '../stores/dashboards';
import { useDataSources } from '../stores/dataSources';
import { EmptyState } from '../ui/States';
import { FiltersEditor } from './FiltersEditor';
import { BucketStyleEditor } from './bucket/BucketStyleEditor';
import { StyleChooser, StyleSwitch } from './StyleChooser';
import { TabStrip } from './TabStrip';
import { TableStyleEditor } from './table/TableStyleEditor';
import { discardUnsaved, useUnsavedGuard } from './unsavedEdits';
import { useHeldBase } from '../stores/dashboardSave';
import { VersionConflictDialog } from '../ui/versions/VersionConflictDialog';
import { VersionHistory } from '../ui/versions/VersionHistory';
import { nextTab, useSaveTabs } from './useSaveTabs';
import { WidgetBuilder, WidgetsChoice, starterWidget } from '../widgets/WidgetBuilder';

/** The full-screen configuration editor of one dashboard. */
export function ConfigEditor({ dashboardId, onClose }: { dashboardId: string; onClose(): void }) {
  const dashboard = useDashboards((s) => s.items.find((d) => d.id === dashboardId));
  const status = useDashboards((s) => s.status);
  const source = useDataSources((s) => s.items.find((d) => d.id === dashboard?.dataSourceId));
  const saveTabs = useSaveTabs(dashboard);
  const tabs = dashboard?.configuration.tabs ?? [];
  const [activeId, setActiveId] = useState<string | null>(null);
  const active = tabs.find((t) => t.id === activeId) ?? tabs[0] ?? null;
  // Every way out (Close, Escape, sidebar, back button, another tab, reload) asks while an edit is unsaved.
  const unsaved = useUnsavedGuard();
  // While an edit is unsaved, saves name the version it began on: someone else's save in between is refused and shown (stores/dashboardSave.ts).
  useHeldBase(dashboard, unsaved.length > 0);
  const phone = useIsPhone();

  useEffect(() => {
    // Escape from anywhere but a field, an open dialog or the widget panel (those use Escape themselves).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      const t = e.target as HTMLElement | null;
      if (t && t !== document.body && (t.closest('input, textarea, select, [contenteditable], .ant-modal, .ant-select-dropdown, .ant-drawer') || t.isContentEditable)) return;
      if (document.querySelector('.ant-modal-wrap:not([style*="display: none"]) .ant-modal, .ant-drawer-open')) return;
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const replaceTab = (id: string, change: (t: DashboardTab) => DashboardTab, toast?: string, message?: string) =>
    saveTabs(tabs.map((t) => (t.id === id ? change(t) : t)), toast, { message });
  const setConfig = (id: string, config: TabConfiguration, toast?: string, message?: string) =>
    replaceTab(id, (t) => ({ ...t, configuration: config }), toast, message);
  const chooseStyle = (style: TabStyle) => {
    if (!active) return;
    // Choosing table resets the columns (they are picked again for the new style); bucket settings stay for a later switch back.
    return replaceTab(active.id, (t) => ({ ...t, style, configuration: style === 'table' ? { ...t.configuration, columns: [] } : t.configuration }));
  };

  let canvas: React.ReactNode;
  if (!dashboard) {
    canvas = status === 'ready' || status === 'error'
      ? <Result status="404" title="Dashboard Not Found" subTitle="It may have been deleted." extra={<Button onClick={onClose}>Back to dashboards</Button>} />
      : <Skeleton active />;
  } else if (!active) {
    canvas = <EmptyState title="No tabs" text="Add a tab to start configuring this dashboard." />;
  } else if (active.widgets.length > 0) {
    canvas = <WidgetBuilder key={active.id} dashboard={dashboard} tab={active} />;
  } else if (!active.style) {
    canvas = <><StyleChooser tabName={active.name} onChoose={(s) => void chooseStyle(s)} /><WidgetsChoice onChoose={() => void replaceTab(active.id, (t) => ({ ...t, widgets: [starterWidget()] }))} /></>;
  } else {
    const editor = active.style === 'table'
      ? <TableStyleEditor key={active.id} tab={active} dataSourceId={dashboard.dataSourceId} onConfig={(c, t, m) => setConfig(active.id, c, t, m)} />
      : <BucketStyleEditor key={active.id} tab={active} dataSource={source ?? null} onConfig={(c, t, m) => setConfig(active.id, c, t, m)} />;
    canvas = (
      <Flex vertical gap={12}>
        <StyleSwitch tab={active} onSwitch={(s) => guardedLeave(() => void chooseStyle(s))} />
        {editor}
      </Flex>
    );
  }

  const pad = phone ? '12px' : '12px 24px';
  return (
    <div
      data-testid="config-editor"
      style={{ position: 'fixed', inset: 0, zIndex: 900, background: '#f5f7fb', display: 'flex', flexDirection: 'column' }}
    >
      <Flex justify="space-between" align="center" gap={8} style={{ padding: pad, background: '#fff', borderBottom: '1px solid #f0f0f0' }}>
        <div style={{ minWidth: 0 }}>
          <Flex align="center" gap={8} wrap>
            <Typography.Title level={4} style={{ margin: 0 }} ellipsis data-testid="config-editor-title">{dashboard?.name ?? 'Dashboard'}</Typography.Title>
            {dashboard && <StatusTag isPublished={dashboard.isPublished} />}
            {unsaved.length > 0 && <Tag color="orange" data-testid="unsaved-tag">Unsaved changes</Tag>}
          </Flex>
          <Typography.Text type="secondary" ellipsis style={{ maxWidth: '100%' }}>
            <DatabaseOutlined /> {dashboard?.dataSourceName ?? source?.name ?? 'No data source'}
            {active?.style && <Tag style={{ marginLeft: 8 }}>{active.style === 'table' ? 'Table Style' : 'Bucket Style'}</Tag>}
          </Typography.Text>
        </div>
        <Flex gap={8} align="center">
          {dashboard && <VersionHistory dashboard={dashboard} compact={phone} />}
          {dashboard && <FiltersEditor dashboard={dashboard} source={source ?? null} />}
          <Button icon={<CloseOutlined />} onClick={onClose} aria-label="Close">{phone ? null : 'Close'}</Button>
        </Flex>
      </Flex>
      {dashboard && (
        <div style={{ padding: pad, background: '#fff', borderBottom: '1px solid #f0f0f0' }}>
          <TabStrip
            tabs={tabs}
            activeId={active?.id ?? null}
            onSelect={(id) => id !== active?.id && guardedLeave(() => setActiveId(id))}
            onRename={(id, name) => void replaceTab(id, (t) => ({ ...t, name }))}
            onDelete={(id) => void saveTabs(tabs.filter((t) => t.id !== id))}
            onAdd={() =>
              guardedLeave(() => {
                const tab = nextTab(tabs);
                setActiveId(tab.id);
                void saveTabs([...tabs, tab]);
              })}
          />
        </div>
      )}
      <div style={{ flex: 1, overflow: 'auto', padding: phone ? 12 : 24 }}>{canvas}</div>
      <VersionConflictDialog discardEdits={discardUnsaved} />
    </div>
  );
}
