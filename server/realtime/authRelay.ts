import crypto from 'node:crypto';
import { redisHealthHandle, type AppContext, type RedisClient, type Revocation } from '../core';

/** The Redis pub/sub channel that carries ended sessions and tokens between processes. */
export const AUTH_EVENTS_CHANNEL = 'livedash:auth-revocations';

/**
 * Makes a revocation immediate in every process: each local `auth.revoked` is published, and the
 * others' are emitted here (so their cached sessions and tokens go and their sockets close).
 */
export async function startAuthRelay(ctx: AppContext, pub: RedisClient, sub: RedisClient): Promise<() => void> {
  const origin = crypto.randomUUID();
  await sub.subscribe(AUTH_EVENTS_CHANNEL, (raw) => {
    let m: { origin: string; revocation: Revocation };
    try {
      m = JSON.parse(raw) as typeof m;
    } catch {
      return;
    }
    if (m.origin !== origin) ctx.events.emit('auth.revoked', { ...m.revocation, relayed: true });
  });
  const health = redisHealthHandle.peek(ctx);
  return ctx.events.on('auth.revoked', (revocation) => {
    if (revocation.relayed) return;
    // Redis down: not queued (the other processes check their sockets against the database when it is back).
    if (health && !health.up) return;
    pub.publish(AUTH_EVENTS_CHANNEL, JSON.stringify({ origin, revocation })).catch((e) => ctx.log.debug(`auth relay: could not publish a revocation: ${(e as Error).message}`));
  });
}
