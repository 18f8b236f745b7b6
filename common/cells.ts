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
