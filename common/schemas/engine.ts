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
  /** Where the data is kept between restarts (absent on MONGODB_URI: the server's own business). */
  dataKept: DataKeptDto;
}

/** How the embedded database keeps its data: mongod's files or the offline engine's snapshot in DATA_DIR, or nothing (`:memory:`). */
export interface DataKeptDto {
  kept: 'external' | 'mongod-files' | 'snapshot' | 'memory';
  /** DATA_DIR as configured, or null (`:memory:`, MONGODB_URI). */
  dataDir: string | null;
  /** Offline engine: the snapshot's file, its promise (a change is on disk within `withinSeconds`), when the last was written and the first change not on disk yet. */
  snapshot: { file: string; withinSeconds: number; lastSavedAt: string | null; unsavedSince: string | null; lastError: string | null } | null;
}
