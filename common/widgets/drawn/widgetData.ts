import { ADDITIVE_METRICS, CHART_CONFIGS, isChartWidgetType, type ChartConfigs, type ChartWidgetType } from '../../schemas/widgets/widget';
import type { TimeBucket } from '../../time/timeRanges';
import { fieldTypeOf, type FieldTyping } from '../../types/fieldTyping';
import { Aggregator, aggregateSpec, readsTime, type AggregateSpec, type DataHolder, type LineSeries } from '../aggregate';
import { kpiComparison, type KpiComparison } from './kpiComparison';
import { autoBinWidth, continuousBins, numberSpan } from '../charts/bins';
import { percentOfGoal } from '../charts/gauge';
import type { GroupRow, SplitGroups } from '../charts/groups';
import { emptyValueOf, numberLine, type NumberLine } from '../charts/numberAxis';
import { scatterPoints, type ScatterData } from '../charts/scatter';

/**
 * A chart widget's numbers from its configuration and an Aggregator: what the live viewer draws
 * (web/src/public/viewer/widgets/widgetData.ts keeps the aggregator in step with its feed) and what
 * a report draws on the server (server/reports/render), by one code path (drawn/: what is drawn of a widget).
 */

/** A chart widget's numbers. */
export type WidgetNumbers =
  | { type: 'kpi'; config: ChartConfigs['kpi']; value: number | null; count: number; comparison: KpiComparison | null; spark: Series | null }
  | { type: 'bar' | 'donut'; config: ChartConfigs['bar'] | ChartConfigs['donut']; rows: GroupRow[]; split?: SplitGroups; bins?: { width: number; left: number } }
  | ({ type: 'line'; axis: 'time'; config: ChartConfigs['line'] } & LineSeries)
  | ({ type: 'line'; axis: 'number'; config: ChartConfigs['line'] } & NumberLine)
  | { type: 'gauge'; config: ChartConfigs['gauge']; value: number | null; percent: number | null }
  | ({ type: 'scatter'; config: ChartConfigs['scatter'] } & ScatterData);
export type Series = { rows: { start: number; value: number }[]; bucket: TimeBucket; buckets: number };

/** A sparkline joins the buckets that have a value (an average's empty bucket is no 0). */
const sparkOf = (s: ReturnType<Aggregator['series']>): Series => ({ ...s, rows: s.rows.filter((r): r is { start: number; value: number } => r.value !== null) });

/** A chart widget's configuration, or the first problem that keeps it from being drawn; `timeField` is the source's (the default date field). */
export function parseChartWidget(widget: { type: string; configuration?: unknown }, timeField?: string | null):
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
export function specTyping(typing: FieldTyping, config: ChartConfigs[ChartWidgetType]): FieldTyping {
  const fieldTypes: Record<string, NonNullable<ReturnType<typeof fieldTypeOf>>> = {};
  for (const { field } of config.filters) {
    const type = fieldTypeOf(typing, field);
    if (type) fieldTypes[field] = type;
  }
  return { fieldTypes, dateOrder: typing.dateOrder };
}

/** The field a bar chart or a line over numbers groups into ranges, and its `bins` setting (none: no ranges). */
export function binsOf(type: ChartWidgetType, config: ChartConfigs[ChartWidgetType]): { field: string; bins: number | 'auto' } | null {
  const xField = type === 'line' ? (config as ChartConfigs['line']).xField : undefined;
  const bins = type === 'bar' || xField ? (config as ChartConfigs['bar' | 'line']).bins : undefined;
  const field = xField ?? (config as { groupField?: string }).groupField;
  return bins === undefined || !field ? null : { field, bins };
}

