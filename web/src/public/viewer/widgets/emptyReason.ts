import type { DashboardFilter, FilterChoices } from '@common/schemas/widgets/dashboardFilter';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { defaultChoice, isActiveChoice, lockedFilterLabel } from '@common/filterBar';
import { rangeLabel, type TimeRange } from '@common/time/timeRanges';

type Label = (field: string) => string;

/** A time range as the end of a sentence: "in the last 24 hours", "today", "in the previous month". */
export function rangePhrase(range: TimeRange): string {
  if (range.kind === 'fixed') return `from ${rangeLabel(range).replace(' – ', ' to ')}`;
  const text = rangeLabel(range).toLowerCase();
  return range.kind === 'relative' || text.startsWith('previous') ? `in the ${text}` : text;
}

/** What narrows the records of every widget on a page, as a person reads it. */
export interface Narrowing {
  /** A share link's locked filters ("symbol = MSFT"): its records are only these. */
  locked: string[];
  /** The filter bar's choices ("Date in the last 7 days"); a widget that opts out of the bar has none. */
  bar: string[];
}

export const NO_NARROWING: Narrowing = { locked: [], bar: [] };

export function pageNarrowing(locked: readonly WidgetFilter[], filters: readonly DashboardFilter[], choices: FilterChoices, label: Label): Narrowing {
  const out: string[] = [];
  for (const f of filters) {
    const chosen = choices[f.id];
    const choice = chosen && chosen.kind === f.kind ? chosen : defaultChoice(f);
    if (!isActiveChoice(choice)) continue;
    const name = f.label || label(f.field);
    if (choice.kind === 'category') out.push(choice.values.length === 1 ? `${name} = ${choice.values[0]}` : `${name} is one of ${choice.values.join(', ')}`);
    else if (choice.kind === 'date') out.push(`${name} ${rangePhrase(choice.range)}`);
    else if (choice.min !== null && choice.max !== null) out.push(`${name} from ${choice.min} to ${choice.max}`);
    else out.push(choice.min !== null ? `${name} ≥ ${choice.min}` : `${name} ≤ ${choice.max}`);
  }
  return { locked: locked.map((f) => lockedFilterLabel(f, label)), bar: out };
}

export interface EmptyContext {
  /** The widget's own filters. */
  filters: readonly WidgetFilter[];
  /** The widget's time range (absent or all time: none). */
  range?: TimeRange;
  narrowing: Narrowing;
  /** Records the source has (before any filter). */
  total: number;
  label: Label;
}

/** Why a widget shows nothing: "No records match: symbol = IBM", "No records in the last 24 hours". */
export function emptyReason({ filters, range, narrowing, total, label }: EmptyContext): string {
  if (total === 0 && narrowing.locked.length === 0) return 'No records yet';
  const matches = [...filters.map((f) => lockedFilterLabel(f, label)), ...narrowing.locked, ...narrowing.bar];
  const when = range && range.kind !== 'all' ? rangePhrase(range) : '';
  if (matches.length) return `No records match: ${matches.join(', ')}${when ? `, ${when}` : ''}`;
  if (when) return `No records ${when}`;
  return 'No values to show in these records';
}

/** A widget configuration's filters: `filters`, or the single `filter` of widgets saved before it. */
export function widgetFilters(config: object): WidgetFilter[] {
  const c = config as { filters?: WidgetFilter[]; filter?: WidgetFilter };
  return c.filters ?? (c.filter ? [c.filter] : []);
}

/**
 * Whether a widget's numbers show nothing: a KPI without a value (or counting none), a chart with no
 * bar, slice or point above zero.
 */
export function showsNothing(data: {
  type: string;
  value?: number | null;
  rows?: readonly { value: number | null }[];
  series?: readonly ({ values: readonly (number | null)[] } | { points: readonly unknown[] })[];
  split?: { series: readonly { values: readonly (number | null)[] }[] };
  total?: number;
  config: object;
}): boolean {
  const { metric } = data.config as { metric?: string };
  if (data.type === 'kpi' || data.type === 'gauge') return data.value === null || data.value === undefined || (metric === 'count' && data.value === 0);
  // A scatter has points, not rows: empty when no record has numbers in both fields.
  if (data.type === 'scatter') return !data.total;
  // A line (and a split bar) holds one list of values per series; a bar or donut one row per group.
  const series = data.type === 'line' ? data.series : data.split?.series;
  if (series) return series.every((s) => 'values' in s && s.values.every((v) => !v));
  return !data.rows || data.rows.every((r) => !r.value);
}
