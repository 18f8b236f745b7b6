/**
 * Sharing rules the web app and the server both apply. No zod here: the web bundle imports this,
 * and zod's object schemas probe `new Function` (a CSP eval violation) when they are built.
 */

/** Longest label of a share link. */
export const SHARE_LINK_LABEL_MAX = 100;

/** Most origins one dashboard may allow to embed it. */
export const MAX_EMBED_ORIGINS = 20;

/** A host name as the URL parser leaves it: dot-separated labels of letters, digits and hyphens. */
const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * What is wrong with an embedding origin, or null when it is fine. An origin is a scheme (http or
 * https), a host and an optional port, nothing else: it goes verbatim into a CSP frame-ancestors
 * directive, where a wildcard, a quote, a `;` or a space would change what the policy allows.
 */
export function embedOriginProblem(text: string): string | null {
  const value = text.trim();
  if (!value) return 'Origin is empty';
  if (value.length > 300) return 'Origin is too long';
  const example = 'such as https://intranet.example.com';
  if (value.includes('*')) return `"${value}" has a wildcard: list each origin, ${example}`;
  if (/['"]/.test(value)) return `"${value}" has a quote: an origin is scheme, host and port only, ${example}`;
  if (/[;,]/.test(value)) return `"${value}" has a separator (; or ,): give one origin per entry, ${example}`;
  if (/\s/.test(value)) return `"${value}" has a space: give one origin per entry, ${example}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not an origin ${example}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `"${value}" must start with https:// or http://`;
  if (!url.hostname.startsWith('[') && !HOST_NAME.test(url.hostname)) return `"${value}" has a host that is not a plain host name or IP address`;
  if (url.origin !== value.replace(/\/$/, '').toLowerCase()) return `"${value}" must be an origin only (scheme, host and port), like ${url.origin}`;
  return null;
}
