import { fieldReader } from '../../cells';
import { MAX_SCATTER_POINTS, MAX_SERIES, type ScatterConfig } from '../../schemas/widgets/widget';
import type { FieldTyping } from '../../types/fieldTyping';
import { compileFilters, toNumber } from '../filters';
import { groupName } from './groupTotal';
import { OTHER_GROUP, rankGroups } from './groups';

export interface ScatterPoint {
  x: number;
  y: number;
  /** The size field's number (null without one, or when the record holds none). */
  size: number | null;
}

/** A scatter chart's points by series ('' without a split), and how many records had both numbers. */
export interface ScatterData {
  series: { key: string; points: ScatterPoint[] }[];
  /** Records passing the filters with a number in both fields; only the newest MAX_SCATTER_POINTS are drawn. */
  total: number;
  drawn: number;
  /** Split values combined as "Other" (beyond the MAX_SERIES largest). */
  leftSeries: number;
}

/**
 * One point per record with a number in both fields, the newest `cap` of them (records in the order
 * received, the newest last): a scatter of every record would stall the browser on a large source.
 * Series: one per split value, the MAX_SERIES with the most points by name, the rest as "Other".
 */
export function scatterPoints(records: Iterable<{ data: Record<string, unknown> }>, c: ScatterConfig, typing?: FieldTyping, cap = MAX_SCATTER_POINTS): ScatterData {
  const passes = compileFilters(c.filters, typing);
  const xOf = fieldReader(c.xField);
  const yOf = fieldReader(c.yField);
  const splitOf = c.splitField ? fieldReader(c.splitField) : null;
  const sizeOf = c.sizeField ? fieldReader(c.sizeField) : null;
  // A ring of the newest `cap` points: one pass, memory bounded by the cap.
  const ring: { key: string; point: ScatterPoint }[] = [];
  let total = 0;
  for (const { data } of records) {
    if (!passes(data)) continue;
    const x = toNumber(xOf(data));
    const y = toNumber(yOf(data));
    if (x === null || y === null) continue;
    const point = { x, y, size: sizeOf ? toNumber(sizeOf(data)) : null };
    ring[total % cap] = { key: splitOf ? groupName(splitOf(data)) : '', point };
    total += 1;
  }
  const drawn = Math.min(total, cap);
  const start = total > cap ? total % cap : 0;
  const byKey = new Map<string, ScatterPoint[]>();
  for (let i = 0; i < drawn; i++) {
    const { key, point } = ring[(start + i) % cap];
    const list = byKey.get(key);
    if (list) list.push(point);
    else byKey.set(key, [point]);
  }
  const { kept, rest } = rankGroups([...byKey].map(([key, ps]) => ({ key, value: ps.length })), MAX_SERIES, 'label');
  const series = kept.map((r) => ({ key: r.key, points: byKey.get(r.key)! }));
  if (rest.length) series.push({ key: OTHER_GROUP, points: rest.flatMap((k) => byKey.get(k)!) });
  return { series, total, drawn, leftSeries: rest.length };
}
