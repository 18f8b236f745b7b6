import { z } from 'zod';
import {
  BUCKET_MAX_WIDTH, BUCKET_MIN_WIDTH, COLUMN_MAX_WIDTH, COLUMN_MIN_WIDTH, DASHBOARD_REFRESH_MS, HIGHLIGHT_COLORS,
} from '../constants';
import { COLUMN_FORMATS } from '../formats';
import { KeyMappings } from './dataSource';
import { CHART_CONFIGS, WidgetLayout, isChartWidgetType } from './widgets/widget';
import { DashboardFilters, type DashboardFilter } from './widgets/dashboardFilter';

export const TableColumn = z.object({
  name: z.string().min(1, 'Column name cannot be empty'),
  visible: z.boolean().default(true),
  width: z.number().min(COLUMN_MIN_WIDTH).max(COLUMN_MAX_WIDTH).default(150),
  order: z.number().int().min(0).default(0),
  /** How values read in the viewer and the CSV (common/formats.ts); absent = automatic. */
  format: z.enum(COLUMN_FORMATS).optional(),
  /** ISO 4217 currency code of the `currency` format. */
  currency: z.string().regex(/^[A-Za-z]{3}$/, 'Currency must be a 3-letter code such as USD').optional(),
  /** Sort order by meaning (first = top when ascending); absent = the known order of priority / status fields. */
  sortOrder: z.array(z.string().max(200)).max(100).optional(),
});
export type TableColumn = z.infer<typeof TableColumn>;

export const HighlightRule = z.object({
  key: z.string().min(1, 'Highlight rule needs a key'),
  value: z.string(),
  color: z.string().min(1),
});
export type HighlightRule = z.infer<typeof HighlightRule>;
export const HighlightColor = z.enum(HIGHLIGHT_COLORS);

export const BucketSetting = z.object({
  key: z.string(),
  width: z.number().min(BUCKET_MIN_WIDTH).max(BUCKET_MAX_WIDTH).default(300),
});

/** The order of a bucket board's groups: by title (the default), by count (largest first), or a list of titles first. */
export const BUCKET_ORDERS = ['label', 'count', 'custom'] as const;
export const BucketOrder = z.enum(BUCKET_ORDERS);
export type BucketOrder = z.infer<typeof BucketOrder>;

/** Settings of one tab (or widget): table columns, bucket grouping, display and highlight rules. */
export const TabConfiguration = z
  .object({
    sortable: z.boolean(),
    filterable: z.boolean(),
    columns: z.array(TableColumn).max(500),
    buckets: z.array(BucketSetting).max(50),
    bucketKey: z.string().nullable(),
    bucketOrder: BucketOrder,
    /** With the custom order: these group titles first, in this order; the others after them by title. */
    bucketGroups: z.array(z.string().max(200)).max(100),
    displayKeys: z.array(z.string()).max(100),
    highlightRules: z.array(HighlightRule).max(100),
  })
  .partial()
  .passthrough();
export type TabConfiguration = z.infer<typeof TabConfiguration>;

export const TabStyle = z.enum(['table', 'bucket']);
export type TabStyle = z.infer<typeof TabStyle>;

/**
 * A widget of a tab. table and bucket widgets carry a tab configuration; kpi, bar, donut and line
 * widgets carry their chart's configuration (common/schemas/widgets/widget.ts), checked here so an
 * incomplete widget is refused with the field at fault. Unknown types pass (shown as a bucket board), so an older client never loses a newer widget.
 */
