import { CUSTOM_FIELD_PREFIX, OBJECT_CELL_CUT, STRING_CELL_CUT } from './constants';
import { pathReader, readPath } from './paths';
import type { CustomFieldValue } from './schemas/records/record';

type Data = Record<string, unknown>;

export const isEmptyValue = (v: unknown) => v === null || v === undefined || v === '';

/**
 * The display text of a cell the same in the raw viewer, the table editor and the public viewer: a dash for empty, "N items"
 * for arrays, 50 characters of JSON + "..." for objects, 100 characters + "..." for long text
 * (with the full length, for the note).
 */
export function cellText(value: unknown): { text: string; fullLength?: number } {
  if (isEmptyValue(value)) return { text: '-' };
  if (Array.isArray(value)) return { text: `${value.length} items` };
  if (typeof value === 'object') {
    const json = JSON.stringify(value);
    return { text: json.length > OBJECT_CELL_CUT ? `${json.slice(0, OBJECT_CELL_CUT)}...` : json };
  }
  const s = String(value);
  if (s.length > STRING_CELL_CUT) return { text: `${s.slice(0, STRING_CELL_CUT)}...`, fullLength: s.length };
  return { text: s };
}

/** A record's custom_fields list (support-desk style), or an empty list. */
export function customFields(data: Data): CustomFieldValue[] {
  const list = data.custom_fields;
  return Array.isArray(list) ? list.filter((x): x is CustomFieldValue => typeof x === 'object' && x !== null && 'id' in x) : [];
}

/** The value of custom field <id>, or undefined. */
export function customFieldValue(data: Data, id: string): unknown {
  return customFields(data).find((f) => String(f.id) === id)?.value;
}

/**
 * A column's value: a field or a path into nested JSON (common/paths), or for `custom_<id>` columns
 * not present as a field, custom field <id>.
 */
export function fieldValue(data: Data, column: string): unknown {
  const value = readPath(data, column);
  if (value === undefined && column.startsWith(CUSTOM_FIELD_PREFIX)) return customFieldValue(data, column.slice(CUSTOM_FIELD_PREFIX.length));
  return value;
}

/**
 * `fieldValue` for one column, compiled once for a pass over many records: a plain field name no
 * object inherits (almost all of them) is one property read, the rest take the careful path.
 */
export function fieldReader(column: string): (data: Data) => unknown {
  if (column.startsWith(CUSTOM_FIELD_PREFIX)) return (data) => fieldValue(data, column);
  return pathReader(column);
}

/** A record as the field listing reads it: its data, and the order its keys arrived in when known. */
interface FieldSource {
  data: Data;
  keyOrder?: readonly string[] | null;
}

/**
 * Every field name of a record, the one listing for the server and every screen: keyOrder first,
 * then the other data keys; a support-desk `custom_fields` list becomes one `custom_<id>` field per
 * custom field (`expand`, what tables and charts offer) or is left out (`omit`, what a source's
 * field list and the admin's own custom-field columns use).
 */
export function recordFields(record: FieldSource, custom: 'expand' | 'omit' = 'expand'): string[] {
  const order = record.keyOrder ?? [];
  const names = [...order.filter((k) => k in record.data), ...Object.keys(record.data).filter((k) => !order.includes(k))];
  const out: string[] = [];
  for (const name of names) {
    if (name !== 'custom_fields') out.push(name);
    else if (custom === 'expand') for (const f of customFields(record.data)) out.push(`${CUSTOM_FIELD_PREFIX}${f.id}`);
  }
  return out;
}

/** The fields of several records (the union of `recordFields`), in first-seen order. */
export function fieldsOfRecords(records: readonly FieldSource[], custom: 'expand' | 'omit' = 'expand'): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const f of recordFields(r, custom)) seen.add(f);
  return [...seen];
}
