import { AppHandle, type AppContext } from '../../core';
import { VIEW_EVENTS, ViewCache, type ViewEvent } from './viewCache';

const caches = new AppHandle<ViewCache>('the public view cache', (ctx) => {
  const created = new ViewCache(ctx, ctx.config.VIEW_CACHE_MAX_BYTES);
  for (const name of VIEW_EVENTS) ctx.events.on(name, (payload) => created.apply({ name, payload } as ViewEvent));
  return created;
});

/** The app's public view cache, created on first use and fed by the app's domain events from then on. */
export function viewCacheOf(ctx: AppContext): ViewCache {
  return caches.of(ctx);
}
