import { COLUMN_DEFAULT_WIDTH } from '@common/constants';
import { compareCells, sortOrderFor } from '@common/enumOrder';
import type { ColumnFormat, ValueFormat } from '@common/formats';
import type { DateOrder, FieldType } from '@common/schemas/dataSource';
import { fieldTypeOf, type FieldTyping } from '@common/types/fieldTyping';
import type { TabConfiguration } from '@common/schemas/dashboard';
import type { RecordDto } from '@common/schemas/records/record';
// From common, not ../../cells: the viewer's CSV export reads this module, and cells.tsx draws with antd.
import { fieldsOfRecords, recordFields } from '@common/cells';

/** A column the table draws; `extra` marks fields shown only by "Show All Fields". */
export interface ColumnSpec {
  field: string;
  width: number;
  extra: boolean;
  format?: ColumnFormat;
  currency?: string;
  sortOrder?: string[];
  /** The field's type in the source's type model, and how its numeric dates read. */
  type?: FieldType;
  dateOrder?: DateOrder;
}

/** The columns with their fields' types (common/types). */
export function typedColumns(columns: ColumnSpec[], typing: FieldTyping): ColumnSpec[] {
  return columns.map((c) => {
    const type = fieldTypeOf(typing, c.field);
    return type ? { ...c, type, dateOrder: typing.dateOrder } : c;
  });
}

/** How a column's values read and export: its format and its field's type. */
export const specFormat = (c: ColumnSpec): ValueFormat => ({ format: c.format, currency: c.currency, type: c.type, dateOrder: c.dateOrder });

export const LAST_UPDATED = '__lastUpdated';
/** How many records are sampled for the list of all fields. */
const FIELD_SAMPLE = 50;

/** Configured, visible columns in their order. */
export function configuredColumns(configuration: TabConfiguration): ColumnSpec[] {
  return (configuration.columns ?? [])
    .map((c, i) => ({ ...c, order: c.order ?? i }))
    .filter((c) => c.visible !== false && c.name)
    .sort((a, b) => a.order - b.order)
    .map((c) => ({ field: c.name, width: c.width ?? COLUMN_DEFAULT_WIDTH, extra: false, format: c.format, currency: c.currency, sortOrder: c.sortOrder }));
}

/** Every field the records carry (sampled from the first records), first-seen order. */
export function allFields(records: RecordDto[]): string[] {
  return fieldsOfRecords(records.slice(0, FIELD_SAMPLE));
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

/** Sort order of two cell values of a column: by meaning for known enums or the column's own order (common/enumOrder), numbers by value, empties last. */
export function compareValues(a: unknown, b: unknown, spec?: Pick<ColumnSpec, 'field' | 'sortOrder'>): number {
  return compareCells(a, b, spec ? sortOrderFor(spec.field, spec.sortOrder) : null);
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
