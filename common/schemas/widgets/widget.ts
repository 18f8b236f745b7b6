import { z } from 'zod';
import { ALL_TIME, MAX_CHART_POINTS, RELATIVE_RANGES, TIME_BUCKETS, TimeRange, bucketsIn, rangeLabel, rangeSpanMs, resolveRange, type TimeBucket } from '../../time/timeRanges';

/** Widget types: table and bucket boards, KPI tiles, gauges (progress to a goal) and four charts. */
export const WIDGET_TYPES = ['table', 'bucket', 'kpi', 'gauge', 'bar', 'donut', 'line', 'scatter'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
export const CHART_WIDGET_TYPES = ['kpi', 'gauge', 'bar', 'donut', 'line', 'scatter'] as const;
export type ChartWidgetType = (typeof CHART_WIDGET_TYPES)[number];
export const isChartWidgetType = (t: string): t is ChartWidgetType => (CHART_WIDGET_TYPES as readonly string[]).includes(t);

/** The builder's grid: 12 columns, rows of GRID_ROW_HEIGHT pixels. */
export const GRID_COLUMNS = 12;
export const GRID_ROW_HEIGHT = 60;

export const WidgetLayout = z
  .object({
    x: z.number().int().min(0).max(GRID_COLUMNS - 1),
    y: z.number().int().min(0).max(10_000),
    w: z.number().int().min(1).max(GRID_COLUMNS),
    h: z.number().int().min(1).max(40),
  })
  .refine((l) => l.x + l.w <= GRID_COLUMNS, { message: `A widget must fit in ${GRID_COLUMNS} columns`, path: ['w'] });
export type WidgetLayout = z.infer<typeof WidgetLayout>;

const field = (what: string) => z.string({ error: `Pick ${what}` }).trim().min(1, `Pick ${what}`).max(200);

/**
 * What a KPI or a chart shows: a count, a sum / average / minimum / maximum / median / 90th, 95th
 * or 99th percentile of a numeric field, the number of distinct values of a field, the latest value
 * of a field (by the date field), or (a KPI) records per minute / hour over the range.
 */
export const METRICS = ['count', 'sum', 'avg', 'min', 'max', 'median', 'p90', 'p95', 'p99', 'distinct', 'latest', 'perMinute', 'perHour'] as const;
export const Metric = z.enum(METRICS);
export type Metric = z.infer<typeof Metric>;
/** Each metric in words: the same in the widget builder, the alert dialog and (without what is in brackets) the viewer's captions. */
export const METRIC_LABELS: Record<Metric, string> = {
  count: 'Count of records', sum: 'Sum', avg: 'Average', latest: 'Latest value (by date)', min: 'Minimum', max: 'Maximum', median: 'Median',
  distinct: 'Distinct values', p90: '90th percentile', p95: '95th percentile', p99: '99th percentile', perMinute: 'Records per minute', perHour: 'Records per hour',
};
/** The order lists offer the metrics in: the common ones first (a list shows about eight without scrolling). */
export const METRIC_ORDER: readonly Metric[] = ['count', 'sum', 'avg', 'latest', 'min', 'max', 'median', 'distinct', 'p90', 'p95', 'p99', 'perMinute', 'perHour'];
/** Charts take every metric but the rates. */
export const ChartMetric = Metric.exclude(['perMinute', 'perHour']);
export const CHART_METRICS = ChartMetric.options;
/** Metrics that are 0 over no records (count, sum): an empty time bucket draws 0; the others draw a gap. */
export const ADDITIVE_METRICS: readonly Metric[] = ['count', 'sum'];

/** `in` ("is one of") compares with a list of values (`values`); the others with `value`. */
export const FILTER_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in'] as const;
export const FilterOperator = z.enum(FILTER_OPERATORS);
export type FilterOperator = z.infer<typeof FilterOperator>;
export const MAX_FILTER_VALUES = 50;
export const WidgetFilter = z
  .object({
    field: field('a field to filter on'),
    operator: FilterOperator.default('eq'),
    value: z.string().max(200).default(''),
    values: z
      .array(z.string({ error: 'A value must be text' }).trim().min(1, 'A value cannot be empty').max(200, 'A value must be at most 200 characters'))
      .max(MAX_FILTER_VALUES, `Pick at most ${MAX_FILTER_VALUES} values`)
      .optional(),
  })
  .superRefine((f, ctx) => {
    if (f.operator === 'in' && !f.values?.length) ctx.addIssue({ code: 'custom', path: ['values'], message: 'Pick at least one value' });
  });
export type WidgetFilter = z.infer<typeof WidgetFilter>;
export const MAX_WIDGET_FILTERS = 10;
/** A widget's filters: a record counts when it matches all of them. */
const filters = z.array(WidgetFilter).max(MAX_WIDGET_FILTERS, `At most ${MAX_WIDGET_FILTERS} filters`).default([]);

/**
 * Widgets saved with one `filter` are read with it as their only entry of `filters` (and saved so);
 * a bar chart saved with a `stackField` is split by that field, stacked.
 */
export function migrateChartConfig(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  let out = raw as Record<string, unknown>;
  if ('filter' in out) {
    const { filter, ...rest } = out;
    out = { ...rest, filters: (rest.filters as unknown[] | undefined) ?? (filter ? [filter] : []) };
  }
  if ('stackField' in out) {
    const { stackField, ...rest } = out;
    out = stackField && !rest.splitField ? { ...rest, splitField: stackField, stack: true } : rest;
  }
  return out;
}

export const THRESHOLD_COLORS = ['green', 'gold', 'orange', 'red', 'blue', 'purple'] as const;
/** The tile takes the colour of the highest threshold its value reaches. */
export const Threshold = z.object({ value: z.number({ error: 'A threshold needs a number' }), color: z.enum(THRESHOLD_COLORS) });
export type Threshold = z.infer<typeof Threshold>;

/** A chart's time bucket: one of common/time/timeRanges' buckets, or chosen for the range ("auto"). */
export const BUCKET_CHOICES = ['auto', ...TIME_BUCKETS] as const;
export const BucketChoice = z.enum(BUCKET_CHOICES, { error: `bucket must be one of ${BUCKET_CHOICES.join(', ')}` });
export type BucketChoice = z.infer<typeof BucketChoice>;

const VALUE_FIELD_WORDS: Partial<Record<Metric, string>> = { sum: 'a numeric field to sum', distinct: 'a field to count the distinct values of', latest: 'a field to show the latest value of' };
/** Every metric but a count or a rate needs the field it is computed over. */
function needsValueField(c: { metric: string; valueField?: string }, ctx: z.RefinementCtx) {
  if (c.metric !== 'count' && c.metric !== 'perMinute' && c.metric !== 'perHour' && !c.valueField) {
    ctx.addIssue({ code: 'custom', path: ['valueField'], message: `Pick ${VALUE_FIELD_WORDS[c.metric as Metric] ?? 'a numeric field to compute'}` });
  }
}
const valueField = z.string().trim().max(200).optional();

/**
 * A chosen bucket must draw at most MAX_CHART_POINTS points over the range: refused here, so the
 * editor says so before saving (never cut silently). "auto" always fits.
 */
function bucketFits(c: { range: TimeRange; bucket: BucketChoice }, ctx: z.RefinementCtx) {
  if (!c.range || !c.bucket) return;
  const span = rangeSpanMs(c.range);
  if (c.bucket === 'auto' || span === null) return;
  const points = bucketsIn(span, c.bucket);
  if (points > MAX_CHART_POINTS) {
    ctx.addIssue({
      code: 'custom',
      path: ['bucket'],
      message: `By ${c.bucket}, ${rangeLabel(c.range)} is ${points.toLocaleString('en-US')} points; a chart draws at most ${MAX_CHART_POINTS}. Pick a larger bucket or a shorter range.`,
    });
  }
}

/** The bucket check runs even while another field is missing (a new line chart without its date field), so the editor shows it at once. */
const BUCKET_CHECK = { when: (p: { issues: { path?: PropertyKey[] }[] }) => !p.issues.some((i) => i.path?.[0] === 'range' || i.path?.[0] === 'bucket') };

/** Which records a KPI, bar or donut counts: those whose date field (default: the source's time field) lies in the range (default: all time). */
const timeSettings = {
  dateField: z.string().trim().max(200).optional(),
  range: TimeRange.default(ALL_TIME),
};
export type { TimeBucket };

export const KpiConfig = z.preprocess(migrateChartConfig, z
  .object({
    metric: Metric.default('count'),
    valueField,
    filters,
    unit: z.string().max(20).default(''),
    // Absent: before the number for a currency sign ($ € £ ¥), after it otherwise (format.ts).
    unitPosition: z.enum(['prefix', 'suffix']).optional(),
    decimals: z.number().int().min(0).max(4).default(0),
    thresholds: z.array(Threshold).max(6).default([]),
    ...timeSettings,
    /** The sparkline's bucket. */
    bucket: BucketChoice.default('auto'),
    /** "▲ 12% vs the previous 24 hours": the value against the same metric over the window before the range. */
    compare: z.boolean().default(false),
    /** Which way of the comparison is good news (green): more (sales) or less (open tickets, wait times). */
    better: z.enum(['higher', 'lower']).default('higher'),
    /** A small line of the metric per bucket over the range. */
    sparkline: z.boolean().default(false),
  })
  .superRefine(needsValueField)
  .superRefine(bucketFits, BUCKET_CHECK));
export type KpiConfig = z.infer<typeof KpiConfig>;

export const MAX_SERIES = 20;
/** One series per value of `splitField`: the largest `seriesLimit` drawn, the rest combined as "Other" or left out. */
const splitSettings = {
  splitField: z.string().trim().max(200).optional(),
  seriesLimit: z.number().int().min(1, 'Draw at least 1 series').max(MAX_SERIES, `Draw at most ${MAX_SERIES} series`).default(10),
  otherSeries: z.enum(['combine', 'omit']).default('combine'),
};

/** Bars and slices by their value (largest first) or by their label (A to Z, numbers as numbers). */
export const GROUP_ORDERS = ['value', 'label'] as const;
export const GroupOrder = z.enum(GROUP_ORDERS);
export type GroupOrder = z.infer<typeof GroupOrder>;

/** A number field grouped into ranges of this width ("auto": about 20 over the values' span). */
const bins = z.union([z.literal('auto'), z.number({ error: 'bins must be "auto" or a width above 0' }).positive('A range width must be above 0').finite()], { error: 'bins must be "auto" or a width above 0' }).optional();

export const BarConfig = z.preprocess(migrateChartConfig, z
  .object({
    groupField: field('a field to group by'),
    metric: ChartMetric.default('count'),
    valueField,
    filters,
    topN: z.number().int().min(1, 'Show at least 1 group').max(50, 'Show at most 50 groups').default(8),
    horizontal: z.boolean().default(false),
    order: GroupOrder.default('value'),
    /** A number field grouped into ranges of this width ("auto": about 20 over the values' span), drawn in order with empty ranges as 0. */
    bins,
    ...splitSettings,
    /** Split bars stacked (one bar per group) or side by side. */
    stack: z.boolean().default(true),
    ...timeSettings,
  })
  .superRefine(needsValueField)
  .superRefine((c, ctx) => {
    if (c.bins !== undefined && c.splitField) ctx.addIssue({ code: 'custom', path: ['splitField'], message: 'A bar chart of number ranges cannot be split: leave "Split by" empty' });
  }));
export type BarConfig = z.infer<typeof BarConfig>;

export const DonutConfig = z.preprocess(migrateChartConfig, z
  .object({
    groupField: field('a field to group by'),
    metric: ChartMetric.default('count'),
    valueField,
    filters,
    topN: z.number().int().min(1, 'Show at least 1 slice').max(20, 'Show at most 20 slices').default(6),
    order: GroupOrder.default('value'),
    ...timeSettings,
  })
  .superRefine(needsValueField));
export type DonutConfig = z.infer<typeof DonutConfig>;

const LINE_INTERVAL_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 } as const;

