import { createClient } from 'redis';
import type { Logger } from '../log';

/** How long the first connection to Redis may take before startup fails. */
const CONNECT_TIMEOUT_MS = 3_000;
/**
 * How long the first connection may take in all — TCP connect, handshake and a PING answered: a
 * port that accepts and never replies must stop startup, not hang it.
 */
const FIRST_ANSWER_TIMEOUT_MS = 5_000;

/** host:port of a Redis URL, without credentials (for messages and logs). */
export function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 6379}`;
  } catch {
    return 'the configured address';
  }
}

/** Raised when REDIS_URL cannot be reached at startup; the process exits with it. */
export class RedisUnreachableError extends Error {}

function newClient(url: string, connected: () => boolean, offlineQueue: boolean) {
  const where = redisAddress(url);
  return createClient({
    url,
    disableOfflineQueue: !offlineQueue,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number, cause: Error) =>
        connected()
          ? Math.min(50 * 2 ** retries, 2_000)
          : new RedisUnreachableError(`REDIS_URL is unreachable (${where}): ${cause.message}. Start Redis there, or unset REDIS_URL to run a single process.`),
    },
  });
}

export type RedisClient = ReturnType<typeof newClient>;

/**
 * Connects to Redis. Unreachable at start: rejects within seconds with a clear message (no retry
 * loop before listening). Lost later: reconnects with a capped backoff, forever, while the process
 * keeps serving; `'ready'` fires again when it is back. With `offlineQueue: false` commands fail at
 * once while disconnected (callers that have a fallback, such as the rate limits, use it).
 */
export async function connectRedis(url: string, log: Logger, role: string, opts: { offlineQueue?: boolean } = {}): Promise<RedisClient> {
  let connected = false;
  const client = newClient(url, () => connected, opts.offlineQueue ?? true);
  let warned = false;
  // Per connection at debug only: the outage itself is one warning of the Redis breaker (health.ts).
  client.on('error', (e: Error) => {
    if (!connected || warned) return;
    warned = true;
    log.debug(`redis (${role}): ${e.message}; reconnecting, serving on meanwhile`);
  });
  client.on('ready', () => {
    if (warned) log.debug(`redis (${role}): connected again`);
    warned = false;
  });
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new RedisUnreachableError(
        `REDIS_URL (${redisAddress(url)}) did not answer within ${FIRST_ANSWER_TIMEOUT_MS / 1000} s: is a Redis server listening there? Fix REDIS_URL, or unset it to run a single process.`,
      ));
    }, FIRST_ANSWER_TIMEOUT_MS);
  });
  try {
    await Promise.race([client.connect().then(() => client.ping()), silent]);
  } catch (e) {
    if (client.isOpen) client.destroy();
    throw e;
  } finally {
    clearTimeout(timer);
  }
  connected = true;
  return client;
}

/** How long a stop waits for Redis to acknowledge QUIT before dropping the connection. */
const QUIT_TIMEOUT_MS = 1_000;

/**
 * Closes a connection for a stop: QUIT when Redis answers (commands under way finish first), else —
 * Redis down, or silent past QUIT_TIMEOUT_MS — the connection is dropped, so a stop during an
 * outage never waits for Redis.
 */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (!client.isOpen) return;
  if (!client.isReady) return client.destroy();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), QUIT_TIMEOUT_MS)));
  const done = await Promise.race([client.quit().then(() => 'quit' as const, () => 'failed' as const), late]);
  clearTimeout(timer);
  if (done !== 'quit' && client.isOpen) client.destroy();
}
