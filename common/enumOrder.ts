/**
 * Sorting values by meaning: known enums (priority, status) rank by what they say, not by the
 * alphabet; a column may set its own order. Values outside the order come after it, alphabetically.
 */
export const KNOWN_ORDERS: Record<string, string[]> = {
  priority: ['urgent', 'critical', 'high', 'medium', 'normal', 'low'],
  status: ['new', 'open', 'in progress', 'pending', 'on-hold', 'hold', 'solved', 'resolved', 'closed'],
};

/** The order a column sorts by: its own, else the known order of its field name, else none. */
export function sortOrderFor(field: string, own?: string[] | null): string[] | null {
  if (own && own.length) return own;
  return KNOWN_ORDERS[field.toLowerCase()] ?? null;
}

/** A value's place in an order (case-insensitive), or -1. */
export function rankIn(order: string[], value: unknown): number {
  if (typeof value !== 'string' && typeof value !== 'number') return -1;
  const v = String(value).trim().toLowerCase();
  return order.findIndex((o) => o.trim().toLowerCase() === v);
}

/** Sort order of two cell values: empties last, ranked values by rank, numbers by value, otherwise text (case-insensitive). */
export function compareCells(a: unknown, b: unknown, order: string[] | null = null): number {
  const ea = a === null || a === undefined || a === '';
  const eb = b === null || b === undefined || b === '';
  if (ea || eb) return ea === eb ? 0 : ea ? 1 : -1;
  if (order) {
    const ra = rankIn(order, a);
    const rb = rankIn(order, b);
    if (ra !== -1 || rb !== -1) {
      if (ra === -1) return 1;
      if (rb === -1) return -1;
      if (ra !== rb) return ra - rb;
    }
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareText(textKey(a), textKey(b));
}

/** The text a value sorts by (lower case, so "apple" and "Apple" sit together). */
export const textKey = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v)).toLowerCase();
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A sort key maker for many values at once (100k rows): ranks looked up once per value, then
 * compared as numbers. Returns null when the column has no order by meaning.
 */
export function ranker(order: string[] | null): ((v: unknown) => number) | null {
  if (!order) return null;
  const ranks = new Map(order.map((o, i) => [o.trim().toLowerCase(), i] as const));
  return (v) => (typeof v === 'string' || typeof v === 'number' ? ranks.get(String(v).trim().toLowerCase()) ?? -1 : -1);
}
