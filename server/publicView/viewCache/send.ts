import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { AppContext } from '../../core';
import { viewCacheOf } from './registry';
import type { Encoding, ServedView } from './servedView';

/** Bodies smaller than this go out as they are (compression would not pay). */
const MIN_COMPRESS_BYTES = 1024;

/** Whether an If-None-Match header names this ETag (weak comparison, lists and `*` allowed). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === bare;
  });
}

/** Headers a share view goes out with on top of the public view's: private, and no Referer carrying the token. */
export const SHARE_VIEW_HEADERS = { 'cache-control': 'no-cache, private', 'referrer-policy': 'no-referrer' } as const;

/**
 * Answers GET /api/dashboards/:id from the view cache: 304 for a matching If-None-Match, else the
 * body in the best encoding the client accepts (br, gzip, identity), each computed once per revision.
 */
export async function sendPublicView(ctx: Context, app: AppContext, dashboardId: string): Promise<void> {
  const view = await viewCacheOf(app).view(dashboardId);
  ctx.set('Cache-Control', 'no-cache');
  await sendServedView(ctx, view);
}

/** Answers GET /api/share/:token from the view cache, as the public view (drafts too, plus `share`). */
export async function sendShareView(ctx: Context, app: AppContext, token: string): Promise<void> {
  await sendLockedView(ctx, await viewCacheOf(app).shareView(token));
}

/** Answers with a locked view (a share link's, a signed embed token's): private, no Referer carrying the token, 304 and compression as the public view. */
export async function sendLockedView(ctx: Context, view: ServedView): Promise<void> {
  for (const [name, value] of Object.entries(SHARE_VIEW_HEADERS)) ctx.set(name, value);
  await sendServedView(ctx, view);
}

async function sendServedView(ctx: Context, view: ServedView): Promise<void> {
  ctx.set('ETag', view.etag);
  ctx.vary('Accept-Encoding');
  if (matchesEtag(ctx.get('if-none-match'), view.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json; charset=utf-8';
  // br wherever the client takes it (smaller), else gzip, else the body as it is.
  const big = view.length >= MIN_COMPRESS_BYTES;
  const encoding: Encoding | null = !big ? null : ctx.acceptsEncodings('br') ? 'br' : ctx.acceptsEncodings('gzip') ? 'gzip' : null;
  if (encoding) ctx.set('Content-Encoding', encoding);
  const out = encoding ? await view.compressed(encoding) : view;
  // The pieces as they are (a large view is never joined into one copy).
  ctx.body = out.pieces.length === 1 ? out.pieces[0] : Readable.from(out.pieces);
  ctx.length = out.length;
}
