import { redisHealthHandle, type AppContext, type RedisClient } from '../core';

/** How long a readiness check waits for the database or Redis to answer a ping. */
const PING_TIMEOUT_MS = 2_000;

export interface Readiness {
  ready: boolean;
  /** What is not ready: `draining` (stopping), `database`. */
  notReady: string[];
  /** What the process serves without, for now: `redis` during an outage (each process on its own). */
  degraded: string[];
  checks: Record<string, 'ok' | 'failed' | 'draining'>;
}

const within = <T>(p: Promise<T>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    p.then(() => resolve(true), () => resolve(false)).finally(() => clearTimeout(t));
  });

/**
 * Whether this process should get traffic: the database answers a ping and the process is not
 * draining. Redis is not a condition: during an outage every process serves on without it (the
 * breaker, core/redis/health.ts), so a load balancer must not drop the fleet — `degraded` says so.
 */
export async function readiness(app: AppContext, redis: RedisClient | null, draining: boolean): Promise<Readiness> {
  const checks: Readiness['checks'] = {};
  const health = redisHealthHandle.peek(app);
  const [db, cache] = await Promise.all([
    within(app.conn.db!.admin().ping(), PING_TIMEOUT_MS),
    // Through the breaker: a ping that fails or is late puts Redis down; while down, not asked (it probes by itself).
    redis && health ? health.run(() => redis.ping(), PING_TIMEOUT_MS).then(() => true, () => false) : Promise.resolve(null),
  ]);
  checks.database = db ? 'ok' : 'failed';
  if (cache !== null) checks.redis = cache ? 'ok' : 'failed';
  if (draining) checks.process = 'draining';
  const notReady = [...(draining ? ['draining'] : []), ...(db ? [] : ['database'])];
  return { ready: notReady.length === 0, notReady, degraded: cache === false ? ['redis'] : [], checks };
}