/** The width of the ranges a widget groups numbers into: as set, or about 20 over the records' span ("auto"); undefined without ranges. */
export function binWidthOf(type: ChartWidgetType, config: ChartConfigs[ChartWidgetType], records: () => Iterable<DataHolder>): number | undefined {
  const b = binsOf(type, config);
  if (!b) return undefined;
  if (b.bins !== 'auto') return b.bins;
  const span = numberSpan(records(), b.field);
  return span ? autoBinWidth(span.min, span.max) : 1;
}

/** What the widget's Aggregator adds up (`typed`: specTyping's part of the type model). */
export function chartSpec(type: ChartWidgetType, config: ChartConfigs[ChartWidgetType], typed: FieldTyping, timeField: string | null | undefined, binWidth: number | undefined): AggregateSpec {
  // A scatter draws records, not totals: its aggregator counts nothing it shows.
  const spec = type === 'scatter' ? { metric: 'count' as const } : aggregateSpec(type, config as ChartConfigs['kpi'], typed, timeField);
  return binWidth ? { ...spec, binWidth } : spec;
}

/** The widget's numbers from its aggregator (and, for a scatter, its points). */
export function widgetNumbers(type: ChartWidgetType, config: ChartConfigs[ChartWidgetType], aggregator: Aggregator, binWidth: number | undefined, scatter: ScatterData | null): WidgetNumbers {
  switch (type) {
    case 'scatter':
      return { type, config: config as ChartConfigs['scatter'], ...scatter! };
    case 'gauge': {
      const c = config as ChartConfigs['gauge'];
      const value = aggregator.value();
      return { type, config: c, value, percent: percentOfGoal(value, c.goal, c.min) };
    }
    case 'kpi': {
      const c = config as ChartConfigs['kpi'];
      const value = aggregator.value();
      // Against the period before the range; where it has none of its own (all time, data that ended long ago), the latest bucket against the one before.
      const comparison = c.compare ? kpiComparison(aggregator, c.range, c.sparkline && c.bucket !== 'auto' ? c.bucket : undefined) : null;
      return { type, config: c, value, count: aggregator.size, comparison, spark: c.sparkline ? sparkOf(aggregator.series()) : null };
    }
    case 'bar':
    case 'donut': {
      const c = config as ChartConfigs['bar'];
      if (type === 'bar' && binWidth) {
        // Number ranges in order, every one from the lowest to the highest (an empty one 0 for a count or sum): no "Other".
        const { rows, left } = continuousBins(aggregator.top(undefined, 'label'), binWidth, ADDITIVE_METRICS.includes(c.metric) ? 0 : null);
        return { type, config: c, rows, bins: { width: binWidth, left } };
      }
      const rows = aggregator.top(c.topN, c.order);
      if (type === 'bar' && c.splitField) return { type, config: c, rows, split: aggregator.split(c.topN, c.order, c.seriesLimit, c.otherSeries) };
      return { type, config: c, rows };
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
        return { type, axis: 'number', config: c, ...numberLine(groups, binWidth ?? null, emptyValueOf(c.metric, c.emptyAs)) };
      }
      return { type, axis: 'time', config: c, ...aggregator.lines(c.splitField ? c.seriesLimit : 1, c.otherSeries) };
    }
  }
}

/**
 * A chart widget's numbers over a set of records at one moment, counted in one pass: what the
 * viewer shows once it has counted the same records (a report, a test comparing with the viewer).
 */
export function numbersOf(type: ChartWidgetType, config: ChartConfigs[ChartWidgetType], records: () => Iterable<DataHolder>, env: { typing: FieldTyping; timeField?: string | null; now?: number }): WidgetNumbers {
  const typed = specTyping(env.typing, config);
  const binWidth = binWidthOf(type, config, records);
  const aggregator = new Aggregator(chartSpec(type, config, typed, env.timeField, binWidth), undefined, env.now);
  aggregator.reset(records());
  const scatter = type === 'scatter' ? scatterPoints(records(), config as ChartConfigs['scatter'], typed) : null;
  return widgetNumbers(type, config, aggregator, binWidth, scatter);
}
