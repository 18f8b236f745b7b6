import type { GroupOrder } from '../schemas/widget';

/** The title of the records that fall outside the top N (bars, slices and stacks alike). */
export const OTHER_GROUP = 'Other';
/** Joins a bar's group and its stack's value into one aggregator key (never typed by a person). */
export const STACK_SEPARATOR = '\u001f';

export interface GroupRow {
  key: string;
  value: number;
}

/** Bars of a stacked chart: the categories in order, and per stack value its number in each category. */
export interface StackedGroups {
  categories: string[];
  stacks: { key: string; values: number[] }[];
}

/** Labels compare as people read them: "Drama" before "horror", "2" before "10". */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const byValue = (a: GroupRow, b: GroupRow) => b.value - a.value || collator.compare(a.key, b.key);
const byLabel = (a: GroupRow, b: GroupRow) => collator.compare(a.key, b.key) || b.value - a.value;

/** At most `stacks` values of the stack field are told apart; the rest are added up as "Other". */
export const MAX_STACKS = 10;

/**
 * The largest `topN` groups (ties by label), in the chosen order, then "Other" adding up the rest
 * (always last, whatever the order). Without `topN`, every group.
 */
export function topGroups(rows: GroupRow[], topN: number | undefined, order: GroupOrder = 'value'): GroupRow[] {
  const largest = [...rows].sort(byValue);
  const kept = topN === undefined ? largest : largest.slice(0, topN);
  kept.sort(order === 'label' ? byLabel : byValue);
  if (kept.length === largest.length) return kept;
  const rest = largest.slice(kept.length).reduce((s, r) => s + r.value, 0);
  return [...kept, { key: OTHER_GROUP, value: rest }];
}

/**
 * Stacked bars from rows keyed "group␟stack": the top `topN` groups by their total (the rest is the
 * category "Other"), each split by the stack field's values (the MAX_STACKS largest; the rest "Other").
 */
export function stackGroups(rows: GroupRow[], topN: number | undefined, order: GroupOrder = 'value'): StackedGroups {
  const groupTotals = new Map<string, number>();
  const stackTotals = new Map<string, number>();
  const parts = rows.map((r) => {
    const at = r.key.indexOf(STACK_SEPARATOR);
    const group = at < 0 ? r.key : r.key.slice(0, at);
    const stack = at < 0 ? '' : r.key.slice(at + 1);
    groupTotals.set(group, (groupTotals.get(group) ?? 0) + r.value);
    stackTotals.set(stack, (stackTotals.get(stack) ?? 0) + r.value);
    return { group, stack, value: r.value };
  });
  const categories = topGroups([...groupTotals].map(([key, value]) => ({ key, value })), topN, order).map((r) => r.key);
  const stackKeys = topGroups([...stackTotals].map(([key, value]) => ({ key, value })), MAX_STACKS, 'label').map((r) => r.key);
  const categoryAt = new Map(categories.map((c, i) => [c, i]));
  const stackAt = new Map(stackKeys.map((s, i) => [s, i]));
  const otherCategory = categoryAt.get(OTHER_GROUP);
  const otherStack = stackAt.get(OTHER_GROUP);
  const stacks = stackKeys.map((key) => ({ key, values: categories.map(() => 0) }));
  for (const p of parts) {
    const c = categoryAt.get(p.group) ?? otherCategory;
    const s = stackAt.get(p.stack) ?? otherStack;
    if (c !== undefined && s !== undefined) stacks[s].values[c] += p.value;
  }
  return { categories, stacks };
}
