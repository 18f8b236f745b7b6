import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '@common/schemas/integrations/database';
import type { SqlServer } from './sqlServers';
import type { BatchOptions, Row, SqlCursor, SqlPage } from '../batches';

/**
 * What both database readers must do, against a real server each (PostgreSQL, MariaDB): the
 * provider's test file starts its server once and runs these with its own SQL types.
 */
export interface ReaderUnderTest {
  engine: 'postgres' | 'mysql';
  start(): Promise<SqlServer>;
  pages(config: DatabaseConfig, cursor: SqlCursor | null, options: BatchOptions & { allowedHosts: readonly string[]; signal?: AbortSignal; statementTimeoutMs?: number }): AsyncGenerator<SqlPage>;
  /** `CREATE TABLE items (id <int> PRIMARY KEY, updated_at <date-time with microseconds> NOT NULL, name <text>)` in its SQL. */
  createItems: string;
  /** An expression that takes `seconds` to compute (to pass the statement timeout). */
  slow(seconds: number): string;
  /** Whether the session that read is encrypted, asked on that session's own connection. */
  encryptedQuery: string;
  /** A write a reader may not do, as a SELECT: a function that inserts, made by `createWriter`. */
  createWriter: string[];
}

export const READER_PASSWORD = 'S3cret-Reader-Pw!';
const small = { firstBatch: 3, maxBatch: 4 };

