/** GET /api/admin/engine: which database engine runs and whether writes near its slow zone. */
export interface EngineStatusDto {
  /** `mongod` (embedded or MONGODB_URI) or `jongodb` (the offline fallback engine). */
  engine: 'mongod' | 'jongodb';
  /** The database mode of GET /api/health (embedded-mongod, embedded-jongodb, external). */
  mode: string;
  /** Records in the records collection (all sources share it). */
  recordsCount: number;
  /** Offline engine only: the records collection size past which one write nears a second (measured: server/README.md, "The offline engine"); null on mongod. */
  slowWriteRecords: number | null;
  /** The records collection is past slowWriteRecords: the console shows a banner. */
  nearSlowWrites: boolean;
  /** What an append-only source keeps when it sets no maxRecords. */
  appendOnlyDefaultMaxRecords: number;
  /** The way out of the offline engine, for the banner; null on mongod. */
  advice: string | null;
}
