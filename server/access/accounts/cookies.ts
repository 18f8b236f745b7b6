import type { IncomingHttpHeaders } from 'node:http';
import type { Context } from 'koa';
import type { Config } from '../../core';

/** The session cookie: HttpOnly, SameSite=Lax, Secure when the public URL is https. */
import { fromTrustedProxy, SESSION_COOKIE } from '../../core';

export { SESSION_COOKIE };

const secure = (config: Config) => Boolean(config.PUBLIC_URL?.startsWith('https:'));

/** The Set-Cookie value that stores a session id (or, with maxAgeSeconds 0, removes it). */
export function sessionCookie(config: Config, value: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure(config) ? '; Secure' : ''}`;
}

export function setSessionCookie(ctx: Context, config: Config, value: string, maxAgeSeconds: number): void {
  ctx.append('Set-Cookie', sessionCookie(config, value, maxAgeSeconds));
}

/** The session id from a Cookie header, or null. */
export function readSessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === SESSION_COOKIE) return part.slice(i + 1).trim() || null;
  }
  return null;
}

/**
 * The app's own origins for a request: the one it was sent to (scheme and host, through a trusted
 * proxy's X-Forwarded-Proto / -Host) and PUBLIC_URL's.
 */
function ownOrigins(protocol: string, host: string, config: Config): Set<string> {
  const own = new Set([`${protocol}://${host}`]);
  if (config.PUBLIC_URL) own.add(new URL(config.PUBLIC_URL).origin);
  return own;
}

/**
 * Whether a browser says the request comes from a page on another origin: `Sec-Fetch-Site` when it
 * sends it (only same-origin and a typed-in address pass), else `Origin` against our own. A request
 * with neither (scripts, old browsers) is not a cross-site browser request.
 */
function fromAnotherOrigin(header: (name: string) => string, own: () => Set<string>): boolean {
  const site = header('sec-fetch-site');
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = header('origin');
  return Boolean(origin) && !own().has(origin);
}

/** Whether a request comes from another site (see fromAnotherOrigin). */
export function isCrossSite(ctx: Context, config: Config): boolean {
  return fromAnotherOrigin((name) => ctx.get(name), () => ownOrigins(ctx.protocol, ctx.host, config));
}

/** The first value of a header that proxies may have appended to (`a, b`), or ''. */
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : (value ?? '')).split(',')[0].trim();

/**
 * Whether a Socket.IO handshake (websocket upgrade or polling request) comes from a page on another
 * origin. Browsers send the session cookie with a WebSocket upgrade from any page of the same site
 * (another port, a sibling subdomain) and no CORS stands in the way, so this is what keeps such a
 * page from opening a socket as the signed-in person. Decided as for REST, on the handshake's headers.
 */
export function isCrossSiteHandshake(req: { headers: IncomingHttpHeaders; encrypted: boolean; peer: string | undefined }, config: Config): boolean {
  const { headers } = req;
  // The forwarded protocol and host count only from a trusted proxy (TRUST_PROXY).
  const proxied = (name: string) => (fromTrustedProxy(req.peer, config) ? first(headers[name]) : '');
  const protocol = req.encrypted ? 'https' : proxied('x-forwarded-proto') || 'http';
  const host = proxied('x-forwarded-host') || first(headers.host);
  return fromAnotherOrigin((name) => first(headers[name]), () => ownOrigins(protocol, host, config));
}
