import { fieldValue, isEmptyValue } from '../cells';
import type { ValuesRole } from './templates';

type Data = Record<string, unknown>;

/** One value of a field and how many records hold it. */
export interface ValueCount {
  value: string;
  count: number;
}

/**
 * The distinct values of a field in some records, most frequent first (ties: first seen first).
 * Values differing only in case or surrounding spaces are one value (filters compare them so),
 * spelled as first seen; empty values, lists and objects are left out.
 */
export function distinctValues(records: Iterable<Data>, field: string, limit = 100): ValueCount[] {
  const byKey = new Map<string, ValueCount>();
  for (const data of records) {
    const raw = fieldValue(data, field);
    if (isEmptyValue(raw) || typeof raw === 'object') continue;
    const value = String(raw).trim();
    if (!value) continue;
    const key = value.toLowerCase();
    const seen = byKey.get(key);
    if (seen) seen.count++;
    else byKey.set(key, { value, count: 1 });
  }
  // Array.prototype.sort is stable: equal counts keep their first-seen order.
  return [...byKey.values()].sort((a, b) => b.count - a.count).slice(0, limit);
}

/** A value as the roles' patterns read it: lower case, no apostrophes, "_" and "-" as spaces. */
export const normalizeValue = (value: string): string =>
  value.toLowerCase().replace(/['’]/g, '').replace(/[\s_-]+/g, ' ').trim();

/**
 * A first guess of the values counting for each values role (roles of one category field), each
 * value suggested for at most one role: a value goes to the first role whose `guesses` it matches;
 * a value only some roles' `maybe` matches goes to the one of those holding the fewest values so
 * far (ties: the first). Values no role recognises are left for the user to place.
 */
export function suggestValues(roles: readonly ValuesRole[], values: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = Object.fromEntries(roles.map((r) => [r.key, []]));
  const unsure: { value: string; candidates: ValuesRole[] }[] = [];
  for (const value of values) {
    const v = normalizeValue(value);
    const sure = roles.find((r) => r.guesses.test(v));
    if (sure) out[sure.key].push(value);
    else {
      const candidates = roles.filter((r) => r.maybe?.test(v));
      if (candidates.length) unsure.push({ value, candidates });
    }
  }
  for (const { value, candidates } of unsure) {
    const fewest = candidates.reduce((best, r) => (out[r.key].length < out[best.key].length ? r : best));
    out[fewest.key].push(value);
  }
  return out;
}

/**
 * Values picked or typed in a multi-select, cleaned: trimmed, empties dropped, a value the records
 * hold up to case spelled as they do, and no value twice up to case (filters ignore case).
 */
export function cleanPickedValues(picked: readonly string[], seen: readonly string[]): string[] {
  const spelling = new Map(seen.map((v) => [v.toLowerCase(), v]));
  const out = new Map<string, string>();
  for (const raw of picked) {
    const v = raw.trim();
    if (v && !out.has(v.toLowerCase())) out.set(v.toLowerCase(), spelling.get(v.toLowerCase()) ?? v);
  }
  return [...out.values()];
}
