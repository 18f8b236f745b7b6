/**
 * Reversible escaping of user field names so that `.`, `$` and NUL survive any MongoDB engine
 * and any driver path handling. Only keys are touched, values stay as they are.
 */
const ENCODE: Record<string, string> = { '%': '%25', '.': '%2E', $: '%24', '\u0000': '%00' };
const DECODE: Record<string, string> = { '%25': '%', '%2E': '.', '%24': '$', '%00': '\u0000' };

export function encodeKey(key: string): string {
  return key.replace(/[%.$\u0000]/g, (c) => ENCODE[c]);
}

export function decodeKey(key: string): string {
  return key.replace(/%(25|2E|24|00)/g, (m) => DECODE[m]);
}

function mapKeys(value: unknown, fn: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, fn));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty keeps a key named "__proto__" an ordinary field.
    Object.defineProperty(out, fn(k), { value: mapKeys(v, fn), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Escapes every key of a JSON value, recursively. */
export const encodeKeys = <T>(value: T): T => mapKeys(value, encodeKey) as T;
/** Restores every key escaped by encodeKeys, recursively. */
export const decodeKeys = <T>(value: T): T => mapKeys(value, decodeKey) as T;
