/** Business constants of the product spec, section 9, shared by server and web. */
export const PREVIEW_RECORDS = 10;
export const STRING_CELL_CUT = 100;
export const OBJECT_CELL_CUT = 50;

export const AUTO_SYNC_MIN_SECONDS = 30;
export const AUTO_SYNC_MAX_SECONDS = 86_400;
export const AUTO_SYNC_DEFAULT_SECONDS = 30;
export const SYNC_RANGE_MONTHS = [1, 2, 3, 6, 12] as const;
export const SYNC_RANGE_DEFAULT_MONTHS = 6;
export const SYNC_POLL_MS = 2_000;
export const SYNC_POLL_GIVE_UP_MS = 5 * 60_000;
export const SYNC_PROGRESS = { initial: 10, running: 50, finishing: 95 } as const;
export const SCHEDULE_OPTIONS_MINUTES = [5, 15, 30, 60, 1440] as const;
export const SCHEDULE_DEFAULT_MINUTES = 30;

export const OAUTH_POPUP = { width: 800, height: 800, redirectDelayMs: 1_500, closedCheckMs: 1_000, listenerTtlMs: 5 * 60_000 } as const;

export const COLUMN_DEFAULT_WIDTH = 150;
export const COLUMN_MIN_WIDTH = 100;
export const COLUMN_MAX_WIDTH = 500;
export const BUCKET_DEFAULT_WIDTH = 300;
export const BUCKET_MIN_WIDTH = 200;
export const BUCKET_MAX_WIDTH = 800;

export const DASHBOARD_REFRESH_MS = 30_000;
export const PUBLIC_REFRESH_MS = 30_000;
export const CONFIGURE_SKELETON_CARDS = 3;
export const TOAST_DURATION_MS = 5_000;

export const CUSTOM_SOURCE_PREFIX = 'CSTM_';
export const INTEGRATION_SOURCE_PREFIXES = ['INT_', 'zendesk_'] as const;
export const CUSTOM_FIELD_PREFIX = 'custom_';

export const HIGHLIGHT_COLORS = ['red', 'yellow', 'green', 'blue', 'purple'] as const;
export type HighlightColor = (typeof HIGHLIGHT_COLORS)[number];

/** Which kind of data source a sourceId names (its prefix). */
export function sourceKind(sourceId: string): 'custom' | 'integration' | 'other' {
  if (sourceId.startsWith(CUSTOM_SOURCE_PREFIX)) return 'custom';
  if (INTEGRATION_SOURCE_PREFIXES.some((p) => sourceId.startsWith(p))) return 'integration';
  return 'other';
}

/**
 * Record integrity limits of ingest (server/API.md, "Ingest integrity"). A record breaking one is rejected
 * alone, with its index and the reason; the rest of the batch lands.
 */
/** Longest field name (top-level key of a record), in characters. */
export const FIELD_NAME_MAX_LENGTH = 200;
/** Most distinct field names one data source may collect. */
export const FIELDS_PER_SOURCE_MAX = 500;
/**
 * Largest record as it arrives: a JSON element or NDJSON line, or a CSV row's cells. A larger one is
 * rejected alone, unread (reading one blocks the server; MongoDB stores at most 16 MB a document).
 */
export const RECORD_MAX_BYTES = 4 * 1024 * 1024;
/** Keys that could reach an object's prototype: refused at any depth of a record. */
export const FORBIDDEN_FIELD_NAMES = ['__proto__', 'constructor', 'prototype'] as const;
