import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Server } from 'socket.io';
import type { AppContext, RedisClient } from '../core';
import { connectRedis } from '../core';

/**
 * A feature's channel between processes (view cache changes, ended sessions): started with the
 * publishing and the subscribed Redis connections; `onReset` says Redis was lost (messages may be gone).
 */
export type ClusterRelay = (ctx: AppContext, pub: RedisClient, sub: RedisClient, onReset: () => void) => Promise<{ close(): Promise<void> } | (() => void)>;

/**
 * With REDIS_URL: rooms shared across processes through Redis Streams (which also keeps the
 * packets a reconnecting viewer missed, for connection state recovery, and resumes after a Redis
 * blip), and the features' relays on a pub/sub connection. Fails fast when Redis is unreachable at start.
 */
export async function joinCluster(io: Server, ctx: AppContext, url: string, onReset: () => void, relays: ClusterRelay[]): Promise<{ close(): Promise<void> }> {
  const pub = await connectRedis(url, ctx.log, 'rooms');
  let sub;
  try {
    sub = await connectRedis(url, ctx.log, 'view events');
  } catch (e) {
    await pub.quit().catch(() => undefined);
    throw e;
  }
  io.adapter(createAdapter(pub));
  const started: Awaited<ReturnType<ClusterRelay>>[] = [];
  for (const relay of relays) started.push(await relay(ctx, pub, sub, onReset));
  ctx.log.info('realtime: Socket.IO uses the Redis adapter (several processes share rooms and view caches)');
  return {
    close: async () => {
      for (const r of started.reverse()) await (typeof r === 'function' ? r() : r.close());
    },
  };
}
