import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import type { PublicTabDto, TabConfiguration, Widget } from '@common/schemas/dashboard';
import { isChartWidgetType } from '@common/schemas/widgets/widget';
import { EmptyText } from './EmptyText';
import { Card, Empty, SkeletonLines } from './ui/kit';
import { ChartWidget, WidgetFrame } from './widgets/charts/ChartWidget';
import { WidgetGrid } from './widgets/WidgetGrid';
import { useWidgetEnv, WidgetContext } from './widgets/widgetContext';

// A table (its table engine and virtual scroller) and a bucket board load when a tab shows one: a
// dashboard of charts never downloads them. Both are drawn with antd, which comes with them.
const antd = () => import('./lazy/ViewerAntd');
const TableView = lazy(() => Promise.all([import('./table/TableView'), antd()]).then(([m, t]) => ({ default: t.withViewerAntd(m.TableView) })));
const BucketView = lazy(() => Promise.all([import('./buckets/BucketView'), antd()]).then(([m, t]) => ({ default: t.withViewerAntd(m.BucketView) })));

/** A widget that opts out of the dashboard's filter bar reads every record. */
function WidgetFeed({ widget, children }: { widget: Widget; children: ReactNode }) {
  const env = useWidgetEnv();
  const all = useMemo(() => ({ ...env, feed: env.unfiltered ?? env.feed, narrowing: env.narrowing && { ...env.narrowing, bar: [] } }), [env]);
  if (!widget.ignoreDashboardFilters || !env.unfiltered) return children;
  return <WidgetContext.Provider value={all}>{children}</WidgetContext.Provider>;
}

/** One view of the records: "table" is a table, any other type a bucket board. */
function View({ type, configuration, height }: { type: string | null; configuration: TabConfiguration; height?: number }) {
  return (
    <Suspense fallback={<SkeletonLines />}>
      {type === 'table' ? <TableView configuration={configuration} height={height} /> : <BucketView configuration={configuration} />}
    </Suspense>
  );
}

/**
 * A widget in its grid cell: a KPI or chart, or a table or bucket board scrolling inside its card
 * (the viewer's grid and the widget builder's preview draw widgets with this).
 */
export function GridWidget({ widget, height }: { widget: Widget; height: number }) {
  if (isChartWidgetType(widget.type)) return <WidgetFeed widget={widget}><ChartWidget widget={widget} /></WidgetFeed>;
  return (
    <WidgetFrame title={widget.name || widget.id}>
      <div style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
        <WidgetFeed widget={widget}>
          <View type={widget.type === 'table' ? 'table' : 'bucket'} configuration={widget.configuration ?? {}} height={Math.max(200, height - 150)} />
        </WidgetFeed>
      </div>
    </WidgetFrame>
  );
}

/** A tab: its visible widgets, or — without widgets — the tab itself by its own type. */
export function TabContent({ tab }: { tab: PublicTabDto }) {
  const { tv } = useWidgetEnv();
  if (tab.widgets.length === 0) return <View type={tab.type ?? 'table'} configuration={tab.configuration ?? {}} />;
  const visible = tab.widgets.filter((w) => w.visible !== false);
  if (visible.length === 0) {
    return (
      <Card>
        <Empty><EmptyText title="No Widgets" text="This tab has no visible widgets configured." /></Empty>
      </Card>
    );
  }
  // Tables and bucket boards never laid out on the grid stack at their natural height, as before widgets had layouts.
  if (visible.every((w) => !w.layout && !isChartWidgetType(w.type))) {
    return (
      <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
        {visible.map((w) => (
          <Card key={w.id} title={w.name || w.id} data-testid="widget" bodyStyle={{ padding: 12 }}>
            <WidgetFeed widget={w}>
              <View type={w.type === 'table' ? 'table' : 'bucket'} configuration={w.configuration ?? {}} />
            </WidgetFeed>
          </Card>
        ))}
      </div>
    );
  }
  return <WidgetGrid widgets={visible} fill={tv} render={(w, height) => <GridWidget widget={w} height={height} />} />;
}
