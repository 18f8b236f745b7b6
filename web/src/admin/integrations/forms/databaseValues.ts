import { SECRET_MASK } from './SecretInput';
import type { Config } from './types';

/**
 * A database form's values (PostgreSQL, MySQL/MariaDB): the connection string in its parts, so a
 * person fills a host, a user and a password rather than a URL, and the config they make. The
 * password answered masked stays the mask: sent back so, the server keeps the stored one.
 */
export type DatabaseEngine = 'postgres' | 'mysql';
export type TlsChoice = '' | 'verify-full' | 'verify-ca' | 'require' | 'disable';

export interface DatabaseValues {
  host: string;
  port: number | null;
  database: string;
  user: string;
  password: string;
  tls: TlsChoice;
  /** Parameters of the connection string other than sslmode (PostgreSQL's channel_binding), kept as they were. */
  params: string;
  query: string;
  primaryKey: string;
  incrementalColumn: string;
  maxPages: number | null;
}

export const DEFAULT_PORT: Record<DatabaseEngine, number> = { postgres: 5432, mysql: 3306 };
const SCHEME: Record<DatabaseEngine, string> = { postgres: 'postgres', mysql: 'mysql' };
const TLS_WORDS: Record<string, TlsChoice> = {
  disable: 'disable', disabled: 'disable', require: 'require', required: 'require', 'verify-ca': 'verify-ca', verify_ca: 'verify-ca', 'verify-full': 'verify-full', verify_identity: 'verify-full',
};

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' ? v : null);
const decode = (v: string) => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

/** A connection string's parts (scheme://user:password@host:port/database?params), or null when it is not one. */
export function readConnection(raw: string): Pick<DatabaseValues, 'host' | 'port' | 'database' | 'user' | 'password' | 'tls' | 'params'> | null {
  const m = /^[a-z]+:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d+))?\/([^?#]*)(?:\?([^#]*))?$/i.exec(raw.trim());
  if (!m) return null;
  const query = new URLSearchParams(m[6] ?? '');
  let tls: TlsChoice = '';
  for (const name of ['sslmode', 'ssl-mode', 'ssl_mode']) {
    const v = query.get(name);
    if (v) tls = TLS_WORDS[v.toLowerCase()] ?? '';
    query.delete(name);
  }
  return { user: decode(m[1] ?? ''), password: decode(m[2] ?? ''), host: m[3], port: m[4] ? Number(m[4]) : null, database: decode(m[5]), tls, params: query.toString() };
}

export function databaseValues(config: Config | null): DatabaseValues {
  const c = config ?? {};
  const parts = readConnection(str(c.connectionString));
  const inc = typeof c.incremental === 'object' && c.incremental !== null ? (c.incremental as Config) : {};
  return {
    host: parts?.host ?? '',
    port: parts?.port ?? null,
    database: parts?.database ?? '',
    user: parts?.user ?? '',
    password: parts?.password ?? '',
    tls: parts?.tls ?? '',
    params: parts?.params ?? '',
    query: str(c.query),
    primaryKey: str(c.primaryKey),
    incrementalColumn: str(inc.column),
    maxPages: num(c.maxPages),
  };
}

/** The connection string of the form's parts: user and password percent-encoded, the mask as it is. */
export function connectionString(engine: DatabaseEngine, v: DatabaseValues): string {
  const password = v.password === SECRET_MASK ? SECRET_MASK : encodeURIComponent(v.password ?? '');
  const params = new URLSearchParams(v.params ?? '');
  if (v.tls) params.set('sslmode', v.tls);
  const query = params.toString();
  return `${SCHEME[engine]}://${encodeURIComponent((v.user ?? '').trim())}${password ? `:${password}` : ''}@${(v.host ?? '').trim()}${v.port ? `:${v.port}` : ''}/${encodeURIComponent((v.database ?? '').trim())}${query ? `?${query}` : ''}`;
}

const text = (v: string | undefined) => (v ?? '').trim() || undefined;

export function databaseConfig(engine: DatabaseEngine, v: DatabaseValues): Config {
  const config: Config = { connectionString: connectionString(engine, v), query: v.query ?? '' };
  if (text(v.primaryKey)) config.primaryKey = text(v.primaryKey);
  if (text(v.incrementalColumn)) config.incremental = { column: text(v.incrementalColumn) };
  if (v.maxPages) config.maxPages = v.maxPages;
  return config;
}
