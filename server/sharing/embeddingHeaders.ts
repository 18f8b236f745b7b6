import type { Context } from 'koa';
import type { AppContext } from '../core';
import { frameAncestorsFor, initEmbedding, withFrameAncestors } from './embedding';

/**
 * The static handler's hook for viewer pages (/dashboards/<id>, /s/<token>, /embed/<signed token>):
 * their CSP frame-ancestors becomes 'self' plus the dashboard's allowed embedding origins (default:
 * 'self' only, as on every other page), and X-Frame-Options goes when an origin is allowed (CSP
 * rules). An embed page (its address holds the token) sends no Referer anywhere.
 */
export async function embeddingHeaders(app: AppContext): Promise<(ctx: Context) => Promise<void>> {
  await initEmbedding(app);
  return async (ctx) => {
    if (ctx.path.startsWith('/embed/')) ctx.set('Referrer-Policy', 'no-referrer');
    const origins = await frameAncestorsFor(app, ctx.path);
    if (!origins.length) return;
    const csp = ctx.response.get('Content-Security-Policy');
    if (csp) ctx.set('Content-Security-Policy', withFrameAncestors(csp, origins));
    ctx.remove('X-Frame-Options');
  };
}
