import type { Context } from 'koa';
import { sha256 } from './accounts/accounts';
import type { RateLimits } from './rateLimits';

/**
 * Failed bearer credentials (admin token, personal API tokens, ingest keys, the setup token):
 * limited per (address, credential presented) and, counting each distinct wrong credential once,
 * per address. A sender repeating a stale ingest key uses up only that key's budget: the admin
 * token, sessions and other sources' keys from the same address go on working. A guesser trying
 * many credentials still blocks its address, and past that every bearer attempt from it answers 429
 * (a hit cannot be told from a miss).
 */
export function failedCredentials(limits: RateLimits) {
  /** The limiter key of a credential from an address: the credential only as its SHA-256 (the limiter hashes the whole key again). */
  const pairOf = (address: string, credential: string) => `${address}\n${sha256(credential)}`;
  return {
    /** 429 when the address or this credential from it has used up the window. */
    async check(ctx: Context, address: string, credential: string): Promise<void> {
      await limits.authFailures.check(ctx, address);
      await limits.credentialFailures.check(ctx, pairOf(address, credential));
    },

    /** The 429 message, or null (socket handshakes). */
    async blocked(address: string, credential: string): Promise<string | null> {
      return (await limits.authFailures.blocked(address)) ?? (await limits.credentialFailures.blocked(pairOf(address, credential)));
    },

    /** Counts a refused credential: once per attempt for itself, once per window for the address. */
    async failed(address: string, credential: string): Promise<void> {
      if ((await limits.credentialFailures.penalize(pairOf(address, credential))) === 1) await limits.authFailures.penalize(address);
    },
  };
}

export type FailedCredentials = ReturnType<typeof failedCredentials>;
