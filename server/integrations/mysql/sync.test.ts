import { startMariadb } from '../sql/test/sqlServers';
import { syncCases } from '../sql/test/syncCases';

/** A MySQL (MariaDB) integration end to end: the real server and Debian's MariaDB 10.11, each started once for this file. */
syncCases({
  type: 'mysql',
  start: () => startMariadb(),
  setup: [
    'CREATE TABLE items (id INT PRIMARY KEY, updated_at DATETIME NOT NULL, name VARCHAR(100))',
    'CREATE TABLE control (pause DOUBLE NOT NULL)',
    'INSERT INTO control VALUES (0)',
    // The pause is slept once per statement (an uncorrelated subquery), so a test can make batches slow.
    'CREATE VIEW items_feed AS SELECT i.* FROM items i WHERE (SELECT SLEEP(c.pause) FROM control c) = 0',
  ],
});