export const Widget = z
  .object({
    id: z.string().min(1, 'Widget id is required').max(100),
    name: z.string().max(200, 'Widget name must be at most 200 characters').default(''),
    type: z.string().default('table'),
    visible: z.boolean().default(true),
    /** The dashboard's filter bar leaves this widget alone (it counts every record). */
    ignoreDashboardFilters: z.boolean().optional(),
    configuration: TabConfiguration.default({}),
    // Checked below with the configuration, so one answer names every problem of the widget.
    layout: z.unknown().optional(),
  })
  .transform((w, ctx) => {
    const layout = w.layout === undefined ? { success: true as const, data: undefined } : WidgetLayout.safeParse(w.layout);
    const config = isChartWidgetType(w.type) ? CHART_CONFIGS[w.type].safeParse(w.configuration) : { success: true as const, data: w.configuration };
    if (layout.success && config.success) return { ...w, layout: layout.data, configuration: config.data as TabConfiguration };
    if (!layout.success) for (const i of layout.error.issues) ctx.addIssue({ code: 'custom', message: i.message, path: ['layout', ...i.path] });
    if (!config.success) for (const i of config.error.issues) ctx.addIssue({ code: 'custom', message: i.message, path: ['configuration', ...i.path] });
    return z.NEVER;
  });
export type Widget = z.output<typeof Widget>;

export const DashboardTab = z.object({
  id: z.string().trim().min(1, 'Tab id is required').max(100),
  name: z.string().trim().min(1, 'Tab name cannot be empty').max(200),
  style: TabStyle.nullable().default(null),
  configuration: TabConfiguration.default({}),
  widgets: z
    .array(Widget)
    .max(50, 'A tab can have at most 50 widgets')
    .refine((ws) => new Set(ws.map((w) => w.id)).size === ws.length, 'Widget ids must be unique')
    .default([]),
});
export type DashboardTab = z.infer<typeof DashboardTab>;

export const DashboardConfiguration = z.object({
  keyMappings: KeyMappings.default({}),
  refreshInterval: z.number().int().min(1000).max(86_400_000).default(DASHBOARD_REFRESH_MS),
  tabs: z
    .array(DashboardTab)
    .max(50, 'A dashboard can have at most 50 tabs')
    .refine((tabs) => new Set(tabs.map((t) => t.id)).size === tabs.length, 'Tab ids must be unique')
    .optional(),
  /** The filter bar viewers use (common/schemas/widgets/dashboardFilter.ts). */
  filters: DashboardFilters.optional(),
});
export type DashboardConfiguration = z.infer<typeof DashboardConfiguration>;

/** A save's message ("add the region bar"): at most this many characters. */
export const VERSION_MESSAGE_MAX = 500;
export const VersionMessage = z.string().trim().max(VERSION_MESSAGE_MAX, `A message is at most ${VERSION_MESSAGE_MAX} characters`);

const name = z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters');
const description = z.string().max(2000, 'Description must be at most 2000 characters');
const dataSourceId = z.string({ error: 'Data source is required' }).min(1, 'Data source is required');

export const CreateDashboard = z.object({
  name,
  description: description.optional().default(''),
  dataSourceId,
  isPublished: z.boolean().optional().default(false),
  configuration: DashboardConfiguration.partial().optional(),
});
export type CreateDashboard = z.input<typeof CreateDashboard>;

export const UpdateDashboard = z
  .object({
    name,
    description,
    dataSourceId: dataSourceId.nullable(),
    isPublished: z.boolean(),
    configuration: DashboardConfiguration.partial(),
    /** What this save is for ("add the region bar"), kept with its version. */
    message: VersionMessage,
  })
  .partial()
  .strict();
export type UpdateDashboard = z.input<typeof UpdateDashboard>;

/** A dashboard as the admin endpoints return it. */
export interface DashboardDto {
  id: string;
  name: string;
  description: string;
  dataSourceId: string | null;
  dataSourceName: string | null;
  isPublished: boolean;
  configuration: { keyMappings: KeyMappings; refreshInterval: number; tabs: DashboardTab[]; filters: DashboardFilter[] };
  revision: number;
  /** The current version (GET …/versions): its ETag, and the If-Match of a save made on it. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** A tab as the public viewer gets it: `style` becomes `type`. */
export interface PublicTabDto {
  id: string;
  name: string;
  type: TabStyle | null;
  configuration: TabConfiguration;
  widgets: Widget[];
}

/** An entry of the public dashboards list. */
export interface PublicDashboardSummaryDto {
  id: string;
  name: string;
  description: string;
  dataSourceId: string | null;
  isPublished: true;
  updatedAt: string;
  lastDataUpdate: string | null;
}
