import type { Widget } from '@common/schemas/dashboard';
import { CHART_CONFIGS, type ChartConfigs, type ChartWidgetType, isChartWidgetType, type Metric } from '@common/schemas/widget';
import { aggregateSpec, comparison as compare, readsTime, type Aggregator, type Comparison } from '@common/widgets/aggregate';
import { spansYears, type TimeBucket } from '@common/timeRanges';
import { fieldTypeOf, type FieldTyping } from '@common/types/fieldTyping';
import type { StackedGroups } from '@common/widgets/groups';
import { useAggregator } from './widgetTotals';
import { useWidgetEnv } from './widgetContext';

/** A chart widget's numbers; `counting` while the first count of a large store is under way. */
export type WidgetData = { counting: boolean } & (
  | { type: 'kpi'; config: ChartConfigs['kpi']; value: number | null; count: number; comparison: Comparison | null; spark: Series | null }
  | { type: 'bar' | 'donut'; config: ChartConfigs['bar'] | ChartConfigs['donut']; rows: { key: string; value: number }[]; stacked?: StackedGroups }
  | ({ type: 'line'; config: ChartConfigs['line'] } & Series)
);
export type Series = ReturnType<Aggregator['series']>;

/** A chart widget's configuration, or the first problem that keeps it from being drawn; `timeField` is the source's (the default date field). */
export function parseChartWidget(widget: Pick<Widget, 'type' | 'configuration'>, timeField?: string | null):
  | { ok: true; type: ChartWidgetType; config: ChartConfigs[ChartWidgetType] }
  | { ok: false; message: string } {
  if (!isChartWidgetType(widget.type)) return { ok: false, message: `Unknown widget type "${widget.type}"` };
  const parsed = CHART_CONFIGS[widget.type].safeParse(widget.configuration ?? {});
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'Incomplete widget' };
  const config = parsed.data as ChartConfigs[ChartWidgetType];
  if (readsTime(widget.type, config) && !(config as { dateField?: string }).dateField && !timeField) {
    return { ok: false, message: 'Pick a date field (the source has no time field)' };
  }
  return { ok: true, type: widget.type, config };
}

/** The part of the type model a widget reads (its filter's field; the day/month order of its dates), so its spec stays small. */
function specTyping(typing: FieldTyping, config: ChartConfigs[ChartWidgetType]): FieldTyping {
  const field = config.filter?.field;
  const type = field ? fieldTypeOf(typing, field) : undefined;
  return { fieldTypes: field && type ? { [field]: type } : {}, dateOrder: typing.dateOrder };
}

/** The live aggregated numbers of a chart widget (recomputed record by record as the feed changes, and as a relative range slides). */
export function useWidgetData(type: ChartWidgetType, config: ChartConfigs[ChartWidgetType]): WidgetData {
  const { typing, timeField } = useWidgetEnv();
  const { aggregator, counting } = useAggregator(aggregateSpec(type, config, specTyping(typing, config), timeField));
  switch (type) {
    case 'kpi': {
      const c = config as ChartConfigs['kpi'];
      const value = aggregator.value();
      const comparison = c.compare ? compare(value, aggregator.previous()) : null;
      return { counting, type, config: c, value, count: aggregator.size, comparison, spark: c.sparkline ? aggregator.series() : null };
    }
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
    case 'line':
      return { counting, type, config: config as ChartConfigs['line'], ...aggregator.series() };
  }
}

const fmt = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', o);
const TIME = { hour: '2-digit', minute: '2-digit', hour12: false } as const;
const DAY = { month: 'short', day: 'numeric' } as const;
/** Bucket labels without and with the year. */
const DATE_FORMATS: Record<Exclude<TimeBucket, 'quarter'>, [Intl.DateTimeFormat, Intl.DateTimeFormat]> = {
  minute: [fmt(TIME), fmt({ year: 'numeric', ...DAY, ...TIME })],
  hour: [fmt({ ...DAY, ...TIME }), fmt({ year: 'numeric', ...DAY, ...TIME })],
  day: [fmt(DAY), fmt({ year: 'numeric', ...DAY })],
  week: [fmt(DAY), fmt({ year: 'numeric', ...DAY })],
  month: [fmt({ month: 'short' }), fmt({ month: 'short', year: 'numeric' })],
  year: [fmt({ year: 'numeric' }), fmt({ year: 'numeric' })],
};

/**
 * The label of a bucket of a chart over time ("Mar 4", "Week of Mar 2", "14:05", "Q1", "1998");
 * `year` adds the year ("Mar 4, 2026", "Jan 1998", "Q1 2024") — on the axis when the chart spans
 * years, always in its table.
 */
export function intervalLabel(start: number, bucket: TimeBucket, year = false): string {
  if (bucket === 'quarter') {
    const d = new Date(start);
    return `Q${Math.floor(d.getMonth() / 3) + 1}${year ? ` ${d.getFullYear()}` : ''}`;
  }
  const text = DATE_FORMATS[bucket][year ? 1 : 0].format(start);
  return bucket === 'week' ? `Week of ${text}` : text;
}

/** Whether a series' labels need the year (it crosses a new year). */
export const seriesSpansYears = (rows: { start: number }[]): boolean => rows.length > 0 && spansYears(rows[0].start, rows[rows.length - 1].start + 1);

const METRIC_WORDS: Record<Exclude<Metric, 'count' | 'perMinute' | 'perHour'>, string> = { sum: 'Sum', avg: 'Average', min: 'Minimum', max: 'Maximum', distinct: 'Distinct values', latest: 'Latest' };
/** What a widget's number is: "Count", "Sum of Amount", "Records per hour". */
export function metricLabel(c: { metric: Metric; valueField?: string }, label: (field: string | undefined) => string): string {
  if (c.metric === 'count') return 'Count';
  if (c.metric === 'perMinute') return 'Records per minute';
  if (c.metric === 'perHour') return 'Records per hour';
  return `${METRIC_WORDS[c.metric]} of ${label(c.valueField)}`;
}

/** The widget's numbers as a table (header row first): what its CSV holds and screen readers read. */
export function widgetTable(data: WidgetData, label: (field: string | undefined) => string): string[][] {
  const c = data.config;
  const metric = metricLabel(c, label);
  switch (data.type) {
    case 'kpi': {
      const value = data.value === null ? '' : String(data.value);
      if (!data.comparison) return [[metric], [value]];
      return [[metric, 'Previous period'], [value, data.comparison.previous === null ? '' : String(data.comparison.previous)]];
    }
    case 'bar':
    case 'donut': {
      const s = data.stacked;
      if (s) return [[label(data.config.groupField), ...s.stacks.map((x) => x.key), metric], ...s.categories.map((c, i) => [c, ...s.stacks.map((x) => String(x.values[i])), String(data.rows[i].value)])];
      return [[label(data.config.groupField), metric], ...data.rows.map((r) => [r.key, String(r.value)])];
    }
    // Buckets as the chart's axis names them ("Mar 4"), with the year: a screen reader reads no ISO timestamps.
    case 'line': return [[label(data.config.dateField), metric], ...data.rows.map((r) => [intervalLabel(r.start, data.bucket, true), String(r.value)])];
  }
}
