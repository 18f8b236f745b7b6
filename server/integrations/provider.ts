import type { z } from 'zod';
import type { Logger } from '../core';

/**
 * What a pull provider is: the one thing each provider folder (`api/`, `postgres/`, `mysql/`) knows —
 * how to read its upstream page by page. Everything else lives once in this room: the integration
 * document, the sync lease, the auto-sync scheduler, runs and their history, progress events, the
 * cursor (moved only past stored pages), rejections, secrets kept server-side, the integration's
 * data source and the writer its records go through. Zendesk runs its own steps on the same room
 * (OAuth, several cursors, deletions) and is not a pull provider.
 *
 * A provider is registered in `providers.ts`. Its config schema lives in `common/schemas/integrations/`
 * (the console's forms use it too).
 */

/** Integration types read by the common pull engine. */
export type PullType = 'api' | 'postgres' | 'mysql';

/**
 * Where a sync resumes: any JSON value the provider chooses (the largest `updated_at` seen, the last
 * ordering column value, a pagination position…); `null` reads from the beginning. The room stores it
 * after each page's records are stored, so it never moves past records that did not land.
 */
export type Cursor = unknown;

/** One page (HTTP answer) or batch (rows) read from the upstream. */
export interface Page {
  /** The page's records; each should be a JSON object (anything else is rejected with a reason, the rest land). */
  records: unknown[];
  /** Where the next sync resumes once this page is stored (the same value as before when unchanged). */
  cursor: Cursor;
  /** The page in words for progress and errors: "page 3", "rows 2,001–3,000 (id > 2000)". */
  label: string;
  /**
   * Records the provider read but could not turn into a record (a row too large, a value it cannot
   * encode): counted as rejected with their reason. `index` is their place in the page.
   */
  rejected?: { index: number; reason: string }[];
  /** How far the run is, 0–1, when the provider knows (an upstream that says its total); else the room estimates. */
  share?: number;
  /** True on a page the provider knows is the last: a run that ends there at maxPages is not said to have stopped early. */
  last?: boolean;
}

/** Bounds a provider must keep while it reads (the room enforces maxPages, the run time and the record size itself). */
export interface PullLimits {
  /** Largest answer or batch, in bytes, a provider may hold (one page at a time). */
  maxPageBytes: number;
  /** Records per batch a database provider reads at once. */
  batchSize: number;
  /** Longest single request or statement, in ms. */
  requestTimeoutMs: number;
  /** Longest Retry-After (429) a provider waits, in seconds, before it gives the page up. */
  maxRetryAfterSeconds: number;
}

/** What a provider gets while it reads. */
export interface PullContext {
  /** Aborted when the run is stopped (deleted, shutdown, lease lost, run time limit): stop reading and throw. */
  signal: AbortSignal;
  /**
   * host:port pairs that may be reached over plain http or at a loopback, private or link-local
   * address (OUTBOUND_ALLOWED_HOSTS and the admin's Settings list). Every connection a provider
   * makes goes through `server/core/outbound.ts` with this list.
   */
  allowedHosts: readonly string[];
  log: Logger;
  /** Says what the run is doing between pages ("Rate limited: waiting 5 s"); shown as the progress message. Never a secret. */
  say(message: string): void;
  limits: PullLimits;
  /** `test`: Test connection reads the first page only and stores nothing; `sync`: a run. */
  purpose: 'test' | 'sync';
  /** What the provider keeps between runs of this integration in this process (an OAuth token until it expires). */
  memory: ProviderMemory;
}

/** A provider's per-integration memory in this process: forgotten on restart, on a config change's new key, or when its time runs out. */
export interface ProviderMemory {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown, ttlMs: number): void;
  delete(key: string): void;
}

/**
 * Something about the upstream the person can fix, in their words ("HTTP 401 from
 * 127.0.0.1:8080/v1/items", "recordsPath data.items is not an array in the answer", "password
 * authentication failed for user "reader""). Test connection answers it as a 422; a run fails with
 * it and the page it happened on. Never put a secret in the message (the room also scrubs every
 * stored secret value from messages, as a second line of defence).
 */
export class UpstreamProblem extends Error {
  override readonly name = 'UpstreamProblem';
}

/** A config field the server refuses to reach, found when the config is saved (a 400 naming `config.<path>`). */
export interface TargetProblem {
  /** The field's path inside the config: `url`, `auth.tokenUrl`, `connectionString`. */
  path: string;
  message: string;
}

/** How a provider's secrets are kept server-side: answered masked, kept when a PUT leaves them out. */
export interface ProviderSecrets<C> {
  /** The config as it may leave the server: each secret replaced by SECRET_MASK (a password inside a connection string too). */
  mask(config: C): unknown;
  /**
   * The config a PUT means: what was sent, with every secret it left out or sent back as SECRET_MASK
   * taken from the stored config. `kept` names the paths taken from storage.
   */
  keep(sent: unknown, stored: C): { config: unknown; kept: string[] };
  /** Every secret value of the config (scrubbed from run errors, test answers and log lines). */
  values(config: C): string[];
  /**
   * Where the secrets are sent (host:port of the URL, the token URL, the database). A PUT that changes
   * it must type the secrets again: a stored secret is only ever sent where it was first sent.
   */
  destination(config: C): string;
}

/** What every pull config may say (the room reads these; the rest is the provider's). */
export interface PullConfigBase {
  /** The field whose value identifies a record (upserted by it); absent: the writer's rule (the first field, if unique in the first page). */
  primaryKey?: string;
  /** Most pages (batches) one run reads; the next sync resumes after the last one stored. */
  maxPages?: number;
}

/** A pull provider: one per folder, registered in `providers.ts`. */
export interface PullProvider<C extends PullConfigBase = PullConfigBase> {
  type: PullType;
  /** Its name in the console and in messages: "HTTP API", "PostgreSQL". */
  label: string;
  /** What one read is called in progress and errors. */
  unit: 'page' | 'batch';
  /** The whole config, secrets included (`common/schemas/integrations/<type>.ts`); messages for the person filling the form. */
  config: z.ZodType<C>;
  secrets: ProviderSecrets<C>;
  /** A short, secret-free name of what it reads, shown on the card: "api.example.com/v1/items", "db.example.com:5432/shop". */
  describe(config: C): string;
  /**
   * Checks, without connecting, that every place the config reaches may be reached (the one way
   * out's rule: https or a listed host:port, no internal address unless listed). Null when fine.
   */
  checkTarget(config: C, allowedHosts: readonly string[]): TargetProblem | null;
  /**
   * Reads the upstream after `cursor`, one page at a time (never the whole upstream in memory). The
   * room stops iterating (calls `return`) at maxPages, on abort or once a test has its first page:
   * close connections in a `finally`. Throw UpstreamProblem for what the person can fix; the room
   * names the page it happened on.
   */
  pages(config: C, cursor: Cursor, ctx: PullContext): AsyncIterable<Page>;
}

/** What a masked secret reads as in answers (and what a form sends back for "unchanged"). */
export const SECRET_MASK = '••••••••';
