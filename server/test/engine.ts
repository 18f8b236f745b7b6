/**
 * The database engine of test servers: the offline engine, named outright, so no test server first
 * looks for (and, offline, fails to download) a mongod — about 0.8 s a test process. Tests of the
 * engine choice itself pass `DB_ENGINE` themselves; `TEST_DB_ENGINE=auto` runs the suite on mongod
 * where one can be had. Test servers keep nothing (`DATA_DIR=:memory:`): a test that is about kept
 * data passes its own folder.
 */
export const TEST_ENGINE = { DB_ENGINE: process.env.TEST_DB_ENGINE ?? 'jongodb', DATA_DIR: ':memory:' };
