import { createClient } from 'redis';
import type { Logger } from './log';


/** How long the first connection may take before startup fails. */
const FIRST_CONNECT_MS = 3_000;

/**
 * Connects to Redis, failing fast at start: an unreachable REDIS_URL rejects within a few seconds
 * (the server then exits with a clear error) instead of retrying forever before it listens. Once
 * connected, a lost connection is retried with backoff while the server keeps serving; commands
 * fail at once meanwhile (no offline queue), so callers fall back instead of hanging.
 */
export async function connectRedis(url: string, log: Logger, purpose: string): Promise<RedisClient> {
  let connectedOnce = false;
  const client = newClient(url, () => connectedOnce);
  let lastError = '';
  client.on('error', (e: Error) => {
    if (!connectedOnce || e.message === lastError) return;
    lastError = e.message;
    log.warn(`redis (${purpose}): ${e.message} — retrying`);
  });
  client.on('ready', () => {
    if (connectedOnce && lastError) log.info(`redis (${purpose}): connection restored`);
    lastError = '';
  });
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`Redis at ${redactUrl(url)} did not answer within ${FIRST_CONNECT_MS / 1000} s`)), FIRST_CONNECT_MS + 500).unref(),
  );
  try {
    await Promise.race([client.connect(), timeout]);
  } catch (e) {
    client.destroy();
    throw e;
  }
  connectedOnce = true;
  return client;
}

function newClient(url: string, connectedOnce: () => boolean) {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: FIRST_CONNECT_MS,
      reconnectStrategy: (retries, cause) => {
        if (!connectedOnce()) return new Error(`Redis at ${redactUrl(url)} is unreachable (${cause?.message ?? 'no answer'})`);
        return Math.min(100 * 2 ** retries, 5_000);
      },
    },
  });
}

export type RedisClient = ReturnType<typeof newClient>;

/** A Redis URL without its password, for logs and errors. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}
