import type { DashboardTab, Widget } from '../schemas/dashboard';

/** A part a template needs from the source: the user picks which field plays it. */
export interface FieldRole {
  key: string;
  label: string;
  kind: 'category' | 'number' | 'date';
  /** Field names that usually play the role, tried in order when suggesting a mapping. */
  guesses: RegExp;
}

/**
 * A part played by some *values* of a category role's field: the user picks which values count
 * (e.g. which statuses count as "Open"). Suggestions read the values lower case, with "_" and "-"
 * as spaces (templateValues.ts).
 */
export interface ValuesRole {
  key: string;
  label: string;
  kind: 'values';
  /** The key of the category role whose field's values are picked. */
  of: string;
  /** Values that surely count for this role. */
  guesses: RegExp;
  /** Values that may count for this role or another: each goes to the role of these that has the fewest values. */
  maybe?: RegExp;
}

export type TemplateRole = FieldRole | ValuesRole;

/** What the user chose: the field playing each field role, and the values counting for each values role. */
export interface TemplateMapping {
  fields: Record<string, string>;
  values: Record<string, string[]>;
}

export interface DashboardTemplate {
  id: 'support-queue' | 'sales-pipeline' | 'inventory';
  name: string;
  description: string;
  /** In the order the dialog asks: a values role follows the category role it depends on. */
  roles: TemplateRole[];
  /** The tabs of a new dashboard, given a complete mapping (templateProblems finds none). */
  build(mapping: TemplateMapping): DashboardTab[];
}

export const fieldRoles = (t: DashboardTemplate): FieldRole[] => t.roles.filter((r): r is FieldRole => r.kind !== 'values');
export const valueRoles = (t: DashboardTemplate, of?: string): ValuesRole[] =>
  t.roles.filter((r): r is ValuesRole => r.kind === 'values' && (of === undefined || r.of === of));

/** Ticket charts look back a month by day. */
const LAST_30_DAYS = { kind: 'relative', last: '30d' } as const;
const at = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });
const widget = (id: string, name: string, type: Widget['type'], configuration: Record<string, unknown>, layout: ReturnType<typeof at>): Widget =>
  ({ id, name, type, visible: true, configuration, layout }) as Widget;
const tab = (id: string, name: string, style: DashboardTab['style'], configuration: DashboardTab['configuration'], widgets: Widget[] = []): DashboardTab =>
  ({ id, name, style, configuration, widgets });

const STATUS: FieldRole = { key: 'status', label: 'Status', kind: 'category', guesses: /^(status|state)$|status/i };
const DATE: FieldRole = { key: 'date', label: 'Date', kind: 'date', guesses: /^(created_?at|created|date|timestamp)$|date|time|_at$/i };

/** An "is one of" filter: records whose field holds one of the values. */
const oneOf = (field: string, values: string[] | undefined) => ({ field, operator: 'in', value: '', values: values ?? [] });

// What status and stage values usually mean (read lower case, "_" and "-" as spaces). "pending" may
// be waiting for work (Open) or for the customer (In progress, as Zendesk means it): it goes to the
// one of the two with fewer values.
const OPEN = /^(new|open|opened|re ?opened|to ?do|backlog|unassigned|unresolved|triage|untriaged|submitted|received|queued|not started|awaiting triage)$/;
const IN_PROGRESS = /^(in ?progress|wip|work in progress|working|doing|active|assigned|started|ongoing|hold|on ?hold|paused|blocked|in review|review|escalated|investigating|testing|in testing)$|^(waiting|awaiting)\b/;
const PENDING = /^pending\b/;
const CLOSED = /\b(closed|solved|resolved|done|complete|completed|fixed|finished|cancell?ed|archived|rejected|declined|duplicate|won ?t fix)\b/;
const WON = /\b(won|closed won|signed|converted)\b/;

