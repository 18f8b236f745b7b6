import { z } from 'zod';

/** What an activity entry is about, for the filter. */
export const ACTIVITY_CATEGORIES = ['admin', 'ingest', 'auth', 'sync', 'alert', 'report'] as const;
export type ActivityCategory = (typeof ACTIVITY_CATEGORIES)[number];

export const ACTIVITY_OBJECT_TYPES = ['dataSource', 'dashboard', 'integration', 'shareLink', 'user', 'alert', 'report'] as const;
export type ActivityObjectType = (typeof ACTIVITY_OBJECT_TYPES)[number];

/** One entry of the activity log. Never holds a secret: credentials appear as their kind and hint only. */
export interface ActivityEntryDto {
  id: string;
  at: string;
  /** e.g. dashboard.created, dashboard.published, dataSource.keyRotated, ingest, auth.failed, sync.completed */
  kind: string;
  category: ActivityCategory;
  objectType: ActivityObjectType | null;
  objectId: string | null;
  objectName: string | null;
  summary: string;
  /** The client's address (the proxy's client with TRUST_PROXY). */
  address: string | null;
  /** How the caller proved itself: the admin token, a session, a personal API token, an ingest key, or none. */
  credential: 'admin' | 'session' | 'apiToken' | 'ingestKey' | null;
  /** Who acted: the person's name (or email), "admin token", or "ingest key <hint>". */
  actor: string | null;
  /** The person who acted, for the filter. */
  userId: string | null;
  /** The ingest key's hint (first and last characters), never the key. */
  keyHint: string | null;
  details: Record<string, string | number | boolean | null | string[]>;
}

/** GET /api/admin/activity and /export: newest first, filtered. */
export const ActivityQuery = z
  .object({
    category: z.enum(ACTIVITY_CATEGORIES, { error: `category must be one of ${ACTIVITY_CATEGORIES.join(', ')}` }).optional(),
    kind: z.string().trim().min(1).max(60).optional(),
    objectType: z.enum(ACTIVITY_OBJECT_TYPES, { error: `objectType must be one of ${ACTIVITY_OBJECT_TYPES.join(', ')}` }).optional(),
    objectId: z.string().trim().min(1).max(100).optional(),
    userId: z.string().regex(/^[0-9a-f]{24}$/, 'userId must be a user id').optional(),
    /** Entries older than this entry's time (paging). */
    before: z.iso.datetime({ offset: true, message: 'before must be an ISO date-time' }).optional(),
    limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(1000).default(200),
  })
  .strict();
export type ActivityQuery = z.infer<typeof ActivityQuery>;
