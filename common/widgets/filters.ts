import { fieldReader, isEmptyValue } from '../cells';
import { timeOf } from '../types/dates';
import { fieldTypeOf, type FieldTyping } from '../types/fieldTyping';
import type { WidgetFilter } from '../schemas/widgets/widget';

/** Widget filters (and the numbers they compare): compiled once, run per record. */

type Data = Record<string, unknown>;

/** A number from a number or a numeric string; anything else is not a number. */
export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A field's value as a filter compares it as text: trimmed, lower case; empty is "". */
function filterText(raw: unknown): string {
  return isEmptyValue(raw) ? '' : (typeof raw === 'object' ? JSON.stringify(raw) : String(raw)).trim().toLowerCase();
}

/** "Is one of": the field equals one of the values, as text case-insensitively or as a number ("5" is "5.0"). */
function compileOneOf(field: string, values: readonly string[]): (data: Data) => boolean {
  const texts = new Set(values.map((v) => v.trim().toLowerCase()));
  const numbers = new Set(values.map(toNumber).filter((n): n is number => n !== null));
  const read = fieldReader(field);
  return (data) => {
    const raw = read(data);
    if (texts.has(filterText(raw))) return true;
    if (numbers.size === 0) return false;
    const n = toNumber(raw);
    return n !== null && numbers.has(n);
  };
}

/**
 * A widget's filter compiled once: numbers compare as numbers, text case-insensitively; on a
 * date-time field (by the source's types) a value in a date form compares as a point in time.
 */
export function compileFilter(filter: WidgetFilter | undefined, typing?: FieldTyping | null): (data: Data) => boolean {
  if (!filter) return () => true;
  if (filter.operator === 'in') return compileOneOf(filter.field, filter.values ?? []);
  const right = filter.value.trim().toLowerCase();
  const isDate = fieldTypeOf(typing, filter.field) === 'datetime';
  const reading = { dateOrder: typing?.dateOrder, epoch: true };
  const bTime = isDate && filter.operator !== 'contains' ? timeOf(filter.value, reading) : NaN;
  const dates = !Number.isNaN(bTime);
  const b = dates ? bTime : toNumber(filter.value);
  const op = filter.operator;
  const read = fieldReader(filter.field);
  return (data) => {
    const raw = read(data);
    const a = b === null ? null : dates ? numberOrNull(timeOf(raw, reading)) : toNumber(raw);
    // A value that is no date is never before or after one; an empty value is never more or less than a number.
    if (dates && a === null) return op === 'neq';
    if (a === null && b !== null && ORDER_OPS.has(op) && isEmptyValue(raw)) return false;
    if (a !== null && b !== null) {
      switch (op) {
        case 'eq': return a === b;
        case 'neq': return a !== b;
        case 'gt': return a > b;
        case 'gte': return a >= b;
        case 'lt': return a < b;
        case 'lte': return a <= b;
      }
    }
    const left = filterText(raw);
    switch (op) {
      case 'eq': return left === right;
      case 'neq': return left !== right;
      case 'contains': return left.includes(right);
    }
    const cmp = left.localeCompare(right);
    return op === 'gt' ? cmp > 0 : op === 'gte' ? cmp >= 0 : op === 'lt' ? cmp < 0 : cmp <= 0;
  };
}

const ORDER_OPS: ReadonlySet<string> = new Set(['gt', 'gte', 'lt', 'lte']);
const numberOrNull = (n: number) => (Number.isNaN(n) ? null : n);

/** A widget's filters compiled once: a record passes when it matches all of them. */
export function compileFilters(filters: readonly WidgetFilter[] | undefined, typing?: FieldTyping | null): (data: Data) => boolean {
  const tests = (filters ?? []).map((f) => compileFilter(f, typing));
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0];
  return (data) => tests.every((t) => t(data));
}

/** Whether a record passes a widget's filter. */
export function matchesFilter(data: Data, filter: WidgetFilter | undefined, typing?: FieldTyping | null): boolean {
  return compileFilter(filter, typing)(data);
}
