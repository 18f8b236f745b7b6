import fs from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import send from 'koa-send';
import { isClientRoute } from '@common/clientRoutes';

/**
 * Serves the built web app with history fallback; /api and /socket.io never reach it. Paths the app
 * has no screen for get its 404 page with status 404.
 */
export function serveWebApp(root: string, hooks: { indexHeaders?: (ctx: Context) => Promise<void> } = {}) {
  return async (ctx: Context, next: Next) => {
    if (ctx.path.startsWith('/api/') || ctx.path === '/api' || ctx.path.startsWith('/socket.io')) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const index = path.join(root, 'index.html');
    if (!fs.existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built yet: run `npm run build` (npm start does it for you).';
      return;
    }
    if (path.extname(ctx.path)) {
      try {
        const immutable = ctx.path.startsWith('/assets/');
        await send(ctx, ctx.path, { root, immutable, maxage: immutable ? 365 * 24 * 3600 * 1000 : 0 });
        return;
      } catch {
        if (ctx.path.startsWith('/assets/')) {
          ctx.status = 404;
          return;
        }
      }
    }
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root });
    if (!isClientRoute(ctx.path)) ctx.status = 404;
    else await hooks.indexHeaders?.(ctx); // e.g. a viewer page's frame-ancestors (embedding)
  };
}
