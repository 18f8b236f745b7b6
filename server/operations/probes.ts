import type { AppContext, RedisClient } from '../core';

/** How long a readiness check waits for the database or Redis to answer a ping. */
const PING_TIMEOUT_MS = 2_000;

export interface Readiness {
  ready: boolean;
  /** What is not ready: `draining` (stopping), `database`, `redis`. */
  notReady: string[];
  checks: Record<string, 'ok' | 'failed' | 'draining'>;
}

const within = <T>(p: Promise<T>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    p.then(() => resolve(true), () => resolve(false)).finally(() => clearTimeout(t));
  });

/**
 * Whether this process should get traffic: the database answers a ping, Redis too when configured
 * (the rate limits' client: it fails fast while disconnected), and the process is not draining.
 */
export async function readiness(app: AppContext, redis: RedisClient | null, draining: boolean): Promise<Readiness> {
  const checks: Readiness['checks'] = {};
  const [db, cache] = await Promise.all([
    within(app.conn.db!.admin().ping(), PING_TIMEOUT_MS),
    redis ? within(redis.isReady ? redis.ping() : Promise.reject(new Error('disconnected')), PING_TIMEOUT_MS) : Promise.resolve(null),
  ]);
  checks.database = db ? 'ok' : 'failed';
  if (cache !== null) checks.redis = cache ? 'ok' : 'failed';
  if (draining) checks.process = 'draining';
  const notReady = [...(draining ? ['draining'] : []), ...(db ? [] : ['database']), ...(cache === false ? ['redis'] : [])];
  return { ready: notReady.length === 0, notReady, checks };
}
