import crypto from 'node:crypto';
import type { AppContext, RedisClient } from '../../core';

/** The Redis pub/sub channel that carries embedding secret changes between processes. */
export const EMBED_EVENTS_CHANNEL = 'livedash:embedding-events';

/**
 * Carries `embedding.secretChanged` between processes (a cluster relay, started with the realtime
 * server): every process forgets the dashboard's secret and tokens and ends its sockets verified
 * under the old one. When Redis comes back after a loss, a change may have been missed: this
 * process then forgets every secret and checks its embed sockets again (`dashboardId: null`).
 */
export async function startEmbeddingRelay(ctx: AppContext, pub: RedisClient, sub: RedisClient): Promise<() => void> {
  const origin = crypto.randomUUID();
  let lost = false;
  const onError = () => (lost = true);
  const onReady = () => {
    if (!lost) return;
    lost = false;
    ctx.events.emit('embedding.secretChanged', { dashboardId: null, relayed: true });
  };
  sub.on('error', onError);
  sub.on('ready', onReady);
  await sub.subscribe(EMBED_EVENTS_CHANNEL, (raw) => {
    let m: { origin: string; dashboardId: string | null };
    try {
      m = JSON.parse(raw) as typeof m;
    } catch {
      return;
    }
    if (m.origin !== origin) ctx.events.emit('embedding.secretChanged', { dashboardId: m.dashboardId, relayed: true });
  });
  const off = ctx.events.on('embedding.secretChanged', ({ dashboardId, relayed }) => {
    if (relayed) return;
    pub.publish(EMBED_EVENTS_CHANNEL, JSON.stringify({ origin, dashboardId })).catch((e) => ctx.log.error('embedding relay: could not publish a secret change', e));
  });
  return () => {
    off();
    sub.off('error', onError);
    sub.off('ready', onReady);
  };
}
