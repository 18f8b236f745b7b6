import { Tag, Typography } from 'antd';
import { CUSTOM_FIELD_PREFIX, OBJECT_CELL_CUT, STRING_CELL_CUT } from '@common/constants';
import type { CustomFieldValue, RecordDto } from '@common/schemas/record';

/** The display form of one cell value (spec 2.7 and 2.10 cell rules). */
export type CellView =
  | { kind: 'empty' }
  | { kind: 'array'; count: number }
  | { kind: 'object'; text: string }
  | { kind: 'long'; text: string; length: number }
  | { kind: 'text'; text: string };

/** Applies the cell rules: dash, 50-char JSON + "...", item count, 100-char cut with the total length. */
export function cellView(value: unknown): CellView {
  if (value === null || value === undefined || value === '') return { kind: 'empty' };
  if (Array.isArray(value)) return { kind: 'array', count: value.length };
  if (typeof value === 'object') {
    const json = JSON.stringify(value);
    return { kind: 'object', text: json.length > OBJECT_CELL_CUT ? `${json.slice(0, OBJECT_CELL_CUT)}...` : json };
  }
  const text = String(value);
  if (text.length > STRING_CELL_CUT) return { kind: 'long', text: text.slice(0, STRING_CELL_CUT), length: text.length };
  return { kind: 'text', text };
}

/** Renders one cell by the rules of cellView. */
export function CellValue({ value }: { value: unknown }) {
  const v = cellView(value);
  switch (v.kind) {
    case 'empty':
      return <Typography.Text type="secondary">-</Typography.Text>;
    case 'array':
      return <Tag>{v.count} items</Tag>;
    case 'object':
      return <Typography.Text code style={{ fontSize: 12 }}>{v.text}</Typography.Text>;
    case 'long':
      return (
        <span>
          {v.text}...{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>({v.length} characters total)</Typography.Text>
        </span>
      );
    default:
      return <span>{v.text}</span>;
  }
}

function customFields(data: Record<string, unknown>): CustomFieldValue[] {
  const list = data.custom_fields;
  return Array.isArray(list) ? list.filter((x): x is CustomFieldValue => typeof x === 'object' && x !== null && 'id' in x) : [];
}

/** The field names of records (keyOrder first, then data keys), without custom_fields. */
export function recordFields(records: RecordDto[]): string[] {
  const seen = new Set<string>();
  for (const r of records) {
    for (const k of [...(r.keyOrder ?? []), ...Object.keys(r.data)]) if (k !== 'custom_fields') seen.add(k);
  }
  return [...seen];
}

/** The custom field ids found in the records' custom_fields lists, in first-seen order. */
export function customFieldIds(records: RecordDto[]): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const f of customFields(r.data)) seen.add(String(f.id));
  return [...seen];
}

/** Column name of a custom field: custom_<id>. */
export const customColumn = (id: string) => `${CUSTOM_FIELD_PREFIX}${id}`;

/** A cell's value: a data field, or a custom field for `custom_<id>` columns not present as a field. */
export function fieldValue(data: Record<string, unknown>, column: string): unknown {
  if (Object.prototype.hasOwnProperty.call(data, column)) return data[column];
  if (column.startsWith(CUSTOM_FIELD_PREFIX)) {
    const id = column.slice(CUSTOM_FIELD_PREFIX.length);
    return customFields(data).find((f) => String(f.id) === id)?.value;
  }
  return undefined;
}

/** A short name of a value's type, for data structure tables. */
export function valueType(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