export function readerCases(r: ReaderUnderTest) {
  let db: SqlServer;
  let allowedHosts: string[];
  const url = (user = 'reader', pw = READER_PASSWORD, params = '') => `${db.url(user, pw)}${params}`;
  const config = (over: Partial<DatabaseConfig> = {}): DatabaseConfig => ({
    connectionString: url(),
    query: 'SELECT id, updated_at, name FROM items',
    primaryKey: 'id',
    incremental: { column: 'updated_at' },
    ...over,
  });
  const read = async (c: DatabaseConfig, cursor: SqlCursor | null = null, options: BatchOptions = small) => {
    const pages: SqlPage[] = [];
    for await (const page of r.pages(c, cursor, { allowedHosts, ...options })) pages.push(page);
    return { pages, ids: pages.flatMap((p) => p.records.map((x) => x.id as number)), cursor: pages.at(-1)?.cursor ?? cursor };
  };
  const failure = async (c: DatabaseConfig, options: Parameters<ReaderUnderTest['pages']>[2] = { allowedHosts }) => {
    try {
      for await (const _ of r.pages(c, null, options));
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('the read did not fail');
  };
  const insert = (rows: [number, string, string][]) => db.sql(`INSERT INTO items (id, updated_at, name) VALUES ${rows.map(([id, at, name]) => `(${id}, '${at}', '${name}')`).join(', ')}`);

  beforeAll(async () => {
    db = await r.start();
    allowedHosts = [db.hostPort];
    await db.sql(r.createItems);
    for (const statement of r.createWriter) await db.sql(statement);
    await db.addReader('reader', READER_PASSWORD);
  });
  afterAll(() => db?.stop());

  describe('incremental column and primary key', () => {
    it('reads every row once in batches ordered by (column, key), then only newer rows; equal values across a batch boundary are neither lost nor read twice', async () => {
      // Ten rows share one time, so batches of 3–4 end inside that run of equal values.
      await insert([
        [1, '2024-01-01 00:00:00', 'a'],
        ...Array.from({ length: 10 }, (_, i) => [20 - i, '2024-01-02 00:00:00.000001', `tie ${i}`] as [number, string, string]),
        [2, '2024-01-03 00:00:00', 'c'],
      ]);
      const first = await read(config());
      expect(first.ids).toEqual([1, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 2]);
      expect(first.pages.map((p) => p.records.length)).toEqual([3, 4, 4, 1]);
      expect(first.pages[0].label).toBe('rows 1–3');
      expect(first.pages[0].records[0]).toEqual({ id: 1, updated_at: '2024-01-01T00:00:00.000Z', name: 'a' });
      expect(first.cursor).toMatchObject({ by: ['updated_at', 'id'], after: [{ number: false }, { text: '2', number: true }] });

      // Later: a row at the same time as the cursor with a higher key, rows at a new time, and a
      // change of an old row that did not move its time (not read: the column did not grow).
      await insert([[3, '2024-01-03 00:00:00', 'same time, later key'], [4, '2024-01-04 00:00:00', 'd'], [5, '2024-01-04 00:00:00', 'e']]);
      await db.sql(`UPDATE items SET name = 'changed' WHERE id = 1`);
      const next = await read(config(), first.cursor);
      expect(next.ids).toEqual([3, 4, 5]);
      expect(await read(config(), next.cursor)).toMatchObject({ ids: [], pages: [] });
    });

    it('resumes after a connection killed mid-run without losing or repeating a row', async () => {
      const pages = r.pages(config(), null, { allowedHosts, ...small });
      const stored: Row[] = [];
      let cursor: SqlCursor | null = null;
      let error = '';
      try {
        for await (const page of pages) {
          stored.push(...page.records);
          cursor = page.cursor;
          // After the second batch the database ends the reader's connection (an administrator, a failover).
          if (stored.length === 7) expect(await db.disconnect('reader')).toBeGreaterThan(0);
        }
      } catch (e) {
        error = (e as Error).message;
      }
      expect(error).toMatch(/connection/);
      expect(error).not.toContain(READER_PASSWORD);
      // The third batch is read while the second is stored: it may have arrived before the kill.
      expect([7, 11]).toContain(stored.length);
      const rest = await read(config(), cursor);
      expect([...stored.map((x) => x.id), ...rest.ids]).toEqual([1, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 2, 3, 4, 5]);
    });

    it('fails a batch that passes the statement timeout, in words', async () => {
      const message = await failure(config({ query: `SELECT id, updated_at, ${r.slow(3)} AS slow FROM items` }), { allowedHosts, statementTimeoutMs: 300 });
      expect(message).toBe('the query ran longer than the statement timeout (0.3 s)');
    });
  });

  describe('incremental column without a primary key', () => {
    it('never ends a batch inside equal values: it stops before them, or reads them all', async () => {
      const c = config({ primaryKey: undefined });
      const all = await read(c);
      expect([...all.ids].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      // Row 1, then the ten equal times at once (more than a batch), then the rest.
      expect(all.pages.map((p) => p.records.length)).toEqual([1, 10, 4]);
      expect(all.cursor).toMatchObject({ by: ['updated_at'] });
      const tooMany = await failure(c, { allowedHosts, ...small, maxTieRows: 5 } as never);
      expect(tooMany).toMatch(/^more than 5 rows share the value 2024-01-02 00:00:00\.000001 of updated_at: name a primaryKey/);
    });
  });

  describe('primary key alone', () => {
    it('reads the whole query on every sync; a failed read resumes after the last key, and a finished one starts over', async () => {
      const c = config({ incremental: undefined });
      const all = await read(c);
      expect(all.ids).toEqual([1, 2, 3, 4, 5, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      expect(all.pages.slice(0, -1).every((p) => p.cursor?.partial)).toBe(true);
      expect(all.pages.at(-1)!.cursor).toBeNull();
      expect((await read(c, all.cursor)).ids).toHaveLength(15);
      const resumed = await read(c, all.pages[1].cursor);
      expect(resumed.ids).toEqual([13, 14, 15, 16, 17, 18, 19, 20]);
      // Resumed where no row is left any more: an empty page says to start over.
      const beyond = await read(c, { by: ['id'], after: [{ text: '999', number: true }], partial: true });
      expect(beyond.pages).toEqual([{ records: [], cursor: null, label: '0 rows (none left after the last stored batch)' }]);
    });
  });

  describe('bad input and refusals, in words a person can act on', () => {
    it('says which config field names a column the query does not return, and refuses two columns of one name', async () => {
      expect(await failure(config({ incremental: { column: 'changed_at' } }))).toBe(`the query's result has no column "changed_at" (the integration's incremental.column)`);
      expect(await failure(config({ query: 'SELECT id, updated_at, name AS id FROM items', incremental: undefined }))).toBe('the query returns two columns named "id": give them different names with AS');
      expect(await failure(config({ query: 'SELECT id, updated_at FROM items WHERE' }))).toMatch(/^the query has an error: /);
    });

    it('names the user a wrong password was refused for, and never repeats the password', async () => {
      const message = await failure(config({ connectionString: url('reader', 'not-the-Pw-42') }));
      expect(message).toMatch(r.engine === 'postgres' ? /^password authentication failed for user "reader"$/ : /^Access denied for user 'reader'@'[^']+' \(using password: YES\)$/);
      expect(message).not.toContain('not-the-Pw-42');
    });

    it('reads in a read-only transaction: a query that would write is refused', async () => {
      const admin = config({ connectionString: db.url(r.engine === 'postgres' ? 'postgres' : 'livedash_admin', adminPassword(db)), query: 'SELECT livedash_write() AS id, 1 AS updated_at', incremental: undefined });
      expect(await failure(admin)).toMatch(/^the query must only read: /);
      expect(await db.sql('SELECT id FROM items WHERE id = 999')).toEqual([]);
    });

    it('refuses a loopback host unless listed, and plain text to a host that is not listed', async () => {
      expect(await failure(config(), { allowedHosts: [] })).toMatch(/^127\.0\.0\.1:\d+ is a loopback, private, link-local or otherwise non-public address \(loopback\), refused unless allowed: allow 127\.0\.0\.1:\d+ under Settings › Outbound hosts$/);
      expect(await failure(config({ connectionString: url('reader', READER_PASSWORD, '?sslmode=disable') }), { allowedHosts: [] })).toMatch(/without TLS \(sslmode=disable\), which only an allowed host:port may: allow 127\.0\.0\.1:\d+ under Settings › Outbound hosts$/);
    });

    it('speaks TLS when asked: require encrypts, verify-full refuses a certificate it cannot verify', async () => {
      const encrypted = await read(config({ connectionString: url('reader', READER_PASSWORD, '?sslmode=require'), query: r.encryptedQuery, incremental: undefined }));
      expect(encrypted.pages[0].records[0]).toMatchObject({ encrypted: 1 });
      const plain = await read(config({ query: r.encryptedQuery, incremental: undefined }));
      expect(plain.pages[0].records[0]).toMatchObject({ encrypted: 0 });
      expect(await failure(config({ connectionString: url('reader', READER_PASSWORD, '?sslmode=verify-full') }))).toMatch(/^the TLS certificate of 127\.0\.0\.1:\d+ could not be verified \(.*\); sslmode=require encrypts without verifying it$/);
    });

    it('stops reading when the run is cancelled', async () => {
      const controller = new AbortController();
      const stored: Row[] = [];
      const error = await (async () => {
        try {
          for await (const page of r.pages(config(), null, { allowedHosts, ...small, signal: controller.signal })) {
            stored.push(...page.records);
            controller.abort();
          }
        } catch (e) {
          return (e as Error).message;
        }
        return 'finished';
      })();
      expect(stored).toHaveLength(3);
      expect(error).toMatch(/connection/);
    });
  });

  return { db: () => db, config, read, failure };
}

/** The superuser's password of a test server, read from its connection string. */
function adminPassword(db: SqlServer): string {
  return decodeURIComponent(new URL(db.adminUrl).password);
}