/**
 * Line charts saved before ranges counted `points` intervals (minute, hour, day or week) back from
 * now. Read, such a configuration becomes the shortest relative range at least as long ("Last 30
 * days" for 30 days, "Last 12 months" for 12 weeks; all time beyond 12 months), by the same
 * bucket; when that bucket would draw more than MAX_CHART_POINTS points over the range, by the
 * automatic bucket. Saved again, it is stored in the new form.
 */
export function migrateLineConfig(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || 'range' in raw) return raw;
  const { interval, points, ...rest } = raw as Record<string, unknown>;
  if (interval === undefined && points === undefined) return raw;
  const unit = typeof interval === 'string' && interval in LINE_INTERVAL_MS ? (interval as keyof typeof LINE_INTERVAL_MS) : 'day';
  const span = (typeof points === 'number' && points > 0 ? points : 30) * LINE_INTERVAL_MS[unit];
  const now = Date.now();
  const last = RELATIVE_RANGES.find((r) => {
    const w = resolveRange({ kind: 'relative', last: r }, now);
    return w.to! - w.from! >= span;
  });
  const range: TimeRange = last ? { kind: 'relative', last } : ALL_TIME;
  const rangeSpan = rangeSpanMs(range);
  const bucket = rangeSpan === null || bucketsIn(rangeSpan, unit) <= MAX_CHART_POINTS ? unit : 'auto';
  return { ...rest, range, bucket };
}

