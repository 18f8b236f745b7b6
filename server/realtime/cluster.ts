import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Server } from 'socket.io';
import type { AppContext } from '../core/context';
import { connectRedis } from '../core/redis';
import { startViewEventRelay } from '../publicView/viewEventRelay';
import { startAuthRelay } from '../access/sockets/authRelay';

/**
 * With REDIS_URL: rooms shared across processes through Redis Streams (which also keeps the
 * packets a reconnecting viewer missed, for connection state recovery, and resumes after a Redis
 * blip), and the view caches kept coherent through a pub/sub channel. Fails fast when Redis is
 * unreachable at start.
 */
export async function joinCluster(io: Server, ctx: AppContext, url: string, onReset: () => void): Promise<{ close(): Promise<void> }> {
  const pub = await connectRedis(url, ctx.log, 'rooms');
  let sub;
  try {
    sub = await connectRedis(url, ctx.log, 'view events');
  } catch (e) {
    await pub.quit().catch(() => undefined);
    throw e;
  }
  io.adapter(createAdapter(pub));
  const relay = await startViewEventRelay(ctx, pub, sub, onReset);
  const stopAuthRelay = await startAuthRelay(ctx, pub, sub); // ended sessions reach every process (issue 21)
  ctx.log.info('realtime: Socket.IO uses the Redis adapter (several processes share rooms and view caches)');
  return {
    close: async () => {
      stopAuthRelay();
      await relay.close();
    },
  };
}
