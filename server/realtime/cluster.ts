import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Server } from 'socket.io';
import type { AppContext, RedisClient, RedisHealth } from '../core';
import { closeRedis, connectRedis, redisHealthHandle } from '../core';

/**
 * A feature's channel between processes (view cache changes, ended sessions): started with the
 * publishing and the subscribed Redis connections; `onReset` says Redis was lost (messages may be gone).
 */
export type ClusterRelay = (ctx: AppContext, pub: RedisClient, sub: RedisClient, onReset: () => void) => Promise<{ close(): Promise<void> } | (() => void)>;

type AdapterFactory = ReturnType<typeof createAdapter>;
/** Longest a reconnecting socket waits for its session from Redis (then it starts afresh and refetches). */
const RESTORE_TIMEOUT_MS = 1_000;
type StreamsAdapter = ReturnType<AdapterFactory>;

/**
 * The Redis Streams adapter, made to degrade while Redis is down or silent (the breaker) instead of
 * waiting on it: a broadcast awaits its publish before reaching this process's own sockets, so a
 * publish is waited for only briefly (then the sockets here get the packet at once, not kept for
 * recovery) and not sent at all during an outage; the server count is this process alone
 * (fetchSockets answers from here); a reconnecting socket's session is looked up only briefly (else
 * it starts afresh and refetches); sessions are not stored. Other processes' viewers miss what this
 * one sends during an outage, until Redis is back and every viewer is told to resync.
 */
function degradingAdapter(make: AdapterFactory, health: RedisHealth): AdapterFactory {
  // Socket.IO calls it with `new`: a plain function returning the adapter it made.
  return function degrading(nsp) {
    // doPublish and serverCount are the cluster adapter's own (protected) steps.
    const adapter = make(nsp) as StreamsAdapter & { doPublish(message: unknown): Promise<string>; serverCount(): Promise<number> };
    const { doPublish, serverCount, persistSession, restoreSession } = adapter;
    // Through the breaker: a publish Redis does not take at once is not waited for (local sockets get the
    // packet now, and the others when a slow Redis takes it); while Redis is down it is not sent.
    adapter.doPublish = (message) => health.run(() => doPublish.call(adapter, message), undefined, { sendWhileOverdue: true });
    adapter.serverCount = () => health.run(() => serverCount.call(adapter)).catch(() => 1);
    adapter.persistSession = (session) => {
      if (health.up) persistSession.call(adapter, session);
    };
    adapter.restoreSession = (pid, offset) => health.run(() => restoreSession.call(adapter, pid, offset), RESTORE_TIMEOUT_MS);
    return adapter;
  };
}

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
    await closeRedis(pub);
    throw e;
  }
  const health = redisHealthHandle.peek(ctx);
  for (const c of [pub, sub]) health?.watch(c);
  io.adapter(health ? degradingAdapter(createAdapter(pub), health) : createAdapter(pub));
  const started: Awaited<ReturnType<ClusterRelay>>[] = [];
  for (const relay of relays) started.push(await relay(ctx, pub, sub, onReset));
  ctx.log.info('realtime: Socket.IO uses the Redis adapter (several processes share rooms and view caches)');
  return {
    close: async () => {
      for (const r of started.reverse()) await (typeof r === 'function' ? r() : r.close());
    },
  };
}