export const LineConfig = z.preprocess(
  (raw) => migrateChartConfig(migrateLineConfig(raw)),
  z
    .object({
      /** The horizontal axis over time (its buckets); or, with `xField`, only where the range is read (default: the source's time field). */
      dateField: z.string().trim().max(200).optional(),
      /** A number field drawn on a continuous number axis instead of time: one point per value, or per range of `bins`. */
      xField: z.string().trim().max(200).optional(),
      bins,
      range: TimeRange.default(ALL_TIME),
      bucket: BucketChoice.default('auto'),
      metric: ChartMetric.default('count'),
      valueField,
      filters,
      area: z.boolean().default(false),
      /** The vertical axis from 0; by default it fits the values (a line around 140,000 shows its changes, not a flat line at the top). */
      startAtZero: z.boolean().default(false),
      ...splitSettings,
      /** An empty bucket: a gap in the line, or 0 (by default 0 for a count or sum, a gap for the others). */
      emptyAs: z.enum(['gap', 'zero']).optional(),
    })
    .superRefine((c, ctx) => {
      if (!c.xField && !c.dateField) ctx.addIssue({ code: 'custom', path: ['dateField'], message: 'Pick a date field' });
    })
    .superRefine(needsValueField)
    .superRefine(bucketFits, BUCKET_CHECK),
);
export type LineConfig = z.infer<typeof LineConfig>;

