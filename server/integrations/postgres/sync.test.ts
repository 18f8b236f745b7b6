import { startPostgres } from '../sql/test/sqlServers';
import { syncCases } from '../sql/test/syncCases';

/** A PostgreSQL integration end to end: the real server and Debian's PostgreSQL 15, each started once for this file. */
syncCases({
  type: 'postgres',
  start: () => startPostgres(),
  setup: [
    'CREATE TABLE items (id integer PRIMARY KEY, updated_at timestamp NOT NULL, name text)',
    'CREATE TABLE control (pause float NOT NULL)',
    'INSERT INTO control VALUES (0)',
    // The pause is slept once per statement (an uncorrelated subquery), so a test can make batches slow.
    'CREATE VIEW items_feed AS SELECT i.* FROM items i WHERE (SELECT count(*) FROM control c, pg_sleep(c.pause)) >= 0',
  ],
});
