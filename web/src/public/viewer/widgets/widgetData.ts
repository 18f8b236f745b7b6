import type { Widget } from '@common/schemas/dashboard';
import { CHART_CONFIGS, type ChartConfigs, type ChartWidgetType, isChartWidgetType } from '@common/schemas/widget';
import { aggregateSpec } from '@common/widgets/aggregate';
import { fieldTypeOf, type FieldTyping } from '@common/types/fieldTyping';
import type { StackedGroups } from '@common/widgets/groups';
import { useAggregator } from './widgetTotals';
import { useWidgetEnv } from './widgetContext';

/** A chart widget's numbers; `counting` while the first count of a large store is under way. */
export type WidgetData = { counting: boolean } & (
  | { type: 'kpi'; config: ChartConfigs['kpi']; value: number | null; count: number }
  | { type: 'bar' | 'donut'; config: ChartConfigs['bar'] | ChartConfigs['donut']; rows: { key: string; value: number }[]; stacked?: StackedGroups }
  | { type: 'line'; config: ChartConfigs['line']; rows: { start: number; value: number }[] }
);

/** A chart widget's configuration, or the first problem that keeps it from being drawn. */
export function parseChartWidget(widget: Pick<Widget, 'type' | 'configuration'>):
  | { ok: true; type: ChartWidgetType; config: ChartConfigs[ChartWidgetType] }
  | { ok: false; message: string } {
  if (!isChartWidgetType(widget.type)) return { ok: false, message: `Unknown widget type "${widget.type}"` };
  const parsed = CHART_CONFIGS[widget.type].safeParse(widget.configuration ?? {});
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'Incomplete widget' };
  return { ok: true, type: widget.type, config: parsed.data };
}

/** The part of the type model a widget reads (its filter's field; the day/month order of its dates), so its spec stays small. */
function specTyping(typing: FieldTyping, config: ChartConfigs[ChartWidgetType]): FieldTyping {
  const field = config.filter?.field;
  const type = field ? fieldTypeOf(typing, field) : undefined;
  return { fieldTypes: field && type ? { [field]: type } : {}, dateOrder: typing.dateOrder };
}

/** The live aggregated numbers of a chart widget (recomputed record by record as the feed changes). */
export function useWidgetData(type: ChartWidgetType, config: ChartConfigs[ChartWidgetType]): WidgetData {
  const { typing } = useWidgetEnv();
  const { aggregator, counting } = useAggregator(aggregateSpec(type, config, specTyping(typing, config)));
  switch (type) {
    case 'kpi': return { counting, type, config: config as ChartConfigs['kpi'], value: aggregator.value(), count: aggregator.size };
    case 'bar':
    case 'donut': {
      const c = config as ChartConfigs['bar'];
      if (type === 'bar' && c.stackField) {
        const stacked = aggregator.stacked(c.topN, c.order);
        const rows = stacked.categories.map((key, i) => ({ key, value: stacked.stacks.reduce((sum, s) => sum + s.values[i], 0) }));
        return { counting, type, config: c, rows, stacked };
      }
      return { counting, type, config: c, rows: aggregator.top(c.topN, c.order) };
    }
    case 'line': {
      const c = config as ChartConfigs['line'];
      return { counting, type, config: c, rows: aggregator.series(c.points, Date.now()) };
    }
  }
}

const DATE_FORMATS = {
  minute: new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: false }),
  hour: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }),
  day: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }),
  week: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }),
};
const FULL_DATE_FORMATS = {
  minute: new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }),
  hour: new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }),
  day: new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
  week: new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
};

/** The label of an interval of a line chart ("Mar 4", "Week of Mar 2", "14:05"); `full` adds the date and year ("Mar 4, 2026"). */
export function intervalLabel(start: number, interval: ChartConfigs['line']['interval'], full = false): string {
  const text = (full ? FULL_DATE_FORMATS : DATE_FORMATS)[interval].format(start);
  return interval === 'week' ? `Week of ${text}` : text;
}

/** The widget's numbers as a table (header row first): what its CSV holds and screen readers read. */
export function widgetTable(data: WidgetData, label: (field: string | undefined) => string): string[][] {
  const c = data.config;
  const metric = c.metric === 'count' ? 'Count' : `${{ sum: 'Sum', avg: 'Average', min: 'Minimum', max: 'Maximum' }[c.metric]} of ${label(c.valueField)}`;
  switch (data.type) {
    case 'kpi': return [[metric], [data.value === null ? '' : String(data.value)]];
    case 'bar':
    case 'donut': {
      const s = data.stacked;
      if (s) return [[label(data.config.groupField), ...s.stacks.map((x) => x.key), metric], ...s.categories.map((c, i) => [c, ...s.stacks.map((x) => String(x.values[i])), String(data.rows[i].value)])];
      return [[label(data.config.groupField), metric], ...data.rows.map((r) => [r.key, String(r.value)])];
    }
    // Intervals as the chart's axis names them ("Mar 4"), with the year: a screen reader reads no ISO timestamps.
    case 'line': return [[label(data.config.dateField), metric], ...data.rows.map((r) => [intervalLabel(r.start, data.config.interval, true), String(r.value)])];
  }
}
