import type { Widget } from '@common/schemas/dashboard';
import { ADDITIVE_METRICS, CHART_CONFIGS, METRIC_LABELS, type ChartConfigs, type ChartWidgetType, isChartWidgetType, type Metric } from '@common/schemas/widgets/widget';
import { aggregateSpec, readsTime, type Aggregator, type LineSeries } from '@common/widgets/aggregate';
import { kpiComparison, type KpiComparison } from '@common/widgets/kpiComparison';
import { spansYears, type TimeBucket } from '@common/time/timeRanges';
import { fieldTypeOf, type FieldTyping } from '@common/types/fieldTyping';
import type { GroupRow, SplitGroups } from '@common/widgets/charts/groups';
import { drawnNumber } from './numbers/drawnNumber';
import { autoBinWidth, binStart, continuousBins, numberSpan } from '@common/widgets/charts/bins';
import { percentOfGoal } from '@common/widgets/charts/gauge';
import { emptyValueOf, numberLine, type NumberLine } from '@common/widgets/charts/numberAxis';
import { scatterPoints, type ScatterData } from '@common/widgets/charts/scatter';
import { useMemo } from 'react';
import { useAggregator } from './widgetTotals';
import { useFeedVersion, useWidgetEnv } from './widgetContext';

/** A chart widget's numbers; `counting` while the first count of a large store is under way. */
export type WidgetData = { counting: boolean } & (
  | { type: 'kpi'; config: ChartConfigs['kpi']; value: number | null; count: number; comparison: KpiComparison | null; spark: Series | null }
  | { type: 'bar' | 'donut'; config: ChartConfigs['bar'] | ChartConfigs['donut']; rows: GroupRow[]; split?: SplitGroups; bins?: { width: number; left: number } }
  | ({ type: 'line'; axis: 'time'; config: ChartConfigs['line'] } & LineSeries)
  | ({ type: 'line'; axis: 'number'; config: ChartConfigs['line'] } & NumberLine)
  | { type: 'gauge'; config: ChartConfigs['gauge']; value: number | null; percent: number | null }
  | ({ type: 'scatter'; config: ChartConfigs['scatter'] } & ScatterData)
);
export type Series = { rows: { start: number; value: number }[]; bucket: TimeBucket; buckets: number };

/** A sparkline joins the buckets that have a value (an average's empty bucket is no 0). */
const sparkOf = (s: ReturnType<Aggregator['series']>): Series => ({ ...s, rows: s.rows.filter((r): r is { start: number; value: number } => r.value !== null) });

/** A chart widget's configuration, or the first problem that keeps it from being drawn; `timeField` is the source's (the default date field). */
export function parseChartWidget(widget: Pick<Widget, 'type' | 'configuration'>, timeField?: string | null):
  | { ok: true; type: ChartWidgetType; config: ChartConfigs[ChartWidgetType] }
  | { ok: false; message: string } {
  if (!isChartWidgetType(widget.type)) return { ok: false, message: `Unknown widget type "${widget.type}"` };
  const parsed = CHART_CONFIGS[widget.type].safeParse(widget.configuration ?? {});
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'Incomplete widget' };
  const config = parsed.data as ChartConfigs[ChartWidgetType];
  if (widget.type !== 'scatter' && readsTime(widget.type, config as ChartConfigs['kpi']) && !(config as { dateField?: string }).dateField && !timeField) {
    return { ok: false, message: 'Pick a date field (the source has no time field)' };
  }
  return { ok: true, type: widget.type, config };
}

/** The part of the type model a widget reads (its filters' fields; the day/month order of its dates), so its spec stays small. */
function specTyping(typing: FieldTyping, config: ChartConfigs[ChartWidgetType]): FieldTyping {
  const fieldTypes: Record<string, NonNullable<ReturnType<typeof fieldTypeOf>>> = {};
  for (const { field } of config.filters) {
    const type = fieldTypeOf(typing, field);
    if (type) fieldTypes[field] = type;
  }
  return { fieldTypes, dateOrder: typing.dateOrder };
}

