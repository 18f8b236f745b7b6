import { fieldReader } from '../../cells';
import { toNumber } from '../filters';

/** At most this many ranges are drawn (a width too small for the values' span draws the lowest and says so). */
export const MAX_BINS = 200;

/** A number cut to 12 significant digits: 0.1 × 3 is 0.3, not 0.30000000000000004. */
const clean = (n: number) => Number(n.toPrecision(12));

/** The start of the range of width `width` holding `n`. */
export const binStart = (n: number, width: number): number => clean(Math.floor(clean(n / width)) * width);

/** A reader of a field's range start (null: no number, an empty group). */
export function binReader(field: string, width: number): (data: Record<string, unknown>) => number | null {
  const read = fieldReader(field);
  return (data) => {
    const n = toNumber(read(data));
    return n === null ? null : binStart(n, width);
  };
}

/** A round width (1, 2 or 5 × a power of ten) cutting [min, max] into about `target` ranges. */
export function autoBinWidth(min: number, max: number, target = 20): number {
  const span = max - min;
  if (!(span > 0)) return 1;
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * power >= raw)!;
  return clean(step * power);
}

/** The smallest and largest number of a field over some records (null: none holds a number). */
export function numberSpan(records: Iterable<{ data: Record<string, unknown> }>, field: string): { min: number; max: number } | null {
  const read = fieldReader(field);
  let min = Infinity;
  let max = -Infinity;
  for (const { data } of records) {
    const n = toNumber(read(data));
    if (n === null) continue;
    if (n < min) min = n;
    if (n > max) max = n;
  }
  return min <= max ? { min, max } : null;
}

/**
 * Every range from the lowest to the highest holding a value, in order, with its number (`empty` for
 * a range without records: 0 for a count); labelled "10–20". At most MAX_BINS; `left` says how many more.
 */
export function continuousBins(rows: { key: string; value: number | null }[], width: number, empty: number | null): { rows: { key: string; value: number | null }[]; left: number } {
  const byStart = new Map<number, number | null>();
  for (const r of rows) {
    const start = Number(r.key);
    if (r.key !== '' && Number.isFinite(start)) byStart.set(start, r.value);
  }
  if (!byStart.size) return { rows: [], left: 0 };
  const starts = [...byStart.keys()];
  const first = Math.min(...starts);
  const count = Math.round((Math.max(...starts) - first) / width) + 1;
  const out: { key: string; value: number | null }[] = [];
  for (let i = 0; i < Math.min(count, MAX_BINS); i++) {
    const start = clean(first + i * width);
    out.push({ key: `${start.toLocaleString('en-US')}–${clean(start + width).toLocaleString('en-US')}`, value: byStart.has(start) ? byStart.get(start)! : empty });
  }
  return { rows: out, left: Math.max(0, count - MAX_BINS) };
}
