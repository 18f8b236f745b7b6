/**
 * The dashboard's filters applied to records, the same on server and web: a viewer's choices in the
 * filter bar (common/schemas/widgets/dashboardFilter.ts) and a share link's locked filters (widget filters,
 * all applied) each compile once into one test of a record.
 */
import { fieldReader, isEmptyValue } from './cells';
import type { DashboardFilter, FilterChoice, FilterChoices } from './schemas/widgets/dashboardFilter';
import type { WidgetFilter } from './schemas/widgets/widget';
import { inWindow, relativeEnd, relativeStart, resolveRange, type RelativeRange } from './time/timeRanges';
import { timeOf } from './types/dates';
import { NO_TYPING, type FieldTyping } from './types/fieldTyping';
import { compileFilter, toNumber } from './widgets/filters';

type Data = Record<string, unknown>;
export type RecordTest = (data: Data) => boolean;

/** Every test passes (none: everything passes). */
export function allOf(tests: RecordTest[]): RecordTest | null {
  if (tests.length === 0) return null;
  if (tests.length === 1) return tests[0];
  return (data) => {
    for (const t of tests) if (!t(data)) return false;
    return true;
  };
}

/** Whether a choice narrows anything (no values, all time and no bounds do not). */
export function isActiveChoice(choice: FilterChoice | undefined): choice is FilterChoice {
  if (!choice) return false;
  if (choice.kind === 'category') return choice.values.length > 0;
  if (choice.kind === 'date') return choice.range.kind !== 'all';
  return choice.min !== null || choice.max !== null;
}

/** The choice a filter starts with: nothing picked; a date filter's configured range. */
export function defaultChoice(filter: DashboardFilter): FilterChoice {
  if (filter.kind === 'category') return { kind: 'category', values: [] };
  if (filter.kind === 'date') return { kind: 'date', range: filter.range };
  return { kind: 'number', min: null, max: null };
}

/**
 * One filter's choice as a test of a record; null when it does not narrow. A relative range ("last
 * 15 minutes") is measured from the clock at each test — the live one, or `now` when given — and
 * has no end, so a record pushed after the test was made passes; calendar and fixed ranges resolve
 * at `now` (default: when compiled).
 */
export function compileChoice(field: string, choice: FilterChoice, typing: FieldTyping = NO_TYPING, now?: number): RecordTest | null {
  if (!isActiveChoice(choice)) return null;
  if (choice.kind === 'category') return compileFilter({ field, operator: 'in', value: '', values: choice.values });
  const read = fieldReader(field);
  if (choice.kind === 'number') {
    const { min, max } = choice;
    return (data) => {
      const n = toNumber(read(data));
      return n !== null && (min === null || n >= min) && (max === null || n <= max);
    };
  }
  const reading = { dateOrder: typing.dateOrder, epoch: true };
  const timeIn = (data: Data) => timeOf(read(data), reading);
  if (choice.range.kind === 'relative') {
    const from = startOf(choice.range.last, now);
    return (data) => timeIn(data) >= from();
  }
  const window = resolveRange(choice.range, now ?? Date.now());
  return (data) => {
    const t = timeIn(data);
    return !Number.isNaN(t) && inWindow(t, window);
  };
}

/** A relative range's start by the clock (read again at most once a millisecond: a pass over many records reads it once). */
function startOf(last: RelativeRange, now: number | undefined): () => number {
  let at = Number.NaN;
  let start = 0;
  return () => {
    const t = now ?? Date.now();
    if (t !== at) {
      at = t;
      start = relativeStart(last, t);
    }
    return start;
  };
}

/**
 * When a record stops passing the bar's relative date ranges as time goes on: the earliest of the
 * instants its dates leave them (null: never, or not by time). Null when no relative range is chosen.
 */
export function agingOf(filters: readonly DashboardFilter[], choices: FilterChoices, typing: FieldTyping = NO_TYPING): ((data: Data) => number | null) | null {
  const reading = { dateOrder: typing.dateOrder, epoch: true };
  const ages: ((data: Data) => number | null)[] = [];
  for (const f of filters) {
    const choice = effectiveChoice(f, choices);
    if (choice.kind !== 'date' || choice.range.kind !== 'relative') continue;
    const read = fieldReader(f.field);
    const last = choice.range.last;
    ages.push((data) => {
      const t = timeOf(read(data), reading);
      return Number.isNaN(t) ? null : relativeEnd(last, t);
    });
  }
  if (!ages.length) return null;
  return (data) => {
    let soonest: number | null = null;
    for (const age of ages) {
      const at = age(data);
      if (at !== null && (soonest === null || at < soonest)) soonest = at;
    }
    return soonest;
  };
}

/** A filter's choice: the viewer's when it is of the filter's kind (a stale URL's is not), else the filter's default. */
const effectiveChoice = (f: DashboardFilter, choices: FilterChoices): FilterChoice => {
  const choice = choices[f.id];
  return choice && choice.kind === f.kind ? choice : defaultChoice(f);
};

/** The filter bar's choices (by filter id, falling back to each filter's default) as one test; null when nothing narrows. */
export function compileChoices(filters: readonly DashboardFilter[], choices: FilterChoices, typing: FieldTyping = NO_TYPING, now?: number): RecordTest | null {
  const tests: RecordTest[] = [];
  for (const f of filters) {
    const t = compileChoice(f.field, effectiveChoice(f, choices), typing, now);
    if (t) tests.push(t);
  }
  return allOf(tests);
}

/** A share link's locked filters (widget filters, all applied) as one test; null when it locks none. */
export function compileLocked(filters: readonly WidgetFilter[] | undefined, typing: FieldTyping = NO_TYPING): RecordTest | null {
  return allOf((filters ?? []).map((f) => compileFilter(f, typing)));
}

/**
 * The test a category filter's counts use: every other filter of the bar as chosen (so "Drama (4)"
 * is how many the view would show with Drama picked, the other choices kept); null when none narrows.
 */
export function otherChoices(filters: readonly DashboardFilter[], choices: FilterChoices, filterId: string, typing: FieldTyping = NO_TYPING, now?: number): RecordTest | null {
  return compileChoices(filters.filter((f) => f.id !== filterId), choices, typing, now);
}

/**
 * The values of a field with how many records hold each (those passing `test`, when given), most
 * frequent first (empty values left out), at most `limit`.
 */
export function valueCounts(records: Iterable<{ data: Data }>, field: string, limit: number, test: RecordTest | null = null): { value: string; count: number }[] {
  const read = fieldReader(field);
  const counts = new Map<string, number>();
  for (const r of records) {
    if (test && !test(r.data)) continue;
    const raw = read(r.data);
    if (isEmptyValue(raw)) continue;
    const key = typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)).slice(0, limit);
}

/** A widget filter as a chip reads it: "Status is one of open, closed", "Amount ≥ 10". */
export function lockedFilterLabel(f: WidgetFilter, label: (field: string) => string = (x) => x): string {
  const name = label(f.field);
  const ops: Record<WidgetFilter['operator'], string> = { eq: '=', neq: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤', contains: 'contains', in: 'is one of' };
  const value = f.operator === 'in' ? (f.values ?? []).join(', ') : f.value;
  return `${name} ${ops[f.operator]} ${value}`;
}
