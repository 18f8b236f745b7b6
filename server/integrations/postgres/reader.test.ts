import { expect, it } from 'vitest';
import { startPostgres } from '../sql/test/sqlServers';
import { READER_PASSWORD, readerCases } from '../sql/test/readerCases';
import { postgresPages } from './reader';

/** The PostgreSQL reader against Debian's PostgreSQL 15, started once for this file (with TLS, self-signed). */
const { db, config, read } = readerCases({
  engine: 'postgres',
  start: () => startPostgres({ tls: true }),
  pages: postgresPages,
  createItems: 'CREATE TABLE items (id integer PRIMARY KEY, updated_at timestamp(6) NOT NULL, name text)',
  slow: (seconds) => `(SELECT 1 FROM pg_sleep(${seconds}))`,
  encryptedQuery: 'SELECT CASE WHEN ssl THEN 1 ELSE 0 END AS encrypted, 1 AS id FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
  createWriter: [`CREATE FUNCTION livedash_write() RETURNS int LANGUAGE sql AS $$ INSERT INTO items (id, updated_at, name) VALUES (999, now(), 'written') RETURNING id $$`],
});

it('hands over values as a data source keeps them: exact numbers, ISO times in UTC, dates as written, JSON, base64 bytes', async () => {
  await db().sql(`CREATE TABLE kinds (id int PRIMARY KEY, small int, big bigint, huge bigint, price numeric(12,2), long_num numeric, ratio double precision,
    at timestamptz, local_at timestamp(6), day date, doc jsonb, bytes bytea, flag boolean, tags text[], nothing text)`);
  await db().sql(`INSERT INTO kinds VALUES (1, 7, 42, 9007199254740993, 10.50, 12345678901234567.89, 0.1, '2024-03-01 12:00:00+02', '2024-03-01 12:00:00.5',
    '2024-03-01', '{"a": [1, 2], "b.c": null}', '\\x0102', true, '{a,b}', NULL)`);
  await db().sql('GRANT SELECT ON kinds TO reader');
  const { pages } = await read(config({ query: 'SELECT * FROM kinds', incremental: undefined }));
  expect(pages[0].records).toEqual([
    {
      id: 1, small: 7, big: 42, huge: '9007199254740993', price: 10.5, long_num: '12345678901234567.89', ratio: 0.1,
      at: '2024-03-01T10:00:00.000Z', local_at: '2024-03-01T12:00:00.500Z', day: '2024-03-01', doc: { a: [1, 2], 'b.c': null },
      bytes: 'AQI=', flag: true, tags: ['a', 'b'], nothing: null,
    },
  ]);
  expect(READER_PASSWORD).toBeTruthy();
});
