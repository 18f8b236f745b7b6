import { METRIC_LABELS, type GaugeConfig, type KpiConfig, type Metric, type WidgetFilter } from '../../schemas/widgets/widget';
import { previousLabel, rangeLabel, spansYears, type TimeBucket } from '../../time/timeRanges';
import type { Comparison } from '../aggregateSpec';
import type { KpiComparison } from './kpiComparison';
import { binStart } from '../charts/bins';
import type { WidgetNumbers } from './widgetData';

/**
 * How a widget's numbers read as text — the same in the live viewer (its data tables, tooltips,
 * captions) and in a report drawn on the server: labels of buckets and metrics, a KPI's caption and
 * change, a chart's data table.
 */

/**
 * A chart's number as it is drawn (tooltip, data table, CSV): whole numbers as they are, others to
 * 2 decimals (3 significant digits below 1), so an average reads 123.46, not 123.456789012.
 */
export function drawnNumber(v: number): number {
  if (Number.isInteger(v)) return v;
  return Math.abs(v) < 1 ? Number(v.toPrecision(3)) : Math.round(v * 100) / 100;
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
export function widgetTable(data: WidgetNumbers, label: (field: string | undefined) => string): string[][] {
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
      const c = data.comparison;
      if (!c) return [[metric], [value]];
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

/** "▲ 12%", "▼ 3.5%", "—" (no previous value, or 0: no percentage to give). */
export function changeText(c: Comparison): string {
  if (c.percent === null) return '—';
  const size = Math.abs(c.percent);
  const shown = size >= 10 || size === 0 ? Math.round(size) : Number(size.toFixed(1));
  return `${c.percent > 0 ? '▲' : c.percent < 0 ? '▼' : '='} ${shown.toLocaleString('en-US')}%`;
}

/** What the change is against, after "vs": "the previous 24 hours", or the bucket before the latest in the data ("Nov 2015"). */
export function againstText(c: KpiComparison, range: KpiConfig['range']): string {
  return c.against === 'bucket' ? intervalLabel(c.before, c.bucket, true) : previousLabel(range);
}

/** Whether a change is good news: up when higher is better, down when lower is (`better`). */
export function trendOf(c: Comparison, better: KpiConfig['better'] = 'higher'): 'better' | 'worse' | 'same' {
  if (c.percent === null || c.percent === 0) return 'same';
  return c.percent > 0 === (better !== 'lower') ? 'better' : 'worse';
}

const OPERATOR_TEXT: Record<WidgetFilter['operator'], string> = { eq: 'is', neq: 'is not', gt: '>', gte: '≥', lt: '<', lte: '≤', contains: 'contains', in: 'is one of' };

/** Filters as a person reads them: "Status is open and Priority is one of high, urgent". */
export function filtersText(filters: readonly WidgetFilter[], label: (f: string | undefined) => string): string {
  return filters.map((f) => `${label(f.field)} ${OPERATOR_TEXT[f.operator]} ${(f.operator === 'in' ? (f.values ?? []).join(', ') : f.value) || '(empty)'}`).join(' and ');
}

/** What a KPI or gauge counts, under its number: "Records, last 7 days where Status is open". */
export function kpiCaption(c: KpiConfig | GaugeConfig, label: (f: string | undefined) => string): string {
  const what = (c.metric === 'count' ? 'Records' : metricLabel(c, label)) + (c.range.kind === 'all' ? '' : `, ${rangeLabel(c.range).toLowerCase()}`);
  if (!c.filters.length) return what;
  return `${what} where ${filtersText(c.filters, label)}`;
}
