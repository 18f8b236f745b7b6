/** CSV rules shared by the server's full export and the viewer's "as seen" export. */
import { csvValue, type ValueFormat } from './formats';

/** RFC 4180 with CRLF, UTF-8 with BOM; cells with a comma, quote or line break are quoted (csv-stringify options). */
export const CSV_OPTIONS = { bom: true, record_delimiter: '\r\n', quoted_match: /[\r\n",]/ } as const;

/**
 * A cell a spreadsheet would run as a formula gets a leading apostrophe: one starting with = + - @,
 * a tab or a carriage return, or with the full-width ＝ ＋ － ＠ that spreadsheets in East Asian
 * locales read as their ASCII twins.
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(text) ? `'${text}` : text;
}

const UNSAFE_FILE_CHARS = /[\u0000-\u001f\u007f/\\?%*:|"<>]/g;

const clean = (s: string) => s.replace(UNSAFE_FILE_CHARS, '_').trim();

/** "<name>.<ext>" with characters no file system accepts replaced; `fallback` when nothing readable is left. */
export function safeFileName(name: string, fallback: string, ext: string): string {
  return `${/[^_.\s]/.test(clean(name)) ? clean(name) : fallback}.${ext}`;
}

/** "<dashboard>.csv", or "<dashboard> - <tab>.csv", with characters no file system accepts replaced. */
export function csvFileName(dashboardName: string, tabName?: string | null): string {
  const name = /[^_.\s]/.test(clean(dashboardName)) ? clean(dashboardName) : 'dashboard';
  const tab = tabName ? clean(tabName) : '';
  return `${tab && /[^_.\s]/.test(tab) ? `${name} - ${tab}` : name}.csv`;
}

/**
 * One CSV cell by the shared rules: the value in its column's format (common/formats.ts), formulas
 * neutralised; plain numbers and booleans as they are.
 */
export function csvCell(field: string, value: unknown, format: ValueFormat = {}): string {
  if (value === null || value === undefined) return '';
  if ((typeof value === 'number' || typeof value === 'boolean') && !format.format && format.type !== 'datetime') return String(value);
  return neutralise(csvValue(field, value, format));
}
