import type { DatabaseConfig } from '@common/schemas/integrations/database';
import { UpstreamProblem } from '../provider';

/**
 * Reads a query's rows in batches, each batch its own short statement ordered by the columns that
 * tell where to resume (keyset paging), so that nothing holds a whole table, a statement timeout
 * bounds each batch, and a run that fails resumes after the last stored batch:
 *
 * - incremental column and primary key: ordered by (column, key), resumed after the pair — a batch
 *   boundary inside equal values of the column neither loses nor repeats a row;
 * - incremental column alone: ordered by the column; a batch never ends inside a run of equal
 *   values (it stops before them, or reads them all at once, up to `maxTieRows`);
 * - primary key alone: every sync reads the whole query ordered by the key; a failed read resumes
 *   after the last stored key, and once finished the next sync starts over.
 *
 * Rows whose incremental column or primary key is NULL are not read (they have no place in that
 * order). The SQL is the provider's dialect; the user's query is a subquery, so it can be any one
 * SELECT (joins, views, CTEs) and cannot be a second statement.
 */

export type Row = Record<string, unknown>;

/** A cursor value as the database wrote it (exact text), and whether its column holds numbers. */
export interface CursorPart {
  text: string;
  number: boolean;
}

/** Where the next read resumes: after these values of these columns. */
export interface SqlCursor {
  /** The columns the rows were ordered by: [column, key], [column] or [key]. */
  by: string[];
  after: CursorPart[];
  /** A full read (no incremental column) stopped part-way: the next sync finishes it. */
  partial?: true;
}

export interface SelectResult {
  rows: Row[];
  columns: { name: string; number: boolean }[];
}

/** An open connection of a provider; `select` runs one read-only statement under the statement timeout. */
export interface SqlSession {
  /** `timeoutMs`: a shorter statement timeout than the session's, for a statement that may be given up. */
  select(text: string, params: unknown[], timeoutMs?: number): Promise<SelectResult>;
}

/** What differs between PostgreSQL and MySQL in the statements this reader writes. */
export interface SqlDialect {
  quote(name: string): string;
  /** The value of an expression as exact text: `CAST(x AS text)`. */
  asText(expr: string): string;
  /** SQL standing for a cursor value compared with its own column (it may add a parameter). */
  value(part: CursorPart, params: unknown[]): string;
}

export interface SqlPage {
  records: Row[];
  /** Where to resume after this batch is stored; null: start over next time. */
  cursor: SqlCursor | null;
  label: string;
  /** How far the read is (0–1), when the rows left were counted at its start. */
  share?: number;
  /** The read's last batch. */
  last?: boolean;
}

export interface BatchOptions {
  /** Rows of the first batch (small, so a connection test answers fast). */
  firstBatch?: number;
  /** Most rows of one batch. */
  maxBatch?: number;
  /** Aim of one batch's size in bytes of JSON: wide rows come in smaller batches. */
  batchBytes?: number;
  /** Most rows sharing one value of an incremental column without a primary key. */
  maxTieRows?: number;
  /** Count the rows to read first (for the progress bar), giving up after this many ms; 0: do not count. */
  countTimeoutMs?: number;
}

const ROWS = 'livedash_rows';
const AFTER = 'livedash_after_';

const count = (n: number) => n.toLocaleString('en-US');

