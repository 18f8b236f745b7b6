import { PlusOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Dropdown, Empty, Flex, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { DashboardDto, DashboardTab, Widget } from '@common/schemas/dashboard';
import { WIDGET_TYPES, isChartWidgetType, type WidgetType } from '@common/schemas/widget';
import { ChartWidget, WidgetFrame } from '../../public/viewer/widgets/ChartWidget';
import { WidgetContext, listFeed } from '../../public/viewer/widgets/widgetContext';
import { useSaveTabs } from '../configure/useSaveTabs';
import { useDataSources } from '../stores/dataSources';
import { BuilderGrid } from './BuilderGrid';
import { usePreviewRecords } from './usePreviewRecords';
import { TYPE_LABELS, duplicateWidget, newWidget, recordFields, widgetProblems } from './widgetDrafts';
import { WidgetEditor } from './WidgetEditor';

/**
 * Builds a tab's widgets: add, edit, duplicate and remove them, lay them out on the grid, and save
 * the tab (PATCH /api/admin/dashboards/:id). The widgets draw live from the source's records.
 */
export function WidgetBuilder({ dashboard, tab }: { dashboard: DashboardDto; tab: DashboardTab }) {
  const saveTabs = useSaveTabs(dashboard);
  const source = useDataSources((s) => s.items.find((d) => d.id === dashboard.dataSourceId));
  const preview = usePreviewRecords(dashboard.dataSourceId);
  const [draft, setDraft] = useState<Widget[]>(tab.widgets);
  const [editing, setEditing] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [tried, setTried] = useState(false);
  const saved = JSON.stringify(tab.widgets);
  // Another tab, or the saved widgets changed elsewhere: start from them.
  useEffect(() => setDraft(JSON.parse(saved) as Widget[]), [tab.id, saved]);

  const keyMappings = useMemo(() => ({ ...(source?.keyMappings ?? {}), ...dashboard.configuration.keyMappings }), [source, dashboard.configuration.keyMappings]);
  const env = useMemo(() => ({ feed: listFeed(preview.records), keyMappings, dark: false, tv: false }), [preview.records, keyMappings]);
  const fields = useMemo(() => recordFields(preview.records), [preview.records]);
  const dirty = JSON.stringify(draft) !== saved;
  const problems = draft.map((w) => ({ w, p: Object.values(widgetProblems(w)) })).filter((x) => x.p.length > 0);

  const add = (type: WidgetType) => {
    const w = newWidget(type, draft);
    setDraft([...draft, w]);
    setEditing(w.id);
  };
  const save = async () => {
    setTried(true);
    if (problems.length) return;
    setSaving(true);
    const tabs = dashboard.configuration.tabs.map((t) => (t.id === tab.id ? { ...t, widgets: draft } : t));
    await saveTabs(tabs, 'Widgets saved');
    setSaving(false);
    setTried(false);
  };
  const render = (w: Widget) =>
    isChartWidgetType(w.type) ? <ChartWidget widget={w} /> : (
      <WidgetFrame title={w.name || w.id}>
        <Typography.Text type="secondary">{TYPE_LABELS[w.type as WidgetType] ?? 'Bucket board'} of the records — shown in full on the published dashboard.</Typography.Text>
      </WidgetFrame>
    );

  return (
    <WidgetContext.Provider value={env}>
      <Flex vertical gap={12} data-testid="widget-builder">
        <Flex gap={8} wrap align="center">
          <Dropdown menu={{ items: WIDGET_TYPES.map((t) => ({ key: t, label: TYPE_LABELS[t] })), onClick: ({ key }) => add(key as WidgetType) }}>
            <Button type="primary" icon={<PlusOutlined />}>Add widget</Button>
          </Dropdown>
          <Button icon={<SaveOutlined />} onClick={save} loading={saving} disabled={!dirty}>Save widgets</Button>
          <Button icon={<UndoOutlined />} onClick={() => setDraft(JSON.parse(saved) as Widget[])} disabled={!dirty}>Discard changes</Button>
          <Typography.Text type="secondary" style={{ marginLeft: 'auto' }}>
            {preview.loading ? 'Loading the preview…' : `Preview with ${preview.records.length.toLocaleString()} of ${preview.total.toLocaleString()} records of ${source?.name ?? dashboard.dataSourceName ?? 'the data source'}`}
          </Typography.Text>
        </Flex>
        {preview.error && <Alert type="error" showIcon title="Could not load the preview records" description={preview.error} />}
        {tried && problems.length > 0 && (
          <Alert
            type="error"
            showIcon
            data-testid="widget-problems"
            title="Complete these widgets before saving"
            description={<ul style={{ margin: 0, paddingLeft: 18 }}>{problems.map(({ w, p }) => <li key={w.id}>{w.name || w.id}: {p.join('; ')}</li>)}</ul>}
          />
        )}
        {draft.length === 0 ? (
          <Card><Empty description="No widgets yet - add a KPI tile, a chart, a table or a bucket board." /></Card>
        ) : (
          <BuilderGrid
            widgets={draft}
            render={render}
            onLayout={(layouts) => setDraft((ws) => ws.map((w) => (layouts[w.id] ? { ...w, layout: layouts[w.id] } : w)))}
            onEdit={setEditing}
            onDuplicate={(id) => setDraft((ws) => [...ws, duplicateWidget(ws.find((w) => w.id === id)!, ws)])}
            onRemove={(id) => setDraft((ws) => ws.filter((w) => w.id !== id))}
          />
        )}
      </Flex>
      <WidgetEditor
        widget={draft.find((w) => w.id === editing) ?? null}
        fields={fields}
        label={(f) => keyMappings[f] ?? f}
        onChange={(next) => setDraft((ws) => ws.map((w) => (w.id === next.id ? next : w)))}
        onClose={() => setEditing(null)}
      />
    </WidgetContext.Provider>
  );
}

/** The first widget of a tab built with widgets: a record count, complete as it is. */
export const starterWidget = (): Widget => newWidget('kpi', []);

/** Under the style choice of a new tab: build the tab with widgets instead. */
export function WidgetsChoice({ onChoose }: { onChoose(): void }) {
  return (
    <Flex justify="center">
      <Button type="link" icon={<PlusOutlined />} onClick={onChoose}>Or build this tab with widgets (KPI tiles and charts)</Button>
    </Flex>
  );
}
