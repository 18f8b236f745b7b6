import type { AppContext } from '../../core/context';
import { VIEW_EVENTS, ViewCache, type ViewEvent } from './viewCache';

const caches = new WeakMap<AppContext, ViewCache>();

/** The app's public view cache, created on first use and fed by the app's domain events from then on. */
export function viewCacheOf(ctx: AppContext): ViewCache {
  let cache = caches.get(ctx);
  if (!cache) {
    const created = new ViewCache(ctx, ctx.config.VIEW_CACHE_MAX_BYTES);
    for (const name of VIEW_EVENTS) ctx.events.on(name, (payload) => created.apply({ name, payload } as ViewEvent));
    caches.set(ctx, created);
    cache = created;
  }
  return cache;
}
