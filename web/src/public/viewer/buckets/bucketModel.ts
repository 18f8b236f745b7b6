import { BUCKET_DEFAULT_WIDTH, BUCKET_MAX_WIDTH, BUCKET_MIN_WIDTH } from '@common/constants';
import type { BucketOrder, HighlightRule, TabConfiguration } from '@common/schemas/dashboard';

export type { BucketOrder } from '@common/schemas/dashboard';
import { isEmptyValue } from '@common/cells';

const RULE_COLORS: readonly string[] = ['red', 'yellow', 'green', 'blue', 'purple'];
/** The gap between bucket columns, px. */
export const BUCKET_GAP = 16;

/** Bucket width: numeric within 200–800, 300 when not a number (a broken setting still draws a board). */
export function bucketWidth(v: unknown): number {
  const n = typeof v === 'number' ? v : Number.parseFloat(String(v));
  return Number.isFinite(n) ? Math.min(BUCKET_MAX_WIDTH, Math.max(BUCKET_MIN_WIDTH, Math.round(n))) : BUCKET_DEFAULT_WIDTH;
}

/** The bucket key of a tab's settings. */
export const bucketKeyOf = (c: TabConfiguration) => c.bucketKey || c.buckets?.[0]?.key || '';

/** The card width a tab's settings ask for. */
export const bucketWidthOf = (c: TabConfiguration) => bucketWidth(c.buckets?.find((b) => b.key === bucketKeyOf(c))?.width ?? c.buckets?.[0]?.width ?? BUCKET_DEFAULT_WIDTH);

/**
 * The bucket grid fills the width: as many columns as fit at the Bucket Width, sharing the row
 * between them (so a column is the Bucket Width or a little wider, never narrower, and never the
 * 920 of 1,440 px three fixed columns used); one full-width column where even one does not fit.
 * Columns with no group yet stay empty, so a board of two groups keeps cards of about that width.
 */
export function bucketGridStyle(width: number): React.CSSProperties {
  return {
    display: 'grid',
    gridTemplateColumns: `repeat(auto-fill, minmax(min(100%, ${width}px), 1fr))`,
    gap: BUCKET_GAP,
    alignItems: 'start',
  };
}

export const BUCKET_ORDER_LABELS: Record<BucketOrder, string> = { label: 'By name', count: 'By count', custom: 'My order' };

/** A tab's group order: by title unless set. */
export const bucketOrderOf = (c: TabConfiguration): BucketOrder => c.bucketOrder ?? 'label';

const titles = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The group of records without a value for the bucket key. */
export const UNASSIGNED = 'Unassigned';

/**
 * Groups in the board's order, which one changed record never reshuffles: by title ("Unassigned"
 * last), by count (largest first, ties by title), or the listed titles first and the rest by title.
 */
export function orderedGroups<T>(groups: Map<string, T[]>, order: BucketOrder, listed: readonly string[] = []): [string, T[]][] {
  const rank = new Map(order === 'custom' ? listed.map((t, i) => [t, i]) : []);
  const byTitle = (a: string, b: string) => Number(a === UNASSIGNED) - Number(b === UNASSIGNED) || titles.compare(a, b);
  return [...groups].sort(([a, x], [b, y]) => {
    if (order === 'count' && x.length !== y.length) return y.length - x.length;
    const ra = rank.get(a) ?? Infinity;
    const rb = rank.get(b) ?? Infinity;
    return ra !== rb ? ra - rb : byTitle(a, b);
  });
}

/** The border colour name of a record: the first highlight rule whose field equals its value, else gray. */
export function highlightColor(rules: HighlightRule[] | undefined, value: (key: string) => unknown): string {
  const hit = (rules ?? []).find((r) => !isEmptyValue(r.key) && String(value(r.key) ?? '') === r.value);
  const color = hit?.color.toLowerCase();
  return color && RULE_COLORS.includes(color) ? color : 'gray';
}

/** Record ids grouped by the bucket key's value, groups in first-seen order; empty values go to "Unassigned". */
export function groupIds<R>(records: R[], value: (r: R) => unknown, id: (r: R) => string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of records) {
    const v = value(r);
    const name = isEmptyValue(v) ? UNASSIGNED : typeof v === 'object' ? JSON.stringify(v) : String(v);
    let list = out.get(name);
    if (!list) out.set(name, (list = []));
    list.push(id(r));
  }
  return out;
}
