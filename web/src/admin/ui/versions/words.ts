import type { VersionAuthor } from '@common/schemas/dashboardVersion';

/** Who saved a version, in the console's words. */
export const authorName = (a: VersionAuthor): string => (a.kind === 'person' ? a.name : a.kind === 'adminToken' ? 'The admin token' : 'LiveDash');

/** When, as the person reads it ("28 Nov 2026, 14:03"). */
export const savedAt = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
