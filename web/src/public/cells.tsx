import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { CUSTOM_FIELD_PREFIX } from '@common/constants';
import { cellText, fieldValue as dataFieldValue, isEmptyValue } from '@common/cells';
import { formatValue, type ValueFormat } from '@common/formats';
import { ReadableTag } from './PublicTheme';

export { cellText, isEmptyValue };
import type { CustomFieldValue, RecordDto } from '@common/schemas/records/record';

/** A field of a record; `custom_<id>` reads the value of custom field <id> from data.custom_fields. */
export const fieldValue = (record: RecordDto, field: string): unknown => dataFieldValue(record.data, field);

/** Every field name of a record: keyOrder first, then other data keys; custom_fields become custom_<id>. */
export function recordFields(record: RecordDto): string[] {
  const names = [...record.keyOrder.filter((k) => k in record.data), ...Object.keys(record.data).filter((k) => !record.keyOrder.includes(k))];
  const out: string[] = [];
  for (const name of names) {
    if (name === 'custom_fields' && Array.isArray(record.data.custom_fields)) {
      for (const f of record.data.custom_fields as CustomFieldValue[]) if (f && f.id !== undefined) out.push(`${CUSTOM_FIELD_PREFIX}${f.id}`);
    } else out.push(name);
  }
  return out;
}

const STATUS_COLORS: Record<string, string> = { open: 'blue', closed: 'green', 'in progress': 'yellow' };
const PRIORITY_COLORS: Record<string, string> = { high: 'red', medium: 'yellow', low: 'blue' };
// antd's "yellow" tag is hard to read on white; its "gold" is the readable yellow.
const TAG_PRESET: Record<string, string> = { yellow: 'gold', gray: 'default' };

/** The badge colour name of a status or priority field, or null for other fields. */
export function badgeColor(field: string, value: unknown): string | null {
  const f = field.toLowerCase();
  if (f !== 'status' && f !== 'priority') return null;
  const v = String(value ?? '').toLowerCase();
  return (f === 'status' ? STATUS_COLORS[v] : PRIORITY_COLORS[v]) ?? 'gray';
}

/**
 * One table cell: dash for empty, status/priority badges, the value in its column's format (dates
 * local, numbers with separators; the full value on hover), cut text with a length note.
 */
export function Cell({ field, value, format }: { field: string; value: unknown; format?: ValueFormat }): ReactNode {
  if (isEmptyValue(value)) return <Typography.Text type="secondary">-</Typography.Text>;
  const color = !format?.format || format.format === 'auto' ? badgeColor(field, value) : null;
  if (color) return <ReadableTag color={TAG_PRESET[color] ?? color} data-badge={color}>{String(value)}</ReadableTag>;
  const { text, fullLength, title } = formatValue(field, value, format);
  if (title) return <span title={title} data-formatted="">{text}</span>;
  if (fullLength === undefined) return text;
  return (
    <span title={String(value)} style={{ display: 'flex', gap: 4, minWidth: 0 }}>
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{text}</span>
      <Typography.Text type="secondary" style={{ flex: 'none' }}>({fullLength} characters)</Typography.Text>
    </span>
  );
}

/** A local date-time for an ISO timestamp. */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return '-';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
