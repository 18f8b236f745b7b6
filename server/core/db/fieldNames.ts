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

const NEEDS_ENCODING = /[%.$\u0000]/;
const NEEDS_DECODING = /%(25|2E|24|00)/;

/** Whether any key of a JSON value, at any depth, matches `test`: most records have none, and are then stored as they are. */
function anyKey(value: unknown, test: RegExp): boolean {
  if (Array.isArray(value)) return value.some((v) => anyKey(v, test));
  if (value === null || typeof value !== 'object' || value instanceof Date) return false;
  for (const k in value) {
    if (test.test(k) || anyKey((value as Record<string, unknown>)[k], test)) return true;
  }
  return false;
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

/** Escapes every key of a JSON value, recursively (a copy). */
export const encodeKeys = <T>(value: T): T => mapKeys(value, encodeKey) as T;
/** Restores every key escaped by encodeKeys, recursively (a copy). */
export const decodeKeys = <T>(value: T): T => mapKeys(value, decodeKey) as T;

/**
 * encodeKeys for a record's data on the write path: a value with no key to escape (nearly every
 * record) is answered as it is, not copied — copying every field of a wide batch was a large part of
 * a write's time on the event loop. The caller must not change the value afterwards.
 */
export const encodeRecordKeys = <T>(value: T): T => (anyKey(value, NEEDS_ENCODING) ? encodeKeys(value) : value);
/** decodeKeys for a stored record's data, read only: a value with no escaped key is answered as it is. */
export const decodeRecordKeys = <T>(value: T): T => (anyKey(value, NEEDS_DECODING) ? decodeKeys(value) : value);
