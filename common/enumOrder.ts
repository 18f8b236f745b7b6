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

/** Sort order of two cell values: empties last, ranked values by rank, numbers by value, otherwise text (natural). */
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
  const sa = typeof a === 'object' ? JSON.stringify(a) : String(a);
  const sb = typeof b === 'object' ? JSON.stringify(b) : String(b);
  return collator.compare(sa, sb);
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
