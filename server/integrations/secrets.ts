import { SECRET_MASK, type ProviderSecrets } from './provider';

/**
 * Secrets that are whole values at known places of a config (`auth.token`, a header's value). A
 * place is a list of keys (a header name may hold a dot). Providers with a secret inside a longer
 * text (a connection string's password) write their own `ProviderSecrets`, or wrap this one.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const parentOf = (root: unknown, place: readonly string[]): Json | null => {
  let at: unknown = root;
  for (const key of place.slice(0, -1)) {
    if (!isObject(at)) return null;
    at = at[key];
  }
  return isObject(at) ? at : null;
};

const valueAt = (root: unknown, place: readonly string[]): unknown => parentOf(root, place)?.[place[place.length - 1]];

/** A deep copy of plain JSON (configs are JSON by their schema). */
const copy = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

export const placeName = (place: readonly string[]) => place.join('.');

/**
 * `places(config)` lists where the config holds secrets; `destination(config)` where they are sent.
 * A secret is kept on a PUT only where the sent config still has its parent object of the same
 * `type` (an auth switched from bearer to basic keeps nothing of the bearer's).
 */
export function placedSecrets<C>(places: (config: C) => string[][], destination: (config: C) => string): ProviderSecrets<C> {
  return {
    mask(config) {
      const out = copy(config);
      for (const place of places(config)) {
        const parent = parentOf(out, place);
        const key = place[place.length - 1];
        if (parent && typeof parent[key] === 'string' && parent[key] !== '') parent[key] = SECRET_MASK;
      }
      return out;
    },
    keep(sent, stored) {
      const out = copy(sent);
      const kept: string[] = [];
      for (const place of places(stored)) {
        const key = place[place.length - 1];
        const into = parentOf(out, place);
        const from = parentOf(stored, place);
        if (!into || !from || typeof from[key] !== 'string') continue;
        if (into.type !== from.type) continue;
        if (into[key] === undefined || into[key] === SECRET_MASK) {
          into[key] = from[key];
          kept.push(placeName(place));
        }
      }
      // A mask sent for a secret that was never stored is no secret at all: the field reads as missing.
      for (const place of places(out as C)) {
        const parent = parentOf(out, place);
        if (parent && parent[place[place.length - 1]] === SECRET_MASK) delete parent[place[place.length - 1]];
      }
      return { config: out, kept };
    },
    values(config) {
      return places(config)
        .map((p) => valueAt(config, p))
        .filter((v): v is string => typeof v === 'string' && v.length > 0);
    },
    destination,
  };
}

/** Replaces every secret value in a text (an error message, a log line) with the mask. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a secret that contains another is scrubbed whole.
  for (const s of [...secrets].filter((v) => v.length >= 4).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join(SECRET_MASK);
    const encoded = encodeURIComponent(s);
    if (encoded !== s) out = out.split(encoded).join(SECRET_MASK);
  }
  return out;
}
