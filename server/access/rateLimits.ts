import { AppHandle, ApiError } from '../core';
import type { Context } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ErrorCode } from '@common/schemas/errors';
import type { Config, KeyedHash, RedisClient, RedisHealth } from '../core';

/** One named limit: so many points per window per key (an address or a credential). */
export class Limit {
  constructor(
    /** Says what is limited, for the 429 message ("failed sign-in attempts from this address"). */
    readonly what: string,
    readonly points: number,
    readonly windowSeconds: number,
    private readonly limiter: Limiter,
    /** Keys are stored as their keyed hash (never a credential or an address in clear, nor a bare SHA-256). */
    private readonly hash: KeyedHash,
    /** What to do meanwhile, for the 429 message (beyond waiting). */
    private readonly advice = '',
  ) {}

  /** Counts one request; over the limit it throws 429. Sets the RateLimit-* headers either way. */
  async consume(ctx: Context, key: string): Promise<void> {
    try {
      this.setHeaders(ctx, await this.limiter.consume(this.hash(key)));
    } catch (e) {
      if (e instanceof RateLimiterRes) throw this.tooMany(e);
      throw e;
    }
  }

  /** Counts one request where no response headers are at hand (a service that learns the key late); over the limit it throws 429. */
  async take(key: string): Promise<void> {
    try {
      await this.limiter.consume(this.hash(key));
    } catch (e) {
      if (e instanceof RateLimiterRes) throw this.tooMany(e);
      throw e;
    }
  }

  /** Throws 429 when the key has used up the window, without counting this request. */
  async check(ctx: Context, key: string): Promise<void> {
    const res = await this.limiter.get(this.hash(key));
    if (res && res.consumedPoints >= this.points) throw this.tooMany(res);
    if (res) this.setHeaders(ctx, res);
  }

  /** The 429 message when the key has used up the window (for callers outside HTTP, e.g. socket handshakes). */
  async blocked(key: string): Promise<string | null> {
    const res = await this.limiter.get(this.hash(key));
    return res && res.consumedPoints >= this.points ? this.tooMany(res).message : null;
  }

  /** Counts a failure (used for failed credentials, which are checked before being counted); answers the key's count in the window. */
  async penalize(key: string): Promise<number> {
    return (await this.limiter.penalty(this.hash(key), 1)).consumedPoints;
  }

  /** How many the key has used in the window (nothing counted). */
  async count(key: string): Promise<number> {
    return (await this.limiter.get(this.hash(key)))?.consumedPoints ?? 0;
  }

  private setHeaders(ctx: Context, res: RateLimiterRes) {
    for (const [k, v] of Object.entries(this.headers(res))) ctx.set(k, v);
  }

  private headers(res: RateLimiterRes): Record<string, string> {
    return {
      'RateLimit-Limit': String(this.points),
      'RateLimit-Remaining': String(Math.max(0, this.points - res.consumedPoints)),
      'RateLimit-Reset': String(Math.ceil(res.msBeforeNext / 1000)),
      'RateLimit-Policy': `${this.points};w=${this.windowSeconds}`,
    };
  }

  private tooMany(res: RateLimiterRes): ApiError {
    const retry = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return new ApiError(
      429,
      ErrorCode.rateLimited,
      `Too many ${this.what}: the limit is ${this.points} per ${describeWindow(this.windowSeconds)}. Try again in ${retry} s.${this.advice ? ` ${this.advice}` : ''}`,
      undefined,
      { ...this.headers(res), 'Retry-After': String(retry) },
    );
  }
}

