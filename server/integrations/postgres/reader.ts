import pg from 'pg';
import type { PostgresConfig } from '@common/schemas/integrations/postgres';
import { type CursorPart, type Row, type SqlCursor, type SqlDialect, type SqlPage, type SqlSession, readBatches } from '../sql/batches';
import { UpstreamProblem } from '../provider';
import type { ReaderOptions } from '../sql/provider';
import { CONNECT_TIMEOUT_MS, STATEMENT_TIMEOUT_MS, addressOf, networkWords, pinnedSocket, scrub, targetOf } from '../sql/connect';
import { exactNumber, jsonValue, utcDateTime } from '../sql/values';

/**
 * Reads a PostgreSQL query page by page (`readBatches`): one connection per run, each batch in its
 * own read-only transaction with a statement timeout, TLS as the connection string asks
 * (verify-full unless said otherwise), to the address the one way out checked.
 */

const dialect: SqlDialect = {
  quote: (name) => pg.escapeIdentifier(name),
  asText: (expr) => `CAST(${expr} AS text)`,
  // A parameter compared with a column takes the column's type: exact for every type, as text.
  value: (part: CursorPart, params) => {
    params.push(part.text);
    return `$${params.length}`;
  },
};

const NUMBER_TYPES = new Set([20, 21, 23, 26, 700, 701, 1700]);
/** Values as a data source keeps them (values.ts): exact numbers, ISO times, dates as written. */
const PARSERS: Record<number, (text: string) => unknown> = {
  20: exactNumber, // int8
  1700: exactNumber, // numeric
  1082: (text) => text, // date: a calendar day, no zone to invent
  1114: utcDateTime, // timestamp without time zone, read as UTC
  1186: (text) => text, // interval
};
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => PARSERS[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The SQLSTATEs a person should read differently from the server's bare message. */
function words(e: unknown, where: string, password: string, timeoutMs: number): UpstreamProblem {
  const err = e as { code?: string; message?: string };
  const code = err.code ?? '';
  let message = networkWords(err, where);
  if (!message) {
    if (code === '57014') message = `the query ran longer than the statement timeout (${timeoutMs / 1000} s)`;
    else if (code === '25006') message = `the query must only read: ${err.message}`;
    else if (code === '57P01' || code === '57P02' || code === '57P03') message = `the database ended the connection: ${err.message}`;
    else if (code.startsWith('42')) message = `the query has an error: ${err.message}`;
    else message = err.message ?? String(e);
  }
  return new UpstreamProblem(scrub(message, password));
}

/** Opens a connection for one run; `select` runs a read-only, time-bounded statement on it. */
async function open(config: PostgresConfig, options: ReaderOptions): Promise<SqlSession & { close(): Promise<void> }> {
  const address = addressOf(config, 'postgres');
  const where = `${address.host}:${address.port}`;
  const timeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const fail = (e: unknown) => words(e, where, address.password, timeoutMs);
  const { ip, servername, tls } = await targetOf(address, options.allowedHosts);
  options.say?.(`Connecting to ${where}`);
  const client = new pg.Client({
    host: servername, // what pg verifies TLS against; the socket goes to the checked ip
    port: address.port,
    user: address.user,
    password: address.password,
    database: address.database,
    ssl: tls === 'disable' ? false : { rejectUnauthorized: tls !== 'require', ...(tls === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}) },
    enableChannelBinding: address.channelBinding,
    stream: () => pinnedSocket(ip),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'LiveDash',
    types,
  });
  // A dropped connection is reported by the statement that needed it; an idle drop must not crash the process.
  client.on('error', () => undefined);
  const abort = () => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    await client.connect();
  } catch (e) {
    options.signal?.removeEventListener('abort', abort);
    throw fail(e);
  }
  const begin = (ms: number) => `BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.round(ms)}; SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'`;
  return {
    async select(text, params, ms = timeoutMs) {
      // The server's timeout ends the statement; this one ends a connection that stopped answering at all.
      let stalled = false;
      const watchdog = setTimeout(() => ((stalled = true), abort()), ms + CONNECT_TIMEOUT_MS);
      try {
        await client.query(begin(ms));
        const result = await client.query({ text, values: params, queryMode: 'extended' } as pg.QueryConfig);
        await client.query('COMMIT');
        for (const row of result.rows as Row[]) for (const key in row) row[key] = jsonValue(row[key]);
        return { rows: result.rows as Row[], columns: result.fields.map((f) => ({ name: f.name, number: NUMBER_TYPES.has(f.dataTypeID) })) };
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw stalled ? new UpstreamProblem(`${where} stopped answering (nothing within ${(ms + CONNECT_TIMEOUT_MS) / 1000} s)`) : fail(e);
      } finally {
        clearTimeout(watchdog);
      }
    },
    async close() {
      options.signal?.removeEventListener('abort', abort);
      await client.end().catch(() => undefined);
    },
  };
}

/** The pages of a PostgreSQL integration after `cursor`: one connection, closed when the reading ends or is abandoned. */
export async function* postgresPages(config: PostgresConfig, cursor: SqlCursor | null, options: ReaderOptions): AsyncGenerator<SqlPage> {
  const session = await open(config, options);
  try {
    yield* readBatches(session, dialect, config, cursor, options);
  } finally {
    await session.close();
  }
}
