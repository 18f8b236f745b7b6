/**
 * Sharing rules the web app and the server both apply. No zod here: the web bundle imports this,
 * and zod's object schemas probe `new Function` (a CSP eval violation) when they are built.
 */

/** Longest label of a share link. */
export const SHARE_LINK_LABEL_MAX = 100;

/** Most origins one dashboard may allow to embed it. */
export const MAX_EMBED_ORIGINS = 20;

/** What is wrong with an embedding origin (plain `http(s)://host[:port]`), or null when it is fine. */
export function embedOriginProblem(text: string): string | null {
  const value = text.trim();
  if (!value) return 'Origin is empty';
  if (value.length > 300) return 'Origin is too long';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not an origin such as https://intranet.example.com`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `"${value}" must start with https:// or http://`;
  if (url.origin.toLowerCase() !== value.replace(/\/$/, '').toLowerCase()) return `"${value}" must be an origin only (scheme, host and port), like ${url.origin}`;
  return null;
}