function describeWindow(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** This app's rate limits, set at start-up. */
export const rateLimitsHandle = new AppHandle<RateLimits>('the rate limits');

export interface RateLimits {
  /** Wrong passwords and distinct wrong bearer credentials, per client address (a guesser trying many). */
  authFailures: Limit;
  /** Failures of one presented bearer credential, per (address, credential): a stale key blocks only itself. */
  credentialFailures: Limit;
  /** Failed sign-ins, per (account, address). */
  signInFailures: Limit;
  /** Failed sign-ins per account from anywhere: they slow its sign-ins down (signInDelayMs), never refuse them. */
  signInSlowdown: Limit;
  /** Ingest requests, per credential. */
  ingest: Limit;
  /** Ingest requests, per data source (whatever credential sends them). */
  ingestSource: Limit;
  /** OAuth config and callback requests, per client address. */
  oauth: Limit;
  /** Test messages of alerts, per person (each reaches every channel of a rule: up to 10 channels, 20 recipients each). */
  alertTests: Limit;
}

/** The parts of a limiter a Limit uses. */
type Limiter = Pick<RateLimiterAbstract, 'consume' | 'get' | 'penalty'>;

/**
 * A limit shared through Redis that falls back, at once, to this process's memory while Redis is
 * down (the breaker: no request waits on a dead Redis). During an outage each process counts its
 * own requests, so a client spread over N processes gets up to N times a limit until Redis is back;
 * counts made in memory are not carried over to Redis.
 */
function failover(redis: RateLimiterRedis, memory: RateLimiterMemory, health: RedisHealth): Limiter {
  const either = <T>(use: (l: RateLimiterAbstract) => Promise<T>): Promise<T> =>
    health.run(() => use(redis)).catch((e: unknown) => {
      // Over the limit is Redis's answer (a RateLimiterRes), not a failure.
      if (e instanceof RateLimiterRes) throw e;
      return use(memory);
    });
  return {
    consume: (key, points, options) => either((l) => l.consume(key, points, options)),
    get: (key, options) => either((l) => l.get(key, options)),
    penalty: (key, points, options) => either((l) => l.penalty(key, points, options)),
  };
}

/**
 * The server's rate limits (config variables RATE_LIMIT_*). With Redis they are shared by every
 * process; while Redis is down (`health`) each process counts in its own memory, at once. Keys
 * (addresses, credentials) are given in clear and stored as `hash(key)`.
 */
export function createRateLimits(config: Config, redis: { client: RedisClient; health: RedisHealth } | null, hash: KeyedHash): RateLimits {
  const make = (keyPrefix: string, points: number, duration: number): Limiter => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    if (!redis) return memory;
    // Not ready (reconnecting): refused at once rather than queued until the next attempt.
    const shared = new RateLimiterRedis({ storeClient: redis.client, useRedisPackage: true, rejectIfRedisNotReady: true, keyPrefix: `livedash:rl:${keyPrefix}`, points, duration });
    return failover(shared, memory, redis.health);
  };
  const limit = (what: string, prefix: string, points: number, seconds: number, advice?: string) => new Limit(what, points, seconds, make(prefix, points, seconds), hash, advice);
  return {
    authFailures: limit('failed credential attempts from this address', 'auth', config.RATE_LIMIT_AUTH_FAILURES, config.RATE_LIMIT_AUTH_WINDOW_SECONDS),
    credentialFailures: limit('failed attempts with this credential from this address', 'credential', config.RATE_LIMIT_AUTH_FAILURES, config.RATE_LIMIT_AUTH_WINDOW_SECONDS),
    signInFailures: limit('failed sign-ins for this account from this address', 'signin-address', config.RATE_LIMIT_SIGN_IN_ACCOUNT, config.RATE_LIMIT_AUTH_WINDOW_SECONDS),
    signInSlowdown: limit('failed sign-ins for this account', 'signin-account', 1_000_000, config.RATE_LIMIT_AUTH_WINDOW_SECONDS),
    ingest: limit('ingest requests with this credential', 'ingest', config.RATE_LIMIT_INGEST, config.RATE_LIMIT_INGEST_WINDOW_SECONDS),
    ingestSource: limit('ingest requests into this data source', 'ingestsrc', config.RATE_LIMIT_INGEST_SOURCE, config.RATE_LIMIT_INGEST_WINDOW_SECONDS),
    oauth: limit('OAuth requests from this address', 'oauth', config.RATE_LIMIT_OAUTH, config.RATE_LIMIT_OAUTH_WINDOW_SECONDS),
    alertTests: limit(
      'test messages of alerts sent by you', 'alerttest', config.RATE_LIMIT_ALERT_TESTS, config.RATE_LIMIT_ALERT_TESTS_WINDOW_SECONDS,
      'Meanwhile, see whether the last test arrived under the alert\'s History (each attempt\'s status is there); real messages of firing alerts are not held back.',
    ),
  };
}
