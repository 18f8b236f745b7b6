import crypto from 'node:crypto';
import type { Context, Next } from 'koa';
import { UnauthorizedError } from '../errors';

/** The bearer credential of a request, or null. */
export function bearerToken(ctx: Context): string | null {
  const header = ctx.get('authorization');
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1].trim() : null;
}

/** Compares two secrets in constant time (hashing first so lengths never leak). */
export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

export function isAdminToken(token: string | null, adminToken: string): boolean {
  return token !== null && safeEqual(token, adminToken);
}

/** Requires the admin bearer token. */
export function requireAdmin(adminToken: string) {
  return async (ctx: Context, next: Next) => {
    const token = bearerToken(ctx);
    if (!token) throw UnauthorizedError();
    if (!isAdminToken(token, adminToken)) throw UnauthorizedError('Invalid admin token');
    await next();
  };
}
