/**
 * Database values as JSON a data source keeps: numbers stay numbers while a double holds them
 * exactly (bigints and decimals beyond that stay text, never silently rounded), times become ISO
 * 8601 UTC strings, bytes become base64.
 */

/** A whole number or decimal written as text: a number when a double holds it exactly, else the text. */
export function exactNumber(text: string): number | string {
  const n = Number(text);
  if (!Number.isFinite(n)) return text;
  // A double keeps 15 significant digits; beyond that the text is the only exact form.
  const mantissa = text.trim().replace(/^[-+]/, '').split(/e/i)[0];
  const significant = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return significant.length <= 15 ? n : text;
}

/** A date-time written without a zone (a PostgreSQL `timestamp`, a MySQL `DATETIME`) read as UTC, to ISO 8601. */
export function utcDateTime(text: string): string {
  const d = new Date(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) ? text : d.toISOString();
}

/** Any value a driver hands over, as JSON-safe data. */
export function jsonValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return exactNumber(v.toString());
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString('base64');
  if (Array.isArray(v)) return v.map(jsonValue);
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return v;
}
