/** The door of records: what other parts of the server may use (they import nothing else from this folder). */
export { ingestRecords, upsertRecordsIntoSource } from './ingest/ingestRecords';
export { ingestRouter } from './ingest/ingestRoutes';
export { replaceAllRecords } from './manage/manageRecords';
export { manageRecordsRouter } from './manage/manageRoutes';
export { checkRecords, isObject } from './manage/recordRules';
export type { Keying } from './manage/recordRules';
export { sourceRecordsRouter } from './manage/sourceRecordsRoutes';
export { removeRecords } from './writer/removeRecords';
export { appendOnlyDefaultMaxRecords, applySourceSettings, startRetentionSweep } from './writer/retention';
export { withSourceLock } from './writer/sourceLock';
export { writeToSource, writesSettled } from './writer/sourceWriter';
