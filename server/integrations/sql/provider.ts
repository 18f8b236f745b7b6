import type { z } from 'zod';
import { type DatabaseConfig, type DatabaseEngine, readConnectionString } from '@common/schemas/integrations/database';
import { type Cursor, type PullContext, type PullProvider, type ProviderSecrets, SECRET_MASK } from '../provider';
import type { BatchOptions, CursorPart, SqlCursor, SqlPage } from './batches';
import { checkDatabaseTarget } from './connect';

/**
 * A database provider (PostgreSQL, MySQL) as the integrations room sees it: its config, the
 * password inside the connection string kept server-side, the one way out's check when saved, and
 * the batches read by its engine's reader.
 */

/** What an engine's reader takes besides the config and the cursor. */
export interface ReaderOptions extends BatchOptions {
  signal?: AbortSignal;
  allowedHosts: readonly string[];
  statementTimeoutMs?: number;
  say?: (message: string) => void;
}

export type ReadPages<C> = (config: C, cursor: SqlCursor | null, options: ReaderOptions) => AsyncGenerator<SqlPage>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The connection string with its password replaced by the mask (the rest as typed). */
export function maskPassword(raw: string): string {
  // scheme://user:password@host… — the password is between the user's colon and the authority's last "@".
  const m = /^([a-z]+:\/\/)([^/?#]*)@/i.exec(raw.trim());
  if (!m) return raw;
  const colon = m[2].indexOf(':');
  if (colon < 0) return raw;
  return `${m[1]}${m[2].slice(0, colon)}:${SECRET_MASK}@${raw.trim().slice(m[0].length)}`;
}

/** The connection string with this password in it (percent-encoded). */
function withPassword(raw: string, password: string): string {
  const u = new URL(raw.trim());
  u.password = encodeURIComponent(password);
  return u.toString();
}

/** The password inside the connection string is the secret: answered masked, kept when a PUT leaves it out or sends the mask back. */
export function connectionSecrets<C extends DatabaseConfig>(engine: DatabaseEngine): ProviderSecrets<C> {
  const read = (raw: unknown) => {
    if (typeof raw !== 'string') return null;
    const r = readConnectionString(raw, engine);
    return 'address' in r ? r.address : null;
  };
  return {
    mask: (config) => ({ ...config, connectionString: maskPassword(config.connectionString) }),
    keep(sent, stored) {
      if (!isObject(sent)) return { config: sent, kept: [] };
      if (sent.connectionString === undefined) return { config: { ...sent, connectionString: stored.connectionString }, kept: ['connectionString'] };
      const now = read(sent.connectionString);
      if (!now || (now.password !== '' && now.password !== SECRET_MASK)) return { config: sent, kept: [] };
      const before = read(stored.connectionString);
      if (before?.password) return { config: { ...sent, connectionString: withPassword(sent.connectionString as string, before.password) }, kept: ['connectionString'] };
      // A mask sent back where no password was stored is no password at all.
      return { config: now.password ? { ...sent, connectionString: withPassword(sent.connectionString as string, '') } : sent, kept: [] };
    },
    values: (config) => {
      const password = read(config.connectionString)?.password;
      return password ? [password] : [];
    },
    destination: (config) => {
      const a = read(config.connectionString);
      return a ? `${a.host}:${a.port}` : '';
    },
  };
}

/** A stored cursor, if it is one this reader wrote (anything else reads from the beginning). */
function sqlCursor(c: Cursor): SqlCursor | null {
  if (!isObject(c) || !Array.isArray(c.by) || !Array.isArray(c.after) || c.by.length !== c.after.length) return null;
  const part = (p: unknown): p is CursorPart => isObject(p) && typeof p.text === 'string' && typeof p.number === 'boolean';
  if (!c.by.every((b) => typeof b === 'string') || !c.after.every(part)) return null;
  return { by: c.by as string[], after: c.after as CursorPart[], ...(c.partial === true ? { partial: true as const } : {}) };
}

/** How long a count of the rows to read may take (at most a third of a statement's time) before the run goes on without it: a progress bar is not worth more. */
const COUNT_TIMEOUT_MS = 5_000;

export function databaseProvider<C extends DatabaseConfig>(spec: { type: DatabaseEngine; label: string; config: z.ZodType<C>; pages: ReadPages<C> }): PullProvider<C> {
  return {
    type: spec.type,
    label: spec.label,
    unit: 'batch',
    config: spec.config,
    secrets: connectionSecrets<C>(spec.type),
    describe(config) {
      const r = readConnectionString(config.connectionString, spec.type);
      return 'address' in r ? `${r.address.host}:${r.address.port}/${r.address.database}` : spec.label;
    },
    checkTarget: (config, allowedHosts) => checkDatabaseTarget(config, spec.type, allowedHosts),
    pages: (config, cursor, ctx: PullContext) =>
      spec.pages(config, sqlCursor(cursor), {
        signal: ctx.signal,
        allowedHosts: ctx.allowedHosts,
        say: (m) => ctx.say(m),
        statementTimeoutMs: ctx.limits.requestTimeoutMs,
        maxBatch: ctx.limits.batchSize,
        // Two batches are held at once (one stored, the next read): each aims at half the bound.
        batchBytes: ctx.limits.maxPageBytes / 2,
        // Test connection shows a few rows: it reads a small first batch and counts nothing. A sync's
        // batches are all as large as allowed: each is one write, and a write's cost is paid per command.
        firstBatch: ctx.purpose === 'test' ? 20 : ctx.limits.batchSize,
        countTimeoutMs: ctx.purpose === 'test' ? 0 : Math.min(COUNT_TIMEOUT_MS, ctx.limits.requestTimeoutMs / 3),
      }),
  };
}
