import { z } from 'zod';
import type { PublicDashboardResponse } from '../publicView';
import { SHARE_LINK_LABEL_MAX } from '../../sharing';
import { LockedFilters } from '../widgets/dashboardFilter';
import type { WidgetFilter } from '../widgets/widget';

export { SHARE_LINK_LABEL_MAX } from '../../sharing';

/** POST /api/admin/dashboards/:id/links */
export const CreateShareLink = z
  .object({
    label: z.string().trim().min(1, 'Label is required').max(SHARE_LINK_LABEL_MAX, `Label is at most ${SHARE_LINK_LABEL_MAX} characters`),
    /** When the link stops working; omitted or null: never. */
    expiresAt: z.iso
      .datetime({ offset: true, message: 'expiresAt must be an ISO date-time' })
      // (a text that is no date-time is the check above's to name)
      .refine((at) => !(Date.parse(at) <= Date.now()), 'expiresAt is in the past: give a future date-time, or none for a link that never expires')
      .nullable()
      .optional(),
    allowCsv: z.boolean().default(true),
    /**
     * Locked filters (widget filters, all applied): the link's viewers get, export and are pushed
     * only the records that match, enforced on the server.
     */
    filters: LockedFilters.default([]),
  })
  .strict();
export type CreateShareLink = z.infer<typeof CreateShareLink>;

/** A share link as the admin sees it: never its token (shown once, at creation) nor its hash. */
export interface ShareLinkDto {
  id: string;
  dashboardId: string;
  label: string;
  /** The first characters of the token, so an admin can tell links apart. */
  tokenHint: string;
  allowCsv: boolean;
  /** The filters the link locks (none: the whole dashboard). */
  filters: WidgetFilter[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  /** active, expired or revoked, as of the answer. */
  status: 'active' | 'expired' | 'revoked';
}

/** The answer to creating a link: the link and, this once, its token and path. */
export interface CreatedShareLinkDto {
  link: ShareLinkDto;
  token: string;
  /** `/s/<token>` — the viewer page of this link. */
  path: string;
}

/** GET /api/share/:token — the public view of the dashboard plus what the link allows. */
export interface ShareViewResponse extends PublicDashboardResponse {
  /** `filters`: what the link locks, shown as fixed chips (the records are already only those that match). */
  share: { allowCsv: boolean; expiresAt: string | null; filters?: WidgetFilter[] };
}
