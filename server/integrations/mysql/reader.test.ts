import { expect, it } from 'vitest';
import { startMariadb } from '../sql/test/sqlServers';
import { readerCases } from '../sql/test/readerCases';
import { mysqlPages } from './reader';

/** The MySQL reader against Debian's MariaDB 10.11, started once for this file (with TLS, self-signed). */
const { db, config, read } = readerCases({
  engine: 'mysql',
  start: () => startMariadb({ tls: true }),
  pages: mysqlPages,
  createItems: 'CREATE TABLE items (id INT PRIMARY KEY, updated_at DATETIME(6) NOT NULL, name VARCHAR(100))',
  slow: (seconds) => `SLEEP(${seconds})`,
  encryptedQuery: `SELECT IF(VARIABLE_VALUE <> '', 1, 0) AS encrypted, 1 AS id FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'Ssl_cipher'`,
  createWriter: [`CREATE FUNCTION livedash_write() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO items (id, updated_at, name) VALUES (999, NOW(), 'written'); RETURN 999; END`],
});

it('hands over values as a data source keeps them: exact numbers, ISO times in UTC, dates as written, JSON, base64 bytes', async () => {
  await db().sql(`CREATE TABLE kinds (id INT PRIMARY KEY, small SMALLINT, big BIGINT, huge BIGINT UNSIGNED, price DECIMAL(12,2), long_num DECIMAL(30,2), ratio DOUBLE,
    at TIMESTAMP(3) NULL, local_at DATETIME(6), day DATE, doc JSON, bytes VARBINARY(10), flag BOOLEAN, bits BIT(3), nothing TEXT)`);
  await db().sql(`INSERT INTO kinds VALUES (1, 7, 42, 18446744073709551615, 10.50, 12345678901234567.89, 0.1, '2024-03-01 10:00:00.250', '2024-03-01 12:00:00.5',
    '2024-03-01', '{"a": [1, 2], "b.c": null}', X'0102', TRUE, b'101', NULL)`);
  const { pages } = await read(config({ query: 'SELECT * FROM kinds', incremental: undefined }));
  expect(pages[0].records).toEqual([
    {
      id: 1, small: 7, big: 42, huge: '18446744073709551615', price: 10.5, long_num: '12345678901234567.89', ratio: 0.1,
      at: '2024-03-01T10:00:00.250Z', local_at: '2024-03-01T12:00:00.500Z', day: '2024-03-01', doc: { a: [1, 2], 'b.c': null },
      bytes: 'AQI=', flag: 1, bits: 5, nothing: null,
    },
  ]);
});

it('resumes after a key beyond 2^53 exactly (a number compared as a number, not a double)', async () => {
  await db().sql('CREATE TABLE events (id BIGINT UNSIGNED PRIMARY KEY, what VARCHAR(20))');
  await db().sql(`INSERT INTO events VALUES (9007199254740992, 'a'), (9007199254740993, 'b'), (9007199254740994, 'c')`);
  const c = config({ query: 'SELECT * FROM events', incremental: undefined });
  const { pages } = await read(c, null, { firstBatch: 1, maxBatch: 1 });
  expect(pages.map((p) => p.records.map((r) => r.what))).toEqual([['a'], ['b'], ['c']]);
  expect(pages[0].cursor?.after).toEqual([{ text: '9007199254740992', number: true }]);
});