export const TEMPLATES: DashboardTemplate[] = [
  {
    id: 'support-queue',
    name: 'Support queue',
    description: 'Open, in progress and closed tickets, tickets by priority and per day, and the queue as a bucket board.',
    roles: [
      STATUS,
      { key: 'open', label: 'Open', kind: 'values', of: 'status', guesses: OPEN, maybe: PENDING },
      { key: 'inProgress', label: 'In progress', kind: 'values', of: 'status', guesses: IN_PROGRESS, maybe: PENDING },
      { key: 'closed', label: 'Closed', kind: 'values', of: 'status', guesses: CLOSED },
      { key: 'priority', label: 'Priority', kind: 'category', guesses: /priority|severity|urgency/i },
      DATE,
    ],
    build: ({ fields: f, values: v }) => [
      tab('tab1', 'Overview', null, {}, [
        widget('open', 'Open', 'kpi', { metric: 'count', filters: [oneOf(f.status, v.open)], thresholds: [{ value: 0, color: 'blue' }] }, at(0, 0, 4, 2)),
        widget('in-progress', 'In progress', 'kpi', { metric: 'count', filters: [oneOf(f.status, v.inProgress)], thresholds: [{ value: 0, color: 'gold' }] }, at(4, 0, 4, 2)),
        widget('closed', 'Closed', 'kpi', { metric: 'count', filters: [oneOf(f.status, v.closed)], thresholds: [{ value: 0, color: 'green' }] }, at(8, 0, 4, 2)),
        widget('by-priority', 'Tickets by priority', 'bar', { groupField: f.priority, metric: 'count', topN: 6 }, at(0, 2, 5, 5)),
        widget('per-day', 'Tickets per day', 'line', { dateField: f.date, range: LAST_30_DAYS, bucket: 'day', metric: 'count', area: true }, at(5, 2, 7, 5)),
      ]),
      tab('tab2', 'Board', 'bucket', { bucketKey: f.status, buckets: [{ key: f.status, width: 300 }], displayKeys: [] }),
      tab('tab3', 'All Tickets', 'table', { sortable: true, filterable: true, columns: [] }),
    ],
  },
  {
    id: 'sales-pipeline',
    name: 'Sales pipeline',
    description: 'Deals, won deals, pipeline value and average deal size, value by stage, deals by stage and value per week.',
    roles: [
      { key: 'stage', label: 'Stage', kind: 'category', guesses: /stage|status|state/i },
      { key: 'won', label: 'Won', kind: 'values', of: 'stage', guesses: WON },
      { key: 'amount', label: 'Amount', kind: 'number', guesses: /amount|value|price|total|revenue/i },
      DATE,
    ],
    build: ({ fields: f, values: v }) => [
      tab('tab1', 'Pipeline', null, {}, [
        widget('deals', 'Deals', 'kpi', { metric: 'count' }, at(0, 0, 3, 2)),
        widget('won', 'Won deals', 'kpi', { metric: 'count', filters: [oneOf(f.stage, v.won)], thresholds: [{ value: 0, color: 'green' }] }, at(3, 0, 3, 2)),
        widget('value', 'Pipeline value', 'kpi', { metric: 'sum', valueField: f.amount, unit: '$', unitPosition: 'prefix' }, at(6, 0, 3, 2)),
        widget('average', 'Average deal', 'kpi', { metric: 'avg', valueField: f.amount, unit: '$', unitPosition: 'prefix' }, at(9, 0, 3, 2)),
        widget('by-stage', 'Value by stage', 'bar', { groupField: f.stage, metric: 'sum', valueField: f.amount, topN: 8 }, at(0, 2, 7, 5)),
        widget('stage-share', 'Deals by stage', 'donut', { groupField: f.stage, metric: 'count', topN: 6 }, at(7, 2, 5, 5)),
        widget('per-week', 'Value per week', 'line', { dateField: f.date, range: { kind: 'relative', last: '12mo' }, bucket: 'week', metric: 'sum', valueField: f.amount, area: true }, at(0, 7, 12, 4)),
      ]),
      tab('tab2', 'All Deals', 'table', { sortable: true, filterable: true, columns: [] }),
    ],
  },
  {
    id: 'inventory',
    name: 'Inventory',
    description: 'Items, units in stock and low-stock items, units by category, items by category and updates per day.',
    roles: [
      { key: 'category', label: 'Category', kind: 'category', guesses: /category|type|group|warehouse|location/i },
      { key: 'quantity', label: 'Quantity', kind: 'number', guesses: /quantity|qty|stock|units|count/i },
      DATE,
    ],
    build: ({ fields: f }) => [
      tab('tab1', 'Stock', null, {}, [
        widget('items', 'Items', 'kpi', { metric: 'count' }, at(0, 0, 4, 2)),
        widget('units', 'Units in stock', 'kpi', { metric: 'sum', valueField: f.quantity }, at(4, 0, 4, 2)),
        widget('low', 'Low stock (10 or fewer)', 'kpi', { metric: 'count', filters: [{ field: f.quantity, operator: 'lte', value: '10' }], thresholds: [{ value: 1, color: 'red' }] }, at(8, 0, 4, 2)),
        widget('units-by-category', 'Units by category', 'bar', { groupField: f.category, metric: 'sum', valueField: f.quantity, topN: 10, horizontal: true }, at(0, 2, 7, 6)),
        widget('category-share', 'Items by category', 'donut', { groupField: f.category, metric: 'count', topN: 6 }, at(7, 2, 5, 6)),
        widget('updates', 'Updates per day', 'line', { dateField: f.date, range: LAST_30_DAYS, bucket: 'day', metric: 'count' }, at(0, 8, 12, 4)),
      ]),
      tab('tab2', 'All Items', 'table', { sortable: true, filterable: true, columns: [] }),
    ],
  },
];

/** A first guess of the field for every field role, from the field names (each field used once). */
export function suggestFields(template: DashboardTemplate, fields: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const used = new Set<string>();
  for (const role of fieldRoles(template)) {
    const hit = fields.find((f) => !used.has(f) && role.guesses.test(f));
    if (hit) {
      out[role.key] = hit;
      used.add(hit);
    }
  }
  return out;
}

/** What the mapping still lacks, by role key: a field for every field role, a value for every values role. */
export function templateProblems(template: DashboardTemplate, mapping: TemplateMapping): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of template.roles) {
    if (r.kind !== 'values' && !mapping.fields[r.key]) out[r.key] = `Pick the field that plays "${r.label.toLowerCase()}"`;
    if (r.kind === 'values' && !mapping.values[r.key]?.length) out[r.key] = `Pick at least one value that counts as "${r.label}"`;
  }
  return out;
}
