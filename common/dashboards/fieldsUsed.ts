import type { DashboardDto } from '../schemas/dashboard';

/** A field a dashboard reads, and what reads it ("Widget 'Revenue by region'"). */
export interface FieldUse {
  field: string;
  by: string;
}

/** Settings of a widget or tab that name one field each. */
const SINGLE = ['valueField', 'groupField', 'splitField', 'dateField', 'xField', 'yField', 'sizeField', 'bucketKey'] as const;

/** The fields one widget's or tab's settings name: chart fields, filters, columns, bucket key and widths, card fields, highlight rules. */
function fieldsOfSettings(config: Record<string, unknown> | undefined): string[] {
  if (!config) return [];
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && v.trim()) out.push(v.trim());
  };
  for (const key of SINGLE) add(config[key]);
  const list = (key: string) => (Array.isArray(config[key]) ? (config[key] as unknown[]) : []);
  for (const f of list('filters')) add((f as { field?: unknown })?.field);
  for (const c of list('columns')) add((c as { name?: unknown })?.name);
  for (const b of list('buckets')) add((b as { key?: unknown })?.key);
  for (const k of list('displayKeys')) add(k);
  for (const r of list('highlightRules')) add((r as { key?: unknown })?.key);
  return out;
}

/**
 * Every field a dashboard's widgets, tabs (table columns, bucket settings) and filter bar read,
 * each with what reads it, in the dashboard's order; a field read twice by one thing is listed once.
 */
export function fieldsUsed(configuration: Partial<Pick<DashboardDto['configuration'], 'tabs' | 'filters'>>): FieldUse[] {
  const out: FieldUse[] = [];
  const seen = new Set<string>();
  const push = (by: string, fields: string[]) => {
    for (const field of fields) {
      const key = `${by}\u0000${field}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ field, by });
    }
  };
  for (const tab of configuration.tabs ?? []) {
    push(`Tab '${tab.name}'`, fieldsOfSettings(tab.configuration as Record<string, unknown>));
    for (const w of tab.widgets ?? []) push(`Widget '${w.name?.trim() || w.id}'`, fieldsOfSettings(w.configuration as Record<string, unknown>));
  }
  for (const f of configuration.filters ?? []) push(`Filter '${f.label?.trim() || f.field}'`, [f.field]);
  return out;
}
