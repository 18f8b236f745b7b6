import { fieldReader, isEmptyValue } from '../cells';
import type { DateOrder } from '../schemas/dataSource';
import { readDate } from '../types/dates';

/** Values of a field looked at to tell whether it holds dates. */
const SAMPLE = 200;

/**
 * Why a field cannot place records in time, or null when it can: among the first non-empty values
 * of the records, fewer than half read as dates or times (text dates, whole years, epoch seconds or
 * milliseconds: the one date reader decides). No values at all is no reason: the records may come later.
 */
export function dateFieldProblem(records: Iterable<{ data: Record<string, unknown> }>, field: string, dateOrder: DateOrder = 'mdy'): string | null {
  const read = fieldReader(field);
  let seen = 0;
  let dates = 0;
  let example: unknown;
  for (const r of records) {
    const v = read(r.data);
    if (isEmptyValue(v)) continue;
    seen++;
    if (readDate(v, { epoch: true, dateOrder })) dates++;
    else example ??= v;
    if (seen >= SAMPLE) break;
  }
  if (seen === 0 || dates * 2 >= seen) return null;
  const shown = typeof example === 'string' ? `"${example.length > 30 ? `${example.slice(0, 30)}…` : example}"` : JSON.stringify(example);
  return `${dates === 0 ? 'No' : `Only ${dates} of ${seen}`} values of ${field} read as dates or times (${shown} does not): pick a date field. Whole years (1000–2999) and epoch seconds or milliseconds count.`;
}
