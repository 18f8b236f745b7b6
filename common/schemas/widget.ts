import { z } from 'zod';

/** Widget types (DECISIONS.md): table and bucket as in the spec, plus KPI tiles and three charts. */
export const WIDGET_TYPES = ['table', 'bucket', 'kpi', 'bar', 'donut', 'line'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
export const CHART_WIDGET_TYPES = ['kpi', 'bar', 'donut', 'line'] as const;
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

export const Metric = z.enum(['count', 'sum', 'avg', 'min', 'max']);
export type Metric = z.infer<typeof Metric>;
/** Charts add up records: a count, or a sum of a numeric field. */
export const ChartMetric = z.enum(['count', 'sum']);

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

export const THRESHOLD_COLORS = ['green', 'gold', 'orange', 'red', 'blue', 'purple'] as const;
/** The tile takes the colour of the highest threshold its value reaches. */
export const Threshold = z.object({ value: z.number({ error: 'A threshold needs a number' }), color: z.enum(THRESHOLD_COLORS) });
export type Threshold = z.infer<typeof Threshold>;

export const TIME_INTERVALS = ['minute', 'hour', 'day', 'week'] as const;
export const TimeInterval = z.enum(TIME_INTERVALS);
export type TimeInterval = z.infer<typeof TimeInterval>;

/** A sum, average, minimum or maximum needs the numeric field it is computed over. */
function needsValueField(c: { metric: string; valueField?: string }, ctx: z.RefinementCtx) {
  if (c.metric !== 'count' && !c.valueField) ctx.addIssue({ code: 'custom', path: ['valueField'], message: `Pick a numeric field to ${c.metric === 'sum' ? 'sum' : 'compute'}` });
}
const valueField = z.string().trim().max(200).optional();

export const KpiConfig = z
  .object({
    metric: Metric.default('count'),
    valueField,
    filter: WidgetFilter.optional(),
    unit: z.string().max(20).default(''),
    unitPosition: z.enum(['prefix', 'suffix']).default('suffix'),
    decimals: z.number().int().min(0).max(4).default(0),
    thresholds: z.array(Threshold).max(6).default([]),
  })
  .superRefine(needsValueField);
export type KpiConfig = z.infer<typeof KpiConfig>;

/** Bars and slices by their value (largest first) or by their label (A to Z, numbers as numbers). */
export const GROUP_ORDERS = ['value', 'label'] as const;
export const GroupOrder = z.enum(GROUP_ORDERS);
export type GroupOrder = z.infer<typeof GroupOrder>;

export const BarConfig = z
  .object({
    groupField: field('a field to group by'),
    metric: ChartMetric.default('count'),
    valueField,
    filter: WidgetFilter.optional(),
    topN: z.number().int().min(1, 'Show at least 1 group').max(50, 'Show at most 50 groups').default(8),
    horizontal: z.boolean().default(false),
    order: GroupOrder.default('value'),
    /** A second field: each bar is split by its values, stacked. */
    stackField: z.string().trim().max(200).optional(),
  })
  .superRefine(needsValueField);
export type BarConfig = z.infer<typeof BarConfig>;

export const DonutConfig = z
  .object({
    groupField: field('a field to group by'),
    metric: ChartMetric.default('count'),
    valueField,
    filter: WidgetFilter.optional(),
    topN: z.number().int().min(1, 'Show at least 1 slice').max(20, 'Show at most 20 slices').default(6),
    order: GroupOrder.default('value'),
  })
  .superRefine(needsValueField);
export type DonutConfig = z.infer<typeof DonutConfig>;

export const LineConfig = z
  .object({
    dateField: field('a date field'),
    interval: TimeInterval.default('day'),
    metric: ChartMetric.default('count'),
    valueField,
    filter: WidgetFilter.optional(),
    /** How many intervals the chart shows, ending with the current one. */
    points: z.number().int().min(2, 'Show at least 2 points').max(500, 'Show at most 500 points').default(30),
    area: z.boolean().default(false),
  })
  .superRefine(needsValueField);
export type LineConfig = z.infer<typeof LineConfig>;

export const CHART_CONFIGS = { kpi: KpiConfig, bar: BarConfig, donut: DonutConfig, line: LineConfig } as const;
export interface ChartConfigs {
  kpi: KpiConfig;
  bar: BarConfig;
  donut: DonutConfig;
  line: LineConfig;
}
