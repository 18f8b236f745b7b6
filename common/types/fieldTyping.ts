/**
 * A source's type model as the places that show values use it: each field's type and how the
 * source writes numeric dates. Tables, cards, charts, filters and CSV take one `FieldTyping`.
 */
import { isEmptyValue } from '../cells';
import type { ValueFormat } from '../formats';
import type { DateOrder, FieldType } from '../schemas/dataSource';
import { timeOf } from './dates';

export interface FieldTyping {
  fieldTypes: Record<string, FieldType>;
  dateOrder: DateOrder;
}

export const NO_TYPING: FieldTyping = { fieldTypes: {}, dateOrder: 'mdy' };

/** A field's type (own property only: a field named "toString" has none). */
export function fieldTypeOf(typing: FieldTyping | null | undefined, field: string): FieldType | undefined {
  return typing && Object.prototype.hasOwnProperty.call(typing.fieldTypes, field) ? typing.fieldTypes[field] : undefined;
}

/** A column's value format with its field's type. */
export function typedFormat(typing: FieldTyping | null | undefined, field: string, column: ValueFormat = {}): ValueFormat {
  return typing ? { ...column, type: fieldTypeOf(typing, field), dateOrder: typing.dateOrder } : column;
}

/**
 * The value a cell sorts by: a date-time field's dates as milliseconds (so they sort in time order,
 * whatever form they are written in), a number field's number texts as numbers, else the value.
 */
export function sortValue(value: unknown, type: FieldType | undefined, dateOrder: DateOrder = 'mdy'): unknown {
  if (isEmptyValue(value)) return value;
  if (type === 'datetime') {
    const t = timeOf(value, { dateOrder, epoch: true });
    return Number.isNaN(t) ? value : t;
  }
  if (type === 'number' && typeof value === 'string') {
    const n = Number(value.trim());
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  }
  return value;
}
