import { z } from 'zod';
import { FieldType } from './dataSource';

/**
 * Import Data: a file uploaded once (`POST /api/admin/imports`), read as a stream with the settings
 * detected (and corrected by the person), its columns typed, skipped or renamed, then a dry run and
 * the import into a new or an existing data source.
 */

export const IMPORT_FORMATS = ['csv', 'json', 'ndjson'] as const;
export const IMPORT_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export const IMPORT_DELIMITERS = [',', '\t', ';', '|'] as const;

/** How the file is read: detected on upload, shown, and changeable. */
export const ImportSettings = z
  .object({
    format: z.enum(IMPORT_FORMATS, { error: 'format must be "csv", "json" (an array) or "ndjson"' }),
    encoding: z.enum(IMPORT_ENCODINGS, { error: 'encoding must be utf-8, utf-16le, utf-16be or windows-1252' }),
    /** CSV only: the character between cells. */
    delimiter: z.string().length(1, 'delimiter must be one character'),
    /** CSV only: the character that quotes a cell. */
    quote: z.string().length(1, 'quote must be one character'),
    /** CSV only: whether the first row names the columns (else "column 1", "column 2", …). */
    header: z.boolean({ error: 'header must be true or false' }),
  })
  .strict();
export type ImportSettings = z.infer<typeof ImportSettings>;

export const PreviewImportRequest = z.object({ settings: ImportSettings }).strict();

/** One column of the file as it lands: under which field name, with which type, or skipped. */
export const ImportColumn = z
  .object({
    name: z.string().min(1, 'name is the file\'s column name'),
    field: z.string().trim().min(1, 'field cannot be empty').max(200, 'field must be at most 200 characters'),
    type: FieldType,
    skip: z.boolean().default(false),
  })
  .strict();
export type ImportColumn = z.input<typeof ImportColumn>;

export const ImportTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('new'), name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters') }).strict(),
  z.object({ kind: z.literal('existing'), dataSourceId: z.string().min(1, 'dataSourceId is required') }).strict(),
]);
export type ImportTarget = z.infer<typeof ImportTarget>;

/** append: new records only; upsert: insert or update by key; replace: the source's whole set becomes the file's. */
export const ImportMode = z.enum(['append', 'upsert', 'replace'], { error: 'mode must be "append", "upsert" or "replace"' });
export type ImportMode = z.infer<typeof ImportMode>;

/** What to import, where: the same for the dry run and the import. */
export const ImportPlan = z
  .object({
    settings: ImportSettings,
    columns: z.array(ImportColumn).min(1, 'columns cannot be empty').max(500, 'at most 500 columns'),
    target: ImportTarget,
    /** A field (after renaming) that identifies a record, or null: append-only. */
    key: z.string().min(1).nullable(),
    mode: ImportMode.default('append'),
  })
  .strict();
export type ImportPlan = z.input<typeof ImportPlan>;

export const UploadImportQuery = z.object({
  fileName: z.string().trim().min(1, 'fileName cannot be empty').max(300, 'fileName must be at most 300 characters').default('upload'),
});

/** The answer of an upload and of a preview: the settings read, the columns with their inferred types, the first rows. */
export interface ImportPreviewDto {
  id: string;
  fileName: string;
  size: number;
  settings: ImportSettings;
  columns: { name: string; type: FieldType }[];
  /** The first 100 rows, each cell as read (null: empty). */
  rows: (string | number | boolean | null)[][];
  /** Rows the preview read that could not be read (row number, reason). */
  problems: ImportRejection[];
}

/** A row that will not land: its number in the file (1-based, header excluded) and why. */
export interface ImportRejection {
  row: number;
  reason: string;
}

/** A key value on more than one row: the first 100 row numbers, and how many rows hold it. */
export interface ImportDuplicate {
  key: string;
  rows: number[];
  count: number;
}

export interface ImportCounts {
  /** Rows read from the file. */
  read: number;
  inserted: number;
  updated: number;
  rejected: number;
  /** Replace: records of the source the file does not hold (they go). */
  removed: number;
}

export interface DryRunDto extends ImportCounts {
  /** The first rejections (all of them in the CSV download). */
  rejections: ImportRejection[];
  /** Key values found on more than one row: nothing is written while there are any. */
  duplicates: ImportDuplicate[];
  /** Existing source: fields of the file it does not have yet, and fields it has that the file does not. */
  mismatches: { newFields: string[]; missingFields: string[] };
}

export type ImportState = 'uploaded' | 'running' | 'done' | 'cancelled' | 'failed';

/** An import's state, as `GET /api/admin/imports/:id` answers it and `import:progress` pushes it. */
export interface ImportProgressDto {
  id: string;
  fileName: string;
  state: ImportState;
  read: number;
  written: number;
  rejected: number;
  /** The data source written to, once known. */
  dataSourceId: string | null;
  /** What happened, in words (done, cancelled or failed: what the source holds now). */
  message: string | null;
}
