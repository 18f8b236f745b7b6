import crypto from 'node:crypto';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import mongoose, { Schema, type InferSchemaType } from 'mongoose';

/**
 * A share link of one dashboard. Only the SHA-256 of its token is stored; the token itself is
 * shown once, when the link is made.
 */
export const shareLinkSchema = new Schema(
  {
    dashboardId: { type: String, required: true },
    label: { type: String, required: true },
    tokenHash: { type: String, required: true, unique: true },
    tokenHint: { type: String, required: true },
    allowCsv: { type: Boolean, default: true },
    /** Locked filters (widget filters, all applied): field, operator, value(s). */
    filters: { type: [Schema.Types.Mixed], default: [] },
    expiresAt: { type: Date, default: null },
    lastUsedAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
  },
  { minimize: false, versionKey: false, timestamps: true },
);
shareLinkSchema.index({ dashboardId: 1, createdAt: 1 });

export type ShareLinkDoc = InferSchemaType<typeof shareLinkSchema> & { _id: mongoose.Types.ObjectId; createdAt: Date; updatedAt: Date };

/** A link's last use is written at most once per this much time (the view cache and the share routes agree). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** SHA-256 of a share token: only the hash is stored. */
export const hashShareToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** The filters a link locks its viewers to (none for an unlocked link). */
export function lockedFiltersOf(link: Pick<ShareLinkDoc, 'filters'>): WidgetFilter[] {
  return Array.isArray(link.filters) ? (link.filters as WidgetFilter[]) : [];
}
