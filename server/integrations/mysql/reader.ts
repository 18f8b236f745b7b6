import net from 'node:net';
import mysql from 'mysql2/promise';
import type { MysqlConfig } from '@common/schemas/integrations/mysql';
import { type CursorPart, type Row, type SqlCursor, type SqlDialect, type SqlPage, type SqlSession, readBatches } from '../sql/batches';
import { UpstreamProblem } from '../provider';
import type { ReaderOptions } from '../sql/provider';
import { CONNECT_TIMEOUT_MS, STATEMENT_TIMEOUT_MS, addressOf, networkWords, scrub, targetOf } from '../sql/connect';
import { exactNumber, jsonValue, utcDateTime } from '../sql/values';

/**
 * Reads a MySQL or MariaDB query page by page (`readBatches`): one connection per run, each batch
 * in its own read-only transaction under the server's statement timeout (MariaDB's
 * max_statement_time, MySQL's max_execution_time), TLS as the connection string asks (verify-full
 * unless said otherwise), to the address the one way out checked.
 */

const NUMERIC = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const dialect: SqlDialect = {
  quote: (name) => `\`${name.replace(/`/g, '``')}\``,
  asText: (expr) => `CAST(${expr} AS CHAR)`,
  // MySQL compares a number column with text as doubles (inexact past 2^53): a number is written as
  // a literal (checked to be one); anything else is a parameter, which a date-time column converts.
  value: (part: CursorPart, params) => {
    if (part.number && NUMERIC.test(part.text)) return part.text;
    params.push(part.text);
    return '?';
  },
};

/** mysql2's column type codes that hold numbers (DECIMAL, TINY…LONGLONG, INT24, YEAR, NEWDECIMAL, FLOAT, DOUBLE). */
const NUMBER_TYPES = new Set([0, 1, 2, 3, 4, 5, 8, 9, 13, 246]);

/** Values as a data source keeps them (values.ts): exact numbers, ISO times, dates as written, JSON parsed. */
const typeCast: mysql.TypeCast = (field, next) => {
  switch (field.type) {
    case 'NEWDECIMAL':
    case 'DECIMAL': {
      const text = field.string();
      return text === null ? null : exactNumber(text);
    }
    case 'DATETIME':
    case 'DATETIME2':
    case 'TIMESTAMP':
    case 'TIMESTAMP2': {
      const text = field.string();
      return text === null ? null : utcDateTime(text);
    }
    case 'DATE':
    case 'NEWDATE':
      return field.string();
    case 'BIT': {
      const bytes = field.buffer();
      return bytes === null ? null : bytes.length <= 6 ? bytes.readUIntBE(0, Math.max(1, bytes.length)) : bytes.toString('base64');
    }
    default:
      if (field.extendedFormat === 'json') {
        const text = field.string();
        try {
          return text === null ? null : JSON.parse(text);
        } catch {
          return text;
        }
      }
      return next();
  }
};

/** MySQL's error codes that a person should read differently from the server's bare message. */
function words(e: unknown, where: string, password: string, timeoutMs: number): UpstreamProblem {
  const err = e as { code?: string; errno?: number; message?: string; sqlMessage?: string };
  const text = err.sqlMessage ?? err.message ?? String(e);
  let message = networkWords(err, where);
  if (!message) {
    if (err.errno === 1969 || err.errno === 3024) message = `the query ran longer than the statement timeout (${timeoutMs / 1000} s)`;
    else if (err.errno === 1792) message = `the query must only read: ${text}`;
    else if (err.errno === 1927 || err.code === 'PROTOCOL_CONNECTION_LOST') message = `the connection to ${where} was lost (${text})`;
    else if (err.code === 'ER_PARSE_ERROR' || err.code === 'ER_BAD_FIELD_ERROR' || err.code === 'ER_NO_SUCH_TABLE') message = `the query has an error: ${text}`;
    else message = text;
  }
  return new UpstreamProblem(scrub(message, password));
}

/** Opens a connection for one run; `select` runs a read-only, time-bounded statement on it. */
async function open(config: MysqlConfig, options: ReaderOptions): Promise<SqlSession & { close(): Promise<void> }> {
  const address = addressOf(config, 'mysql');
  const where = `${address.host}:${address.port}`;
  const timeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const fail = (e: unknown) => words(e, where, address.password, timeoutMs);
  const { ip, servername, tls } = await targetOf(address, options.allowedHosts);
  options.say?.(`Connecting to ${where}`);
  let conn: mysql.Connection;
  try {
    conn = await mysql.createConnection({
      host: servername, // what mysql2 verifies TLS against; the socket goes to the checked ip
      port: address.port,
      user: address.user,
      password: address.password,
      database: address.database,
      ssl: tls === 'disable' ? undefined : { rejectUnauthorized: tls !== 'require', verifyIdentity: tls === 'verify-full' },
      stream: () => net.connect(address.port, ip).setNoDelay(true),
      connectTimeout: CONNECT_TIMEOUT_MS,
      charset: 'utf8mb4',
      timezone: 'Z',
      supportBigNumbers: true,
      typeCast,
    });
  } catch (e) {
    throw fail(e);
  }
  // A dropped connection is reported by the statement that needed it; an idle drop must not crash the process.
  conn.on('error', () => undefined);
  const abort = () => conn.destroy();
  options.signal?.addEventListener('abort', abort, { once: true });
  let limit: (ms: number) => string;
  try {
    const [[{ v }]] = (await conn.query('SELECT VERSION() AS v')) as unknown as [[{ v: string }]];
    limit = /mariadb/i.test(v) ? (ms) => `SET SESSION max_statement_time = ${ms / 1000}` : (ms) => `SET SESSION max_execution_time = ${Math.round(ms)}`;
    await conn.query(`SET SESSION time_zone = '+00:00'`);
    await conn.query(limit(timeoutMs));
  } catch (e) {
    conn.destroy();
    throw fail(e);
  }
  return {
    async select(text, params, ms = timeoutMs) {
      // The server's timeout ends the statement; this one ends a connection that stopped answering at all.
      let stalled = false;
      const watchdog = setTimeout(() => ((stalled = true), abort()), ms + CONNECT_TIMEOUT_MS);
      try {
        if (ms !== timeoutMs) await conn.query(limit(ms));
        await conn.query('START TRANSACTION READ ONLY');
        const [rows, fields] = (await conn.query(text, params)) as unknown as [Row[], mysql.FieldPacket[]];
        await conn.query('COMMIT');
        for (const row of rows) for (const key in row) row[key] = jsonValue(row[key]);
        return { rows, columns: fields.map((f) => ({ name: f.name, number: NUMBER_TYPES.has(f.columnType ?? -1) })) };
      } catch (e) {
        await conn.query('ROLLBACK').catch(() => undefined);
        throw stalled ? new UpstreamProblem(`${where} stopped answering (nothing within ${(ms + CONNECT_TIMEOUT_MS) / 1000} s)`) : fail(e);
      } finally {
        clearTimeout(watchdog);
        if (ms !== timeoutMs) await conn.query(limit(timeoutMs)).catch(() => undefined);
      }
    },
    async close() {
      options.signal?.removeEventListener('abort', abort);
      await conn.end().catch(() => conn.destroy());
    },
  };
}

/** The pages of a MySQL/MariaDB integration after `cursor`: one connection, closed when the reading ends or is abandoned. */
export async function* mysqlPages(config: MysqlConfig, cursor: SqlCursor | null, options: ReaderOptions): AsyncGenerator<SqlPage> {
  const session = await open(config, options);
  try {
    yield* readBatches(session, dialect, config, cursor, options);
  } finally {
    await session.close();
  }
}
