import type { Context } from 'koa';
import type { Config } from '../config';

/** The session cookie: HttpOnly, SameSite=Lax, Secure when the public URL is https. */
export const SESSION_COOKIE = 'livedash_session';

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
 * Whether a request comes from another site: `Sec-Fetch-Site` when the browser sends it (only
 * same-origin and a typed-in address pass), else `Origin` against our own origin. A request with
 * neither (scripts, old browsers) is not a cross-site browser request.
 */
export function isCrossSite(ctx: Context, config: Config): boolean {
  const site = ctx.get('sec-fetch-site');
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = ctx.get('origin');
  if (!origin) return false;
  const own = new Set([`${ctx.protocol}://${ctx.host}`]);
  if (config.PUBLIC_URL) own.add(new URL(config.PUBLIC_URL).origin);
  return !own.has(origin);
}
