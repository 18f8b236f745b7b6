import { BUCKET_DEFAULT_WIDTH, BUCKET_GRID_COLUMNS, BUCKET_MAX_WIDTH, BUCKET_MIN_WIDTH } from '@common/constants';
import type { HighlightRule, TabConfiguration } from '@common/schemas/dashboard';
import { isEmptyValue } from '@common/cells';

const RULE_COLORS: readonly string[] = ['red', 'yellow', 'green', 'blue', 'purple'];
/** The gap between bucket columns, px. */
export const BUCKET_GAP = 16;

/** Bucket width: numeric within 200–800, 300 when not a number (spec 5). */
export function bucketWidth(v: unknown): number {
  const n = typeof v === 'number' ? v : Number.parseFloat(String(v));
  return Number.isFinite(n) ? Math.min(BUCKET_MAX_WIDTH, Math.max(BUCKET_MIN_WIDTH, Math.round(n))) : BUCKET_DEFAULT_WIDTH;
}

/** The bucket key of a tab's settings. */
export const bucketKeyOf = (c: TabConfiguration) => c.bucketKey || c.buckets?.[0]?.key || '';

/** The card width a tab's settings ask for. */
export const bucketWidthOf = (c: TabConfiguration) => bucketWidth(c.buckets?.find((b) => b.key === bucketKeyOf(c))?.width ?? c.buckets?.[0]?.width ?? BUCKET_DEFAULT_WIDTH);

/**
 * The bucket grid: columns exactly `width` px wide (the Bucket Width setting), as many as fit and
 * at most three (spec 9), one full-width column where even one does not fit.
 */
export function bucketGridStyle(width: number): React.CSSProperties {
  return {
    display: 'grid',
    gridTemplateColumns: `repeat(auto-fill, min(100%, ${width}px))`,
    gap: BUCKET_GAP,
    maxWidth: width * BUCKET_GRID_COLUMNS + BUCKET_GAP * (BUCKET_GRID_COLUMNS - 1),
    alignItems: 'start',
  };
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
    const name = isEmptyValue(v) ? 'Unassigned' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    let list = out.get(name);
    if (!list) out.set(name, (list = []));
    list.push(id(r));
  }
  return out;
}