/** The live aggregated numbers of a chart widget (recomputed record by record as the feed changes, and as a relative range slides). */
export function useWidgetData(type: ChartWidgetType, config: ChartConfigs[ChartWidgetType]): WidgetData {
  const { typing, timeField, feed } = useWidgetEnv();
  const typed = specTyping(typing, config);
  // A scatter draws records, not totals: it reads the feed's records again on each change (at most its cap of points drawn).
  const version = useFeedVersion();
  // Bars and lines over a number field may group its values into ranges.
  const xField = type === 'line' ? (config as ChartConfigs['line']).xField : undefined;
  const bins = type === 'bar' || xField ? (config as ChartConfigs['bar' | 'line']).bins : undefined;
  const groupField = xField ?? (config as { groupField?: string }).groupField;
  // Automatic ranges follow the values' span: read from the records when they change (a new width counts again).
  const binWidth = useMemo(() => {
    if (bins === undefined || !groupField) return undefined;
    if (bins !== 'auto') return bins;
    const span = numberSpan(feed.get().records.values(), groupField);
    return span ? autoBinWidth(span.min, span.max) : 1;
  }, [bins, groupField, feed, version]);
  const spec = type === 'scatter' ? { metric: 'count' as const } : aggregateSpec(type, config as ChartConfigs['kpi'], typed, timeField);
  const { aggregator, counting } = useAggregator(binWidth ? { ...spec, binWidth } : spec);
  const scatter = useMemo(
    () => (type === 'scatter' ? scatterPoints(feed.get().records.values(), config as ChartConfigs['scatter'], typed) : null),
    // The configuration by content, and the feed's version: it says when the records changed.
    [type, JSON.stringify(config), JSON.stringify(typed), feed, version],
  );
  switch (type) {
    case 'scatter':
      return { counting: false, type, config: config as ChartConfigs['scatter'], ...scatter! };
    case 'gauge': {
      const c = config as ChartConfigs['gauge'];
      const value = aggregator.value();
      return { counting, type, config: c, value, percent: percentOfGoal(value, c.goal, c.min) };
    }
    case 'kpi': {
      const c = config as ChartConfigs['kpi'];
      const value = aggregator.value();
      // Against the period before the range; where it has none of its own (all time, data that ended long ago), the latest bucket against the one before.
      const comparison = c.compare ? kpiComparison(aggregator, c.range, c.sparkline && c.bucket !== 'auto' ? c.bucket : undefined) : null;
      return { counting, type, config: c, value, count: aggregator.size, comparison, spark: c.sparkline ? sparkOf(aggregator.series()) : null };
    }
    case 'bar':
    case 'donut': {
      const c = config as ChartConfigs['bar'];
      if (type === 'bar' && binWidth) {
        // Number ranges in order, every one from the lowest to the highest (an empty one 0 for a count or sum): no "Other".
        const { rows, left } = continuousBins(aggregator.top(undefined, 'label'), binWidth, ADDITIVE_METRICS.includes(c.metric) ? 0 : null);
        return { counting, type, config: c, rows, bins: { width: binWidth, left } };
      }
      const rows = aggregator.top(c.topN, c.order);
      if (type === 'bar' && c.splitField) return { counting, type, config: c, rows, split: aggregator.split(c.topN, c.order, c.seriesLimit, c.otherSeries) };
      return { counting, type, config: c, rows };
    }
    case 'line': {
      const c = config as ChartConfigs['line'];
      if (c.xField) {
        // Over a number field: every value (or range) in order, on a continuous axis.
        const groups = c.splitField
          ? aggregator.split(undefined, 'label', c.seriesLimit, c.otherSeries)
          : (() => {
            const rows = aggregator.top(undefined, 'label');
            return { categories: rows.map((r) => r.key), series: [{ key: '', values: rows.map((r) => r.value) }], leftSeries: 0, omitted: false };
          })();
        return { counting, type, axis: 'number', config: c, ...numberLine(groups, binWidth ?? null, emptyValueOf(c.metric, c.emptyAs)) };
      }
      return { counting, type, axis: 'time', config: c, ...aggregator.lines(c.splitField ? c.seriesLimit : 1, c.otherSeries) };
    }
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
export const seriesSpansYears = (starts: number[]): boolean => starts.length > 0 && spansYears(starts[0], starts[starts.length - 1] + 1);

/** What a widget's number is: "Count", "Sum of Amount", "Records per hour". */
export function metricLabel(c: { metric: Metric; valueField?: string }, label: (field: string | undefined) => string): string {
  if (c.metric === 'count') return 'Count';
  if (c.metric === 'perMinute') return 'Records per minute';
  if (c.metric === 'perHour') return 'Records per hour';
  // The builder's words, without what is in brackets: "Latest value of price".
  return `${METRIC_LABELS[c.metric].replace(/ \(.*\)$/, '')} of ${label(c.valueField)}`;
}

/**
 * The widget's numbers as a table (header row first), values as drawn: what its CSV holds and
 * screen readers read. A chart's first column is its bucket or group label, then one column per
 * series headed by the series' value (a single series: one column, headed by the metric).
 */
export function widgetTable(data: WidgetData, label: (field: string | undefined) => string): string[][] {
  const cell = (v: number | null) => (v === null ? '' : String(drawnNumber(v)));
  if (data.type === 'scatter') {
    const c = data.config;
    const split = Boolean(c.splitField);
    return [
      [label(c.xField), label(c.yField), ...(split ? [label(c.splitField)] : []), ...(c.sizeField ? [label(c.sizeField)] : [])],
      ...data.series.flatMap((s) => s.points.map((p) => [cell(p.x), cell(p.y), ...(split ? [s.key] : []), ...(c.sizeField ? [cell(p.size)] : [])])),
    ];
  }
  const c = data.config;
  const metric = metricLabel(c, label);
  switch (data.type) {
    case 'gauge':
      return [[metric, 'Goal', 'Percent of goal'], [cell(data.value), String(data.config.goal), data.percent === null ? '' : `${Math.round(data.percent)}%`]];
    case 'kpi': {
      const value = data.value === null ? '' : String(data.value);
      if (!data.comparison) return [[metric], [value]];
      const cell = (v: number | null) => (v === null ? '' : String(v));
      const c = data.comparison;
      // Against the latest bucket: the number over the range, that bucket's and the one before it.
      if (c.against === 'bucket') return [[metric, intervalLabel(c.latest, c.bucket, true), intervalLabel(c.before, c.bucket, true)], [value, cell(c.value), cell(c.previous)]];
      return [[metric, 'Previous period'], [value, cell(c.previous)]];
    }
    case 'bar':
    case 'donut': {
      const s = data.split;
      if (s) return [[label(data.config.groupField), ...s.series.map((x) => x.key)], ...s.categories.map((c, i) => [c, ...s.series.map((x) => cell(x.values[i]))])];
      return [[label(data.config.groupField), metric], ...data.rows.map((r) => [r.key, cell(r.value)])];
    }
    // Buckets as the chart's axis names them ("Mar 4"), with the year: a screen reader reads no ISO timestamps.
    case 'line': {
      const heads = data.config.splitField ? data.series.map((x) => x.key) : [metric];
      if (data.axis === 'number') {
        const w = data.binWidth;
        const xLabel = (x: number) => (w ? `${x.toLocaleString('en-US')}–${binStart(x + w * 1.5, w).toLocaleString('en-US')}` : String(x));
        return [[label(data.config.xField), ...heads], ...data.xs.map((x, i) => [xLabel(x), ...data.series.map((s) => cell(s.values[i]))])];
      }
      return [[label(data.config.dateField), ...heads], ...data.starts.map((start, i) => [intervalLabel(start, data.bucket, true), ...data.series.map((x) => cell(x.values[i]))])];
    }
  }
}
