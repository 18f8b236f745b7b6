import { Tag, Typography } from 'antd';
import { CUSTOM_FIELD_PREFIX } from '@common/constants';
import { cellText, customFields, isEmptyValue } from '@common/cells';
import { formatValue, type ValueFormat } from '@common/formats';
import type { RecordDto } from '@common/schemas/records/record';

export { fieldValue } from '@common/cells';

/** Renders one cell by the cell rules (see common/cells). */
export function CellValue({ value }: { value: unknown }) {
  if (isEmptyValue(value)) return <Typography.Text type="secondary">-</Typography.Text>;
  if (Array.isArray(value)) return <Tag>{value.length} items</Tag>;
  const { text, fullLength } = cellText(value);
  if (typeof value === 'object') return <Typography.Text code style={{ fontSize: 12 }}>{text}</Typography.Text>;
  if (fullLength === undefined) return <span>{text}</span>;
  return (
    <span>
      {text}{' '}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>({fullLength} characters total)</Typography.Text>
    </span>
  );
}

/** A value in its column's format (dates local, numbers with separators), the full value on hover; objects and arrays as CellValue. */
export function FormattedValue({ field, value, column }: { field: string; value: unknown; column?: ValueFormat }) {
  if (isEmptyValue(value) || typeof value === 'object') return <CellValue value={value} />;
  const shown = formatValue(field, value, column);
  if (shown.fullLength !== undefined) return <CellValue value={value} />;
  return <span title={shown.title}>{shown.text}</span>;
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

/** A short name of a value's type, for data structure tables. */
export function valueType(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
