import { z } from 'zod';

/**
 * The config of a PostgreSQL or MySQL/MariaDB integration: a connection string, a query read in
 * batches, and how rows are told apart (primaryKey) and which are new (incremental.column).
 */

export type DatabaseEngine = 'postgres' | 'mysql';

/** How a connection is encrypted: not at all (listed hosts only), TLS unverified, chain verified, chain and host name verified. */
export type TlsMode = 'disable' | 'require' | 'verify-ca' | 'verify-full';

/** A connection string read into its parts (the password stays on the server). */
export interface DatabaseAddress {
  engine: DatabaseEngine;
  /** As a URL spells it: lower case, IPv6 in brackets. */
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** Absent: verify-full, or no TLS for an allowed host:port (OUTBOUND_ALLOWED_HOSTS or Settings › Outbound hosts). */
  tls: TlsMode | null;
  /** PostgreSQL's channel_binding=require (SCRAM bound to the TLS channel). */
  channelBinding: boolean;
}

const SCHEMES: Record<DatabaseEngine, string[]> = { postgres: ['postgres:', 'postgresql:'], mysql: ['mysql:', 'mariadb:'] };
const DEFAULT_PORT: Record<DatabaseEngine, number> = { postgres: 5432, mysql: 3306 };
const EXAMPLE: Record<DatabaseEngine, string> = { postgres: 'postgres://user:password@host:5432/database', mysql: 'mysql://user:password@host:3306/database' };

/** libpq's sslmode words and MySQL's ssl-mode words, to one TLS mode. */
const TLS_WORDS: Record<string, TlsMode> = {
  disable: 'disable',
  disabled: 'disable',
  require: 'require',
  required: 'require',
  'verify-ca': 'verify-ca',
  verify_ca: 'verify-ca',
  'verify-full': 'verify-full',
  verify_identity: 'verify-full',
};

/** Reads a connection string, or says what is wrong with it — never repeating the string (it holds a password). */
export function readConnectionString(raw: string, engine: DatabaseEngine): { address: DatabaseAddress } | { problem: string } {
  const shape = `write it as ${EXAMPLE[engine]} (special characters in the password percent-encoded)`;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { problem: `could not be read: ${shape}` };
  }
  if (!SCHEMES[engine].includes(u.protocol)) return { problem: `must start with ${SCHEMES[engine].map((s) => `${s}//`).join(' or ')}: ${shape}` };
  if (!u.hostname) return { problem: `names no host: ${shape}` };
  if (!u.username) return { problem: `names no user: ${shape}` };
  const port = u.port ? Number(u.port) : DEFAULT_PORT[engine];
  let user: string;
  let password: string;
  let database: string;
  try {
    user = decodeURIComponent(u.username);
    password = decodeURIComponent(u.password);
    database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  } catch {
    return { problem: `has a broken percent-encoding: ${shape}` };
  }
  if (!database || database.includes('/')) return { problem: `names no database (the part after the host's "/"): ${shape}` };
  let tls: TlsMode | null = null;
  let channelBinding = false;
  for (const [name, value] of u.searchParams) {
    const key = name.toLowerCase();
    if (key === 'sslmode' || key === 'ssl-mode' || key === 'ssl_mode') {
      const mode = TLS_WORDS[value.toLowerCase()];
      if (!mode) return { problem: `sslmode=${value} is not supported: choose verify-full (the default), verify-ca, require, or disable (only for hosts allowed under Settings › Outbound hosts)` };
      tls = mode;
    } else if (engine === 'postgres' && key === 'channel_binding' && ['disable', 'prefer', 'require'].includes(value)) {
      channelBinding = value === 'require';
    } else {
      return { problem: `the parameter ${name} is not supported (only sslmode${engine === 'postgres' ? ' and channel_binding' : ''})` };
    }
  }
  return { address: { engine, host: u.hostname.toLowerCase(), port, user, password, database, tls, channelBinding } };
}

const queryText = z
  .string({ error: 'query is required: the SELECT whose rows land in the data source' })
  .max(100_000, 'query must be at most 100,000 characters')
  // A trailing semicolon is how people end SQL; the query is read as one statement inside another.
  .transform((q) => q.trim().replace(/;\s*$/, '').trim())
  .refine((q) => q.length > 0, 'query is required: the SELECT whose rows land in the data source');

const column = (what: string) => z.string({ error: `${what} must be a column name of the query's result` }).trim().min(1, `${what} must be a column name of the query's result`).max(200, `${what} must be at most 200 characters`);

/** The config of one engine's integration; the connection string is checked for its shape here and for its address when saved. */
export function databaseConfig(engine: DatabaseEngine) {
  return z
    .object({
      connectionString: z
        .string({ error: `connectionString is required, e.g. ${EXAMPLE[engine]}` })
        .max(2_000, 'connectionString must be at most 2,000 characters')
        .superRefine((raw, ctx) => {
          const read = readConnectionString(raw, engine);
          if ('problem' in read) ctx.addIssue({ code: 'custom', message: `connectionString ${read.problem}` });
        }),
      query: queryText,
      primaryKey: column('primaryKey').optional(),
      incremental: z.object({ column: column('incremental.column') }, { error: 'incremental must be {"column": "<column name>"}' }).strict().optional(),
      maxPages: z.number({ error: 'maxPages must be a whole number of batches' }).int('maxPages must be a whole number of batches').min(1, 'maxPages must be at least 1').max(1_000_000, 'maxPages must be at most 1,000,000').optional(),
    })
    .strict()
    .refine((c) => c.primaryKey || c.incremental, {
      path: ['primaryKey'],
      message: 'Name a primaryKey (the column that tells rows apart) or an incremental.column (the column that grows with new rows): with neither, every sync would add every row again',
    });
}

/** Either engine's config, once validated. */
export type DatabaseConfig = z.infer<ReturnType<typeof databaseConfig>>;