/** The batches of a query after `cursor` (null: from the start), as pages for the integration's run. */
export async function* readBatches(session: SqlSession, dialect: SqlDialect, config: DatabaseConfig, cursor: SqlCursor | null, options: BatchOptions = {}): AsyncGenerator<SqlPage> {
  const { firstBatch = 500, maxBatch = 5_000, batchBytes = 8 << 20, maxTieRows = 20_000, countTimeoutMs = 0 } = options;
  const by = config.incremental ? [config.incremental.column, ...(config.primaryKey ? [config.primaryKey] : [])] : [config.primaryKey as string];
  const full = !config.incremental;
  const tiesPossible = by.length === 1 && !!config.incremental;
  const cols = by.map((c) => `${ROWS}.${dialect.quote(c)}`);
  // A cursor of other columns (the config changed) or of a finished full read: start from the top.
  let after = cursor && sameColumns(cursor.by, by) && (!full || cursor.partial) ? cursor.after : null;

  const select = (where: string[], tail: string) =>
    `SELECT ${ROWS}.*, ${cols.map((c, i) => `${dialect.asText(c)} AS ${AFTER}${i}`).join(', ')}\nFROM (\n${config.query}\n) AS ${ROWS}\nWHERE ${[...cols.map((c) => `${c} IS NOT NULL`), ...where].join(' AND ')}\n${tail}`;
  const run = async (text: string, params: unknown[]) => {
    try {
      return await session.select(text, params);
    } catch (e) {
      throw explainColumn(e, config);
    }
  };

  const batchAfter = (from: CursorPart[] | null, limit: number) => {
    const params: unknown[] = [];
    const where = from ? [afterCondition(cols, from, dialect, params)] : [];
    return run(select(where, `ORDER BY ${cols.join(', ')}\nLIMIT ${limit + 1}`), params);
  };

  let limit = firstBatch;
  let read = 0;
  const total = countTimeoutMs > 0 ? await countLeft() : null;
  let pending = batchAfter(after, limit);
  for (;;) {
    const result = await pending;
    const columnNumbers = checkColumns(result, by);
    const more = result.rows.length > limit;
    let rows = more ? result.rows.slice(0, limit) : result.rows;
    const partsOf = (row: Row) => by.map((_, i) => ({ text: String(row[`${AFTER}${i}`]), number: columnNumbers[i] }));
    let tieGroup: Row[] | null = null;
    if (more && tiesPossible) {
      // The next row shares the last one's value: stop before that value, or read all of it.
      const last = String(rows[rows.length - 1][`${AFTER}0`]);
      if (String(result.rows[limit][`${AFTER}0`]) === last) {
        const before = rows.filter((r) => String(r[`${AFTER}0`]) !== last);
        if (before.length) rows = before;
        else tieGroup = await readTies(last);
      }
    }
    if (tieGroup) rows = tieGroup;
    if (!rows.length) {
      // A full read resumed where nothing is left any more: say so, so that the next one starts over.
      if (full && after) yield { records: [], cursor: null, label: '0 rows (none left after the last stored batch)' };
      return;
    }
    const next = partsOf(rows[rows.length - 1]);
    const records = rows.map(strip);
    const label = `rows ${count(read + 1)}–${count(read + records.length)}`;
    read += records.length;
    const finished = !more && !tieGroup;
    const share = total ? { share: finished ? 1 : Math.min(0.99, read / total) } : {};
    const page: SqlPage = { records, label, cursor: full && finished ? null : { by, after: next, ...(full ? { partial: true as const } : {}) }, ...share };
    if (finished) {
      yield { ...page, last: true };
      return;
    }
    after = next;
    limit = nextLimit(records, limit, maxBatch, batchBytes);
    // The next batch is read while this one is stored: at most two batches held. Its failure is
    // reported when that batch is asked for (this one is stored first); unasked, it is dropped.
    pending = batchAfter(after, limit);
    pending.catch(() => undefined);
    yield page;
  }

  /** The rows left to read, or null when counting takes longer than it is worth (a query without an index). */
  async function countLeft(): Promise<number | null> {
    const params: unknown[] = [];
    const where = [...cols.map((c) => `${c} IS NOT NULL`), ...(after ? [afterCondition(cols, after, dialect, params)] : [])];
    try {
      const { rows } = await session.select(`SELECT COUNT(*) AS n FROM (\n${config.query}\n) AS ${ROWS} WHERE ${where.join(' AND ')}`, params, countTimeoutMs);
      const n = Number(rows[0]?.n);
      return Number.isFinite(n) ? n : null;
    } catch {
      // The batches that follow meet (and report) any real problem.
      return null;
    }
  }

  async function readTies(value: string): Promise<Row[]> {
    const params: unknown[] = [];
    const result = await run(select([`${cols[0]} = ${dialect.value({ text: value, number: false }, params)}`], `LIMIT ${maxTieRows + 1}`), params);
    if (result.rows.length > maxTieRows) {
      throw new UpstreamProblem(`more than ${count(maxTieRows)} rows share the value ${value} of ${by[0]}: name a primaryKey so that they can be read in batches`);
    }
    return result.rows;
  }
}

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Rows strictly after the cursor in the order (c1, c2): c1 > v1 OR (c1 = v1 AND c2 > v2). */
function afterCondition(cols: string[], after: CursorPart[], dialect: SqlDialect, params: unknown[]): string {
  const [c1, c2] = cols;
  if (cols.length === 1) return `${c1} > ${dialect.value(after[0], params)}`;
  return `(${c1} > ${dialect.value(after[0], params)} OR (${c1} = ${dialect.value(after[0], params)} AND ${c2} > ${dialect.value(after[1], params)}))`;
}

/** Refuses a result whose columns a record could not hold; answers whether each ordering column holds numbers. */
function checkColumns(result: SelectResult, by: string[]): boolean[] {
  const seen = new Set<string>();
  for (const { name } of result.columns) {
    if (name.startsWith(AFTER)) continue;
    if (seen.has(name)) throw new UpstreamProblem(`the query returns two columns named "${name}": give them different names with AS`);
    seen.add(name);
  }
  return by.map((name) => result.columns.find((c) => c.name === name)?.number ?? false);
}

function strip(row: Row): Row {
  for (const key of Object.keys(row)) if (key.startsWith(AFTER)) delete row[key];
  return row;
}

/** The next batch's size: as many rows as fit the byte aim, judged by a sample of the last batch. */
function nextLimit(rows: Row[], limit: number, maxBatch: number, batchBytes: number): number {
  const step = Math.max(1, Math.floor(rows.length / 20));
  let bytes = 0;
  let n = 0;
  for (let i = 0; i < rows.length; i += step, n++) bytes += JSON.stringify(rows[i]).length;
  const fit = Math.floor(batchBytes / Math.max(1, bytes / n));
  return Math.max(Math.min(10, maxBatch), Math.min(maxBatch, fit, limit * 4));
}

/** A "no such column" about the reader's own wrapping names the config field instead of our alias. */
function explainColumn(e: unknown, config: DatabaseConfig): unknown {
  const message = e instanceof Error ? e.message : String(e);
  // PostgreSQL and MySQL refuse a subquery's repeated name once the order names it.
  const twice = /column reference "(.+)" is ambiguous|Duplicate column name '(.+)'/.exec(message);
  if (twice) return new UpstreamProblem(`the query returns two columns named "${twice[1] ?? twice[2]}": give them different names with AS`);
  // PostgreSQL: column livedash_rows.x does not exist; MySQL: Unknown column 'livedash_rows.x'.
  if (!new RegExp(`column '?${ROWS}\\.`).test(message)) return e;
  const named = [
    ...(config.incremental ? [{ column: config.incremental.column, field: 'incremental.column' }] : []),
    ...(config.primaryKey ? [{ column: config.primaryKey, field: 'primaryKey' }] : []),
  ];
  const missing = named.find((n) => message.includes(`${ROWS}.${n.column}`) || message.includes(`"${n.column}"`) || message.includes(`'${n.column}'`)) ?? named[0];
  return new UpstreamProblem(`the query's result has no column "${missing.column}" (the integration's ${missing.field})`);
}
