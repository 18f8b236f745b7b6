import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Dropdown, Empty, Flex } from 'antd';
import { useMemo, useState } from 'react';
import type { DashboardDto, DashboardTab, Widget } from '@common/schemas/dashboard';
import { WIDGET_TYPES, type WidgetType } from '@common/schemas/widgets/widget';
import { GridWidget } from '../../public/viewer/TabContent';
import { rowsHeight } from '../../public/viewer/widgets/WidgetGrid';
import { WidgetContext, storeFeed } from '../../public/viewer/widgets/widgetContext';
import { useSaveTabs } from '../configure/useSaveTabs';
import { SaveBar } from '../configure/SaveBar';
import { useReportUnsaved } from '../configure/unsavedEdits';
import { useDataSources, useSourceTyping } from '../stores/dataSources';
import { pickerFields } from '../ui/FieldSelect';
import { BuilderGrid } from './BuilderGrid';
import { PreviewError, PreviewSummary, usePreviewFields } from './preview/PreviewHeader';
import { useLivePreview } from './preview/usePreviewRecords';
import { TYPE_LABELS, duplicateWidget, newWidget, widgetProblems } from './widgetDrafts';
import { WidgetEditor } from './WidgetEditor';
import { AlertForm, type AlertSeed } from '../alerts/AlertForm';
import { useToast } from '../ui/toast';
import { useSubmit } from '../../api/useSubmit';
import { useDraft } from '../ui/useDraft';

/**
 * Builds a tab's widgets: add, edit, duplicate and remove them, lay them out on the grid, and save
 * the tab (PATCH /api/admin/dashboards/:id). Every widget — KPIs, charts, tables and bucket boards —
 * draws from the live preview of the source's records (usePreviewRecords.ts), as on the viewer.
 */
export function WidgetBuilder({ dashboard, tab }: { dashboard: DashboardDto; tab: DashboardTab }) {
  const saveTabs = useSaveTabs(dashboard);
  const source = useDataSources((s) => s.items.find((d) => d.id === dashboard.dataSourceId));
  const preview = useLivePreview(dashboard.dataSourceId);
  const saved = JSON.stringify(tab.widgets);
  // Another tab starts from its saved widgets; a save pushed from elsewhere replaces the draft only while it is unedited.
  const edits = useDraft<Widget[]>(saved, tab.id);
  const { draft, setDraft, dirty } = edits;
  const [editing, setEditing] = useState<string | null>(null);
  // The save says its outcome itself (useSaveTabs): this gives the busy flag and one save at a time.
  const submit = useSubmit();
  const [tried, setTried] = useState(false);
  const [alertSeed, setAlertSeed] = useState<AlertSeed | null>(null);
  const toast = useToast();

  const keyMappings = useMemo(() => ({ ...(source?.keyMappings ?? {}), ...dashboard.configuration.keyMappings }), [source, dashboard.configuration.keyMappings]);
  const typing = useSourceTyping(source);
  const timeField = source?.timeField ?? null;
  const env = useMemo(() => ({ feed: storeFeed(preview.store), keyMappings, typing, timeField, dark: false, tv: false }), [preview, keyMappings, typing, timeField]);
  const previewFields = usePreviewFields(preview);
  // The source's fields and the type model's paths, plus any a preview record holds (custom fields).
  const sourceFields = source?.fields;
  const fields = useMemo(() => pickerFields([...new Set([...(sourceFields ?? []), ...previewFields])], typing), [sourceFields, previewFields, typing]);
  const discard = () => {
    edits.discard();
    setEditing(null);
    setTried(false);
  };
  // Widgets and their layout are saved as every editor is: Save widgets, and every way out asks first.
  useReportUnsaved(`${tab.id}:widgets`, tab.name, dirty, discard);
  const problems = draft.map((w) => ({ w, p: Object.values(widgetProblems(w, { records: env.feed.get().records.values(), dateOrder: typing.dateOrder })) })).filter((x) => x.p.length > 0);

  const add = (type: WidgetType) => {
    const w = newWidget(type, draft, timeField);
    setDraft([...draft, w]);
    setEditing(w.id);
  };
  const save = async (message?: string) => {
    setTried(true);
    if (problems.length) return;
    const tabs = dashboard.configuration.tabs.map((t) => (t.id === tab.id ? { ...t, widgets: draft } : t));
    await submit.run(() => saveTabs(tabs, 'Widgets saved', { optimistic: false, message }));
    setTried(false);
  };
  // As on the viewer's grid (TabContent): the card's toolbar above it takes no grid row.
  const render = (w: Widget) => <GridWidget widget={w} height={rowsHeight(w.layout?.h ?? 4)} />;

  return (
    <WidgetContext.Provider value={env}>
      <Flex vertical gap={12} data-testid="widget-builder">
        <Flex gap={8} wrap align="center">
          <Dropdown menu={{ items: WIDGET_TYPES.map((t) => ({ key: t, label: TYPE_LABELS[t] })), onClick: ({ key }) => add(key as WidgetType) }}>
            <Button type="primary" icon={<PlusOutlined />}>Add widget</Button>
          </Dropdown>
          <SaveBar dirty={dirty} saving={submit.busy} onSave={(m) => void save(m)} onDiscard={discard} saveLabel="Save widgets" />
          <PreviewSummary preview={preview} sourceName={source?.name ?? dashboard.dataSourceName ?? 'the data source'} />
        </Flex>
        <PreviewError preview={preview} />
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
        onAlert={(w) => {
          // The rule ties to the saved tile: a new or changed widget is saved first.
          if (dirty) return toast.error('Save the widgets first', 'An alert is tied to the saved widget: save your changes, then add the alert.');
          const c = w.configuration as { metric?: AlertSeed['metric']; valueField?: string; dateField?: string; filters?: AlertSeed['filters']; range?: AlertSeed['range'] };
          setAlertSeed({
            name: w.name || 'KPI alert', dataSourceId: dashboard.dataSourceId ?? undefined, metric: c.metric, valueField: c.valueField, dateField: c.dateField, filters: c.filters, range: c.range,
            widget: { dashboardId: dashboard.id, widgetId: w.id },
          });
        }}
      />
      {alertSeed && <AlertForm seed={alertSeed} onClose={() => setAlertSeed(null)} onSaved={() => toast.success('Alert created', 'Its state shows on the tile to every viewer.')} />}
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
