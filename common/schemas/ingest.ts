import { z } from 'zod';

/** Query parameters of POST /api/data/ingest (a body may also carry primaryKey). */
export const IngestQuery = z.object({
  primaryKey: z.string().min(1).max(500).optional(),
});

/** One record the ingest refused, by its position in the payload. */
export interface IngestRejection {
  index: number;
  sourceId: string | null;
  reason: string;
}

export interface IngestSourceResult {
  sourceId: string;
  primaryKey: string;
  inserted: number;
  updated: number;
  rejected: number;
  revision: number;
}

/** Answer of POST /api/data/ingest. */
export interface IngestResult {
  success: boolean;
  format: 'standard' | 'zendesk' | 'generic' | 'array';
  received: number;
  inserted: number;
  updated: number;
  rejected: number;
  rejections: IngestRejection[];
  sources: IngestSourceResult[];
}
