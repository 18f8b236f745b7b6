/**
 * Comparing incremental values (numbers, ISO dates, other texts) and reading RFC 8288 Link headers.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

type Comparable = string | number;
const comparable = (v: unknown): v is Comparable => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v !== '');

/** Orders two incremental values: as numbers, as instants (ISO dates), else as texts. */
export function compareValues(a: Comparable, b: Comparable): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  if (ISO_DATE.test(sa) && ISO_DATE.test(sb)) {
    const d = Date.parse(sa) - Date.parse(sb);
    if (!Number.isNaN(d)) return d;
  }
  if (NUMBER_TEXT.test(sa) && NUMBER_TEXT.test(sb)) return Number(sa) - Number(sb);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The later of the value kept so far and one seen in a record (values that are not numbers or texts are ignored). */
export function laterOf(kept: unknown, seen: unknown): unknown {
  if (!comparable(seen)) return kept;
  if (!comparable(kept)) return seen;
  return compareValues(seen, kept) > 0 ? seen : kept;
}

/** Whether a record's value is not older than the cursor (ties land again: a value shared by several records is never skipped). A record without one lands. */
export function notOlder(value: unknown, since: unknown): boolean {
  if (!comparable(value) || !comparable(since)) return true;
  return compareValues(value, since) >= 0;
}

/** The target of the `rel="next"` link of a Link header (RFC 8288), or null. */
export function nextLink(header: string | string[] | undefined): string | null {
  const text = Array.isArray(header) ? header.join(', ') : header;
  if (!text) return null;
  const link = /<([^>]*)>((?:\s*;\s*[^;,]+(?:=(?:"[^"]*"|[^;,]*))?)*)/g;
  for (let m = link.exec(text); m; m = link.exec(text)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(m[2]);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('next')) return m[1].trim();
  }
  return null;
}
