/**
 * How a value reads to a person (viewer, admin previews) and how it is written to CSV, by the
 * column's format. Shared by the web app and the server's CSV export so both say the same.
 */
import { cellText, isEmptyValue } from './cells';
import { CUSTOM_FIELD_PREFIX } from './constants';
import type { DateOrder, FieldType } from './schemas/dataSource';
import { parseDateText, readDate, type ReadDate } from './types/dates';
import { TIME_NAME } from './types/infer';

export const COLUMN_FORMATS = ['auto', 'text', 'number', 'date', 'currency', 'percent'] as const;
export type ColumnFormat = (typeof COLUMN_FORMATS)[number];
export const COLUMN_FORMAT_LABELS: Record<ColumnFormat, string> = {
  auto: 'Automatic', text: 'Text', number: 'Number', date: 'Date & time', currency: 'Currency', percent: 'Percent (0.25 → 25%)',
};

/** The parts of a table column that shape its values. */
export interface ValueFormat {
  format?: ColumnFormat;
  /** ISO 4217 code for `currency` (default USD). */
  currency?: string;
  /** The field's type in the source's type model (common/types): under "auto" it decides how values read. */
  type?: FieldType;
  /** How the source writes numeric dates (01/02/2024). */
  dateOrder?: DateOrder;
}

/** One name per field everywhere: its label, else "Custom Field <id>" for custom fields, else the key. */
export function fieldLabel(field: string, labels: Record<string, string> | undefined | null): string {
  const label = labels?.[field]?.trim();
  if (label) return label;
  if (field.startsWith(CUSTOM_FIELD_PREFIX) && field.length > CUSTOM_FIELD_PREFIX.length) return `Custom Field ${field.slice(CUSTOM_FIELD_PREFIX.length)}`;
  return field;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
/** Field names of identifiers (ticket_id, userId, id): their numbers read as they are, without separators. */
const ID_FIELD = /(?:^|[_\-.\s])id$|[a-z]Id$|^id$/i;
// Epoch seconds and milliseconds between 2001 and 2286: for a field of no known type, anything else is a plain number.
const EPOCH_S = [1e9, 1e10] as const;
const EPOCH_MS = [1e12, 1e13] as const;

/** True for an ISO-8601 date or date-time string. */
export const isIsoDate = (v: unknown): v is string => typeof v === 'string' && ISO_DATE.test(v) && parseDateText(v) !== null;

/**
 * The date a value names, read by the one date reader (common/types/dates): for a date-time field
 * (or a "Date & time" column) every supported form and epoch numbers; for a field of another type
 * none; for a field of no known type (yet) ISO-8601 texts and, where the name says time, epoch numbers.
 */
export function readValueDate(field: string, v: unknown, fmt: ValueFormat = {}): ReadDate | null {
  const format = fmt.format ?? 'auto';
  if (format === 'date' || (format === 'auto' && fmt.type === 'datetime')) return readDate(v, { dateOrder: fmt.dateOrder, epoch: true });
  if (format !== 'auto' || fmt.type) return null;
  if (isIsoDate(v)) return parseDateText(v);
  if (typeof v !== 'number' || !TIME_NAME.test(field)) return null;
  return (v >= EPOCH_S[0] && v < EPOCH_S[1]) || (v >= EPOCH_MS[0] && v < EPOCH_MS[1]) ? readDate(v, { epoch: true }) : null;
}

/** The instant a value names: an ISO-8601 string, or (for time-named fields, or any field when `force`) epoch seconds or milliseconds. */
export function asDate(field: string, v: unknown, force = false): Date | null {
  const d = readValueDate(field, v, force ? { format: 'date' } : {});
  return d ? new Date(d.time) : null;
}

const asNumber = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

const numberFormat = new Map<string, Intl.NumberFormat>();
function nf(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
  let f = numberFormat.get(key);
  if (!f) numberFormat.set(key, (f = make()));
  return f;
}
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** Dates with no zone are shown as written: in UTC (common/types/dates). */
const dateTimeUtc = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** A number with thousands separators (up to 2 decimals, more for small magnitudes). */
export const formatNumber = (n: number) => nf('n', () => new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 })).format(n);

function currencyFormat(code: string | undefined) {
  const c = (code || 'USD').toUpperCase();
  try {
    return nf(`c:${c}`, () => new Intl.NumberFormat(undefined, { style: 'currency', currency: c }));
  } catch {
    return nf('c:USD', () => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }));
  }
}

/** A date as a person reads it: a day alone, a time without zone as written (UTC), an instant in local time. */
export function formatDate(d: ReadDate): string {
  return (d.dateOnly ? dateOnly : d.zoned ? dateTime : dateTimeUtc).format(d.time);
}

/** What a cell shows: `text`, and `title` the full value when the text is not the value itself. */
export interface Shown {
  text: string;
  title?: string;
  /** Full length of a cut text (shown as "(N characters)"). */
  fullLength?: number;
  /** Numbers align right. */
  numeric?: boolean;
}

/**
 * How a value reads under a column format. "auto" follows the field's type: a date-time field's
 * dates (every supported form) read as dates, a number field's numbers and number texts get
 * separators, a text or category field's values read as written ("1941" stays "1941"); a field of
 * no known type finds ISO dates and JavaScript numbers by themselves.
 */
export function formatValue(field: string, value: unknown, fmt: ValueFormat = {}): Shown {
  if (isEmptyValue(value)) return { text: '-' };
  const format = fmt.format ?? 'auto';
  if (format === 'text' || (format === 'auto' && (fmt.type === 'text' || fmt.type === 'category' || fmt.type === 'boolean'))) return cellText(value);
  if (format === 'auto' || format === 'date') {
    const d = readValueDate(field, value, fmt);
    if (d) return { text: formatDate(d), title: `${new Date(d.time).toISOString()} (${typeof value === 'string' ? value : String(value)})` };
    if (format === 'date' || fmt.type === 'datetime') return cellText(value);
  }
  const n = asNumber(value);
  if (format === 'auto') {
    if (n === null || (typeof value !== 'number' && fmt.type !== 'number')) return cellText(value);
    return ID_FIELD.test(field) ? { text: String(value), numeric: true } : { text: formatNumber(n), title: String(value), numeric: true };
  }
  if (n === null) return cellText(value);
  if (format === 'currency') return { text: currencyFormat(fmt.currency).format(n), title: String(value), numeric: true };
  if (format === 'percent') return { text: nf('p', () => new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 })).format(n), title: String(value), numeric: true };
  return { text: formatNumber(n), title: String(value), numeric: true };
}

/**
 * The CSV cell of a value before formula neutralising: the raw value under "auto" and "text"
 * (spreadsheets read ISO dates and plain numbers) except a date-time field's dates, the column
 * format written so a spreadsheet still reads it otherwise: dates (any written form, epoch
 * numbers) as ISO 8601 UTC, numbers plain, currency with 2 decimals,
 * percent as "25%".
 */
export function csvValue(field: string, value: unknown, fmt: ValueFormat = {}): string {
  if (value === null || value === undefined) return '';
  const format = fmt.format ?? 'auto';
  if (format === 'date' || (format === 'auto' && fmt.type === 'datetime')) {
    const d = readValueDate(field, value, fmt);
    if (d) return new Date(d.time).toISOString();
  }
  const n = asNumber(value);
  if (n !== null && format === 'number') return String(n);
  if (n !== null && format === 'currency') return n.toFixed(2);
  if (n !== null && format === 'percent') return `${Number((n * 100).toFixed(6))}%`;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
