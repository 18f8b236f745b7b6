import { pathReader } from './paths';

type Data = Record<string, unknown>;

/**
 * A time field's value as epoch milliseconds, or null when it reads as no time: ISO 8601 text
 * (`2024-03-01`, `2024-03-01T10:00:00Z`), epoch seconds (with fractions) or epoch milliseconds
 * (numbers or numeric text; below 10^11 counts as seconds).
 * TODO(merge): the type model's date parser (common/types) replaces this one.
 */
export function readTime(value: unknown): number | null {
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.getTime() : null;
  let n: number | null = null;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    const s = value.trim();
    if (/^-?\d+(\.\d+)?$/.test(s)) n = Number(s);
    else if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(s)) {
      const t = Date.parse(s.replace(' ', 'T'));
      return Number.isFinite(t) ? t : null;
    }
  }
  if (n === null || !Number.isFinite(n)) return null;
  const ms = Math.abs(n) < 1e11 ? n * 1000 : n;
  // Beyond what a Date holds.
  return Math.abs(ms) <= 8.64e15 ? Math.round(ms) : null;
}

/**
 * The time a record happened, as retention, range queries and the viewer's default order use it:
 * its time field when set and readable, otherwise the time its current version was received.
 */
export function recordTimeReader(timeField: string | null | undefined): (data: Data, received: number) => number {
  if (!timeField) return (_data, received) => received;
  const read = pathReader(timeField);
  return (data, received) => readTime(read(data)) ?? received;
}
