import crypto from 'node:crypto';
import { closeRedis, redisHealthHandle, type AppContext, type RedisClient } from '../core';
import { VIEW_EVENTS, viewCacheOf, type ViewEvent } from './viewCache';

/** The Redis pub/sub channel that carries view-changing domain events between processes. */
export const VIEW_EVENTS_CHANNEL = 'livedash:view-events';
const RESET_RETRY_MS = 500;
const RESYNC_DEBOUNCE_MS = 300;

type Message = { origin: string; event: ViewEvent } | { origin: string; reset: string };

/**
 * Keeps the view caches of several processes coherent: every view-changing domain event of this
 * process is published on Redis, and the events of the others are applied to this cache. While
 * Redis is lost, the cache is off (views are read from the database) and events are not queued;
 * when it is back, this process announces a reset: every process clears its cache and tells its
 * viewers to resynchronise (`onReset`), since deltas and events of the gap may be missing.
 */
export async function startViewEventRelay(ctx: AppContext, pub: RedisClient, sub: RedisClient, onReset: () => void): Promise<{ close(): Promise<void> }> {
  const origin = crypto.randomUUID();
  const cache = viewCacheOf(ctx);
  let lost = false;
  let pendingReset: string | null = null;
  let retry: NodeJS.Timeout | null = null;
  let resyncTimer: NodeJS.Timeout | null = null;

  const send = (m: Message) => pub.publish(VIEW_EVENTS_CHANNEL, JSON.stringify(m));

  const markLost = () => {
    if (lost) return;
    lost = true;
    cache.setEnabled(false);
    // The outage's one warning is the Redis breaker's (core/redis/health.ts).
    ctx.log.debug('view cache: Redis lost, public views are read from the database until it is back');
  };
  const announceReset = () => {
    if (!lost || !pub.isReady || !sub.isReady) return;
    pendingReset ??= crypto.randomUUID();
    send({ origin, reset: pendingReset }).catch(() => undefined);
    retry ??= setInterval(announceReset, RESET_RETRY_MS);
  };
  for (const c of [pub, sub]) {
    c.on('error', markLost);
    c.on('ready', announceReset);
  }
  // The breaker also sees a Redis that hangs without dropping the connection (no error, no 'ready' after).
  const health = redisHealthHandle.peek(ctx);
  const offHealth = health ? [health.onLost(markLost), health.onBack(announceReset)] : [];

  await sub.subscribe(VIEW_EVENTS_CHANNEL, (raw) => {
    let m: Message;
    try {
      m = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if ('reset' in m) {
      // Our own reset came back: the subscription is live again, the cache can be trusted anew.
      if (m.origin === origin && m.reset === pendingReset) {
        pendingReset = null;
        if (retry) clearInterval(retry);
        retry = null;
        lost = false;
      }
      cache.setEnabled(!lost);
      cache.clear();
      // Every process announces its own return: tell the viewers once for resets close together.
      resyncTimer ??= setTimeout(() => {
        resyncTimer = null;
        onReset();
      }, RESYNC_DEBOUNCE_MS);
      return;
    }
    if (m.origin !== origin) cache.apply(m.event);
  });

  const offs = VIEW_EVENTS.map((name) =>
    ctx.events.on(name, (payload) => {
      // Not connected: drop it (the reset that follows the return makes every cache rebuild).
      if (!pub.isReady || (health && !health.up)) return markLost();
      send({ origin, event: { name, payload } as ViewEvent }).catch(markLost);
    }),
  );

  return {
    close: async () => {
      offs.forEach((off) => off());
      offHealth.forEach((off) => off());
      if (retry) clearInterval(retry);
      if (resyncTimer) clearTimeout(resyncTimer);
      await Promise.allSettled([closeRedis(sub), closeRedis(pub)]);
    },
  };
}
