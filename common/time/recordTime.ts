import type { DateOrder } from '../schemas/dataSource';
import { pathReader } from '../paths';
import { readDate } from '../types/dates';

type Data = Record<string, unknown>;

/**
 * A time field's value as epoch milliseconds, or null when it reads as no time. A time field is a
 * date-time, so the one date reader (common/types/dates) takes every form it knows: ISO 8601,
 * written dates ("Jun 12 1998", numeric ones by the source's dateOrder) and epoch seconds (with
 * fractions) or milliseconds, as numbers or numeric text.
 */
export function readTime(value: unknown, dateOrder: DateOrder = 'mdy'): number | null {
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.getTime() : null;
  return readDate(value, { epoch: true, dateOrder })?.time ?? null;
}

/**
 * The time a record happened, as retention, range queries and the viewer's default order use it:
 * its time field when set and readable, otherwise the time its current version was received.
 */
export function recordTimeReader(timeField: string | null | undefined, dateOrder: DateOrder = 'mdy'): (data: Data, received: number) => number {
  if (!timeField) return (_data, received) => received;
  const read = pathReader(timeField);
  return (data, received) => readTime(read(data), dateOrder) ?? received;
}
