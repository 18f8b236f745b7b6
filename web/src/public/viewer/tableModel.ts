import { COLUMN_DEFAULT_WIDTH } from '@common/constants';
import type { TabConfiguration } from '@common/schemas/dashboard';
import type { RecordDto } from '@common/schemas/record';
import { recordFields } from '../cells';

/** A column the table draws; `extra` marks fields shown only by "Show All Fields". */
export interface ColumnSpec {
  field: string;
  width: number;
  extra: boolean;
}

export const LAST_UPDATED = '__lastUpdated';
/** How many records are sampled for the list of all fields. */
const FIELD_SAMPLE = 50;

/** Configured, visible columns in their order. */
export function configuredColumns(configuration: TabConfiguration): ColumnSpec[] {
  return (configuration.columns ?? [])
    .map((c, i) => ({ ...c, order: c.order ?? i }))
    .filter((c) => c.visible !== false && c.name)
    .sort((a, b) => a.order - b.order)
    .map((c) => ({ field: c.name, width: c.width ?? COLUMN_DEFAULT_WIDTH, extra: false }));
}

/** Every field the records carry (sampled from the first records), first-seen order. */
export function allFields(records: RecordDto[]): string[] {
  const seen = new Set<string>();
  for (const r of records.slice(0, FIELD_SAMPLE)) for (const f of recordFields(r)) seen.add(f);
  return [...seen];
}

/** The columns to draw and the "Showing X of Y fields" figures. */
export function tableColumns(configuration: TabConfiguration, records: RecordDto[], showAll: boolean) {
  const configured = configuredColumns(configuration);
  const hasConfig = (configuration.columns ?? []).length > 0;
  const base = hasConfig ? configured : records.length ? recordFields(records[0]).map((field) => ({ field, width: COLUMN_DEFAULT_WIDTH, extra: false })) : [];
  const fields = allFields(records);
  const inBase = new Set(base.map((c) => c.field));
  const extras = fields.filter((f) => !inBase.has(f));
  const total = inBase.size + extras.length;
  const columns = showAll ? [...base, ...extras.map((field) => ({ field, width: COLUMN_DEFAULT_WIDTH, extra: hasConfig }))] : base;
  return { columns, total, hasConfig, canToggle: hasConfig };
}

const searchCache = new WeakMap<RecordDto, string>();

/** Lower-case text of all values of a record, cached per record object. */
export function searchText(r: RecordDto): string {
  let s = searchCache.get(r);
  if (s === undefined) {
    const parts: string[] = [];
    for (const v of Object.values(r.data)) {
      if (v === null || v === undefined) continue;
      parts.push(typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    s = parts.join('\u0001').toLowerCase();
    searchCache.set(r, s);
  }
  return s;
}

/** Sort order of two cell values: numbers by value, empties last, otherwise text. */
export function compareValues(a: unknown, b: unknown): number {
  const ea = a === null || a === undefined || a === '';
  const eb = b === null || b === undefined || b === '';
  if (ea || eb) return ea === eb ? 0 : ea ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = typeof a === 'object' ? JSON.stringify(a) : String(a);
  const sb = typeof b === 'object' ? JSON.stringify(b) : String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * Builds the filter text of records in small idle-time slices, so the first keystroke in
 * "Filter records..." does not pay for 100k records at once. Returns a cancel function.
 */
export function warmSearchText(records: RecordDto[]): () => void {
  let i = 0;
  let handle = 0;
  const step = () => {
    const end = Math.min(records.length, i + 2_000);
    for (; i < end; i++) searchText(records[i]);
    if (i < records.length) handle = window.setTimeout(step, 0);
  };
  handle = window.setTimeout(step, 50);
  return () => window.clearTimeout(handle);
}
