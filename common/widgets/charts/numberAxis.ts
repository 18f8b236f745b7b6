import { fieldReader, isEmptyValue } from '../../cells';
import { ADDITIVE_METRICS, type Metric } from '../../schemas/widgets/widget';
import type { FieldTyping } from '../../types/fieldTyping';
import { fieldTypeOf } from '../../types/fieldTyping';
import { isYear } from '../../types/dates';
import { MAX_CHART_POINTS } from '../../time/timeRanges';
import { binStart } from './bins';
import { toNumber } from '../filters';
import type { SplitGroups } from './groups';

/** A line over a number field: the x values in order, and per series its number at each (null: a gap). */
export interface NumberLine {
  xs: number[];
  series: { key: string; values: (number | null)[] }[];
  /** Split values not drawn on their own: combined as "Other" or left out (`omitted`). */
  leftSeries: number;
  omitted: boolean;
  /** The range width the values were grouped by; null: one point per value. */
  binWidth: number | null;
  /** Points beyond MAX_CHART_POINTS not drawn (the highest x values). */
  left: number;
}

/** What an empty bucket, range or cell shows: 0 for a count or sum, a gap for the others, unless the widget says. */
export const emptyValueOf = (metric: Metric, emptyAs?: 'gap' | 'zero'): number | null =>
  (emptyAs ? emptyAs === 'zero' : ADDITIVE_METRICS.includes(metric)) ? 0 : null;

/** A reader of a field as a number (null: no number, an empty group): "12.50" and 12.5 are one point. */
export function numberReader(field: string): (data: Record<string, unknown>) => number | null {
  const read = fieldReader(field);
  return (data) => toNumber(read(data));
}

/** Values of a field looked at to tell numbers from years. */
const SAMPLE = 200;

/** Whole numbers that read as epoch seconds (2001–2286) or milliseconds of those years. */
const isEpochLike = (n: number) => Number.isInteger(n) && ((n >= 1e9 && n < 1e10) || (n >= 1e12 && n < 1e13));

/**
 * Whether a line's horizontal field is drawn on a number axis rather than over time: it is typed as
 * a number, or untyped and holding numbers — unless every number is a whole year (a Year column is
 * time, drawn by year), or, untyped, every one reads as epoch seconds or milliseconds. A date-time
 * field is always time.
 */
export function isNumberAxisField(records: Iterable<{ data: Record<string, unknown> }>, field: string, typing?: FieldTyping): boolean {
  const type = fieldTypeOf(typing, field);
  if (type && type !== 'number') return false;
  const read = fieldReader(field);
  let seen = 0;
  let years = 0;
  let epochs = 0;
  for (const r of records) {
    const v = read(r.data);
    if (isEmptyValue(v)) continue;
    const n = toNumber(v);
    // Untyped text that is no number ("2024-03-01") is time.
    if (n === null) return false;
    seen++;
    if (isYear(n)) years++;
    if (isEpochLike(n)) epochs++;
    if (seen >= SAMPLE) break;
  }
  if (seen === 0) return type === 'number';
  return years < seen && (type === 'number' || epochs < seen);
}

/**
 * The groups of a number field (one per value, or per range start of `binWidth`) as a line: in
 * ascending order, non-numbers (the empty group) left out; with ranges, every range from the lowest
 * to the highest, an empty one `empty` (0 for a count, a gap for an average). At most `max` points,
 * the lowest; `left` says how many more there were.
 */
export function numberLine(groups: Pick<SplitGroups, 'categories' | 'series' | 'leftSeries' | 'omitted'>, binWidth: number | null, empty: number | null, max = MAX_CHART_POINTS): NumberLine {
  const at = new Map<number, number>();
  groups.categories.forEach((key, i) => {
    const x = key === '' ? NaN : Number(key);
    if (Number.isFinite(x)) at.set(x, i);
  });
  let xs = [...at.keys()].sort((a, b) => a - b);
  if (binWidth && xs.length) {
    const first = xs[0];
    const count = Math.round((xs[xs.length - 1] - first) / binWidth) + 1;
    xs = Array.from({ length: count }, (_, i) => binStart(first + (i + 0.5) * binWidth, binWidth));
  }
  const left = Math.max(0, xs.length - max);
  if (left) xs = xs.slice(0, max);
  const series = groups.series.map((s) => ({
    key: s.key,
    values: xs.map((x) => {
      const i = at.get(x);
      return i === undefined ? empty : s.values[i];
    }),
  }));
  return { xs, series, leftSeries: groups.leftSeries, omitted: groups.omitted, binWidth, left };
}
