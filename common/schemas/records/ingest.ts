import { z } from 'zod';
import { FieldPath, UpdateMode } from '../dataSource';

/** Query parameters of POST /api/data/ingest (a wrapper body may also carry primaryKey and mode). */
export const IngestQuery = z.object({
  primaryKey: z.string().min(1).max(500).optional(),
  mode: UpdateMode.optional(),
});

/**
 * Query parameters of POST /api/data/sources/:sourceId/records. `key` is the ingest key for
 * senders that can only be given a URL (read by the guard, never logged or answered).
 */
export const SourceRecordsQuery = z
  .object({
    primaryKey: FieldPath.optional(),
    mode: UpdateMode.optional(),
    key: z.string().optional(),
  })
  .strict();

/** The content types a source's URL reads (anything else answers 415 naming them). */
export const RECORD_CONTENT_TYPES = ['application/json', 'application/x-ndjson', 'application/jsonl', 'application/ndjson', 'text/csv'] as const;

/** One record the ingest refused, by its position in the payload. */
export interface IngestRejection {
  index: number;
  sourceId: string | null;
  reason: string;
}

/**
 * Something that landed but not as sent: a record of the batch replaced by a later one with its key.
 * Index -1 is about the request itself: query parameters a source's URL ignored, or records the
 * source's retention removed right after the write (its limit, how many, how many of this request's).
 */
export interface IngestWarning {
  index: number;
  key?: string;
  message: string;
}

export interface IngestSourceResult {
  sourceId: string;
  primaryKey: string;
  inserted: number;
  updated: number;
  rejected: number;
  revision: number;
}

/** Answer of POST /api/data/ingest and of a source's URL (whose formats are object, array, ndjson, csv). */
export interface IngestResult {
  success: boolean;
  format: 'standard' | 'zendesk' | 'generic' | 'array' | 'object' | 'ndjson' | 'csv';
  received: number;
  inserted: number;
  updated: number;
  rejected: number;
  rejections: IngestRejection[];
  warnings: IngestWarning[];
  sources: IngestSourceResult[];
}