/** A scatter chart draws at most this many points: the newest records'. */
export const MAX_SCATTER_POINTS = 5000;

/** One point per record: two numeric fields, one series per value of `splitField`, a point's size by `sizeField`. */
export const ScatterConfig = z.preprocess(migrateChartConfig, z.object({
  xField: field('a numeric field for the horizontal axis'),
  yField: field('a numeric field for the vertical axis'),
  splitField: z.string().trim().max(200).optional(),
  sizeField: z.string().trim().max(200).optional(),
  filters,
}));
export type ScatterConfig = z.infer<typeof ScatterConfig>;

/** A KPI's metric shown against a goal: a gauge or a progress bar, with the value and its percent of the goal (from `min`). */
export const GaugeConfig = z.preprocess(migrateChartConfig, z
  .object({
    metric: ChartMetric.default('count'),
    valueField,
    filters,
    goal: z.number({ error: 'Set a goal: a number' }).finite('Set a goal: a number'),
    min: z.number({ error: 'The start must be a number' }).finite('The start must be a number').default(0),
    style: z.enum(['gauge', 'bar'], { error: 'style must be gauge or bar' }).default('gauge'),
    unit: z.string().max(20).default(''),
    decimals: z.number().int().min(0).max(4).default(0),
    ...timeSettings,
  })
  .superRefine(needsValueField)
  .superRefine((c, ctx) => {
    if (typeof c.goal === 'number' && typeof c.min === 'number' && c.goal <= c.min) ctx.addIssue({ code: 'custom', path: ['goal'], message: `The goal must be larger than the start (${c.min})` });
  }));
export type GaugeConfig = z.infer<typeof GaugeConfig>;

export const CHART_CONFIGS = { kpi: KpiConfig, gauge: GaugeConfig, bar: BarConfig, donut: DonutConfig, line: LineConfig, scatter: ScatterConfig } as const;
export interface ChartConfigs {
  kpi: KpiConfig;
  gauge: GaugeConfig;
  scatter: ScatterConfig;
  bar: BarConfig;
  donut: DonutConfig;
  line: LineConfig;
}
