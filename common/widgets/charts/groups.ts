import type { GroupOrder } from '../../schemas/widgets/widget';

/** The title of the records that fall outside the top N (bars, slices and series alike). */
export const OTHER_GROUP = 'Other';
/** Joins a bar's group and its split value into one aggregator key (never typed by a person). */
export const SPLIT_SEPARATOR = '\u001f';

export interface GroupRow {
  key: string;
  /** null: the metric has no value over the group (an average of no numbers). */
  value: number | null;
  /** On the "Other" row: how many groups it combines. */
  others?: number;
}

/** Bars split by a second field: the categories in order, and per split value its number in each category. */
export interface SplitGroups {
  categories: string[];
  series: { key: string; values: (number | null)[] }[];
  /** Split values not drawn on their own: combined as "Other" or left out (`omitted`). */
  leftSeries: number;
  omitted: boolean;
}

/** Labels compare as people read them: "Drama" before "horror", "2" before "10". */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const size = (v: number | null) => v ?? -Infinity;
const byValue = (a: GroupRow, b: GroupRow) => size(b.value) - size(a.value) || collator.compare(a.key, b.key);
const byLabel = (a: GroupRow, b: GroupRow) => collator.compare(a.key, b.key) || size(b.value) - size(a.value);

/**
 * The largest `limit` groups (ties by label), in the chosen order, and the keys of the rest (which
 * the caller combines as "Other" with the same metric over their records). Without `limit`, every group.
 */
export function rankGroups(rows: GroupRow[], limit: number | undefined, order: GroupOrder = 'value'): { kept: GroupRow[]; rest: string[] } {
  const largest = [...rows].sort(byValue);
  const kept = limit === undefined ? largest : largest.slice(0, limit);
  kept.sort(order === 'label' ? byLabel : byValue);
  return { kept, rest: largest.slice(kept.length).map((r) => r.key) };
}
