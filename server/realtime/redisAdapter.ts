import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import type { Server } from 'socket.io';
import type { Logger } from '../log';

/** With REDIS_URL, room broadcasts cross processes through Redis pub/sub. */
export async function connectRedisAdapter(io: Server, url: string, log: Logger): Promise<{ close(): Promise<void> }> {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  for (const c of [pub, sub]) c.on('error', (e: Error) => log.warn(`redis: ${e.message}`));
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub));
  log.info('realtime: Socket.IO uses the Redis adapter (several processes share rooms)');
  return {
    close: async () => {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
