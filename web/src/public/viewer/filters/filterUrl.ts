import { defaultChoice } from '@common/filterBar';
import type { DashboardFilter, FilterChoice, FilterChoices } from '@common/schemas/widgets/dashboardFilter';
import { CALENDAR_PERIODS, RELATIVE_RANGES, TimeRange, type CalendarPeriod, type RelativeRange } from '@common/time/timeRanges';

/**
 * The filter bar's state in the page's URL, so a filtered view is a link: one `f.<filter id>`
 * parameter per filter that differs from its default.
 * - category: the parameter repeated, one value each (`f.genre=Drama&f.genre=Comedy`);
 * - date range: `all`, `last:7d`, `this:month`, `prev:month`, or `<from ISO>..<to ISO>`;
 * - number range: `<min>..<max>`, either side empty (`10..`, `..99`).
 * Anything unreadable is ignored (the filter keeps its default).
 */
export const paramOf = (filterId: string) => `f.${filterId}`;

export function rangeParam(range: TimeRange): string {
  switch (range.kind) {
    case 'all': return 'all';
    case 'relative': return `last:${range.last}`;
    case 'calendar': return `${range.previous ? 'prev' : 'this'}:${range.period}`;
    case 'fixed': return `${range.from}..${range.to}`;
  }
}

export function parseRange(text: string): TimeRange | null {
  if (text === 'all') return { kind: 'all' };
  const [head, tail] = text.split(':', 2);
  if (head === 'last' && (RELATIVE_RANGES as readonly string[]).includes(tail)) return { kind: 'relative', last: tail as RelativeRange };
  if ((head === 'this' || head === 'prev') && (CALENDAR_PERIODS as readonly string[]).includes(tail)) return { kind: 'calendar', period: tail as CalendarPeriod, previous: head === 'prev' };
  const [from, to] = text.split('..');
  const fixed = TimeRange.safeParse({ kind: 'fixed', from, to });
  return fixed.success ? fixed.data : null;
}

const numberOrNull = (s: string | undefined): number | null => {
  if (s === undefined || s.trim() === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
};

/** Each filter's choice from the URL (its default where the URL says nothing readable). */
export function readChoices(filters: readonly DashboardFilter[], search: URLSearchParams): FilterChoices {
  const out: FilterChoices = {};
  for (const f of filters) {
    const values = search.getAll(paramOf(f.id));
    let choice: FilterChoice | null = null;
    if (values.length) {
      if (f.kind === 'category') choice = { kind: 'category', values: [...new Set(values.filter(Boolean))] };
      else if (f.kind === 'date') {
        const range = parseRange(values[0]);
        choice = range ? { kind: 'date', range } : null;
      } else {
        const [min, max] = values[0].split('..');
        choice = { kind: 'number', min: numberOrNull(min), max: numberOrNull(max) };
      }
    }
    out[f.id] = choice ?? defaultChoice(f);
  }
  return out;
}

/** The URL's parameters with one filter's choice written (removed when it is the filter's default); other parameters kept. */
export function writeChoice(search: URLSearchParams, filter: DashboardFilter, choice: FilterChoice): URLSearchParams {
  const next = new URLSearchParams(search);
  const name = paramOf(filter.id);
  next.delete(name);
  if (JSON.stringify(choice) === JSON.stringify(defaultChoice(filter))) return next;
  if (choice.kind === 'category') for (const v of choice.values) next.append(name, v);
  else if (choice.kind === 'date') next.set(name, rangeParam(choice.range));
  else if (choice.min !== null || choice.max !== null) next.set(name, `${choice.min ?? ''}..${choice.max ?? ''}`);
  return next;
}
