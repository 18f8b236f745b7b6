import { lockedFiltersOf } from '../core';
import type { ShareLinkDto } from '@common/schemas/shareLink';
import type { ShareLinkDoc } from '../core';

const isoOrNull = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** Whether a link opens its dashboard at `now`. */
export function shareLinkStatus(link: Pick<ShareLinkDoc, 'revokedAt' | 'expiresAt'>, now = Date.now()): ShareLinkDto['status'] {
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt && new Date(link.expiresAt).getTime() <= now) return 'expired';
  return 'active';
}

/** A share link as the admin sees it: never its token hash. */
export function presentShareLink(link: ShareLinkDoc): ShareLinkDto {
  return {
    id: String(link._id),
    dashboardId: link.dashboardId,
    label: link.label,
    tokenHint: link.tokenHint,
    allowCsv: Boolean(link.allowCsv),
    filters: lockedFiltersOf(link),
    expiresAt: isoOrNull(link.expiresAt),
    lastUsedAt: isoOrNull(link.lastUsedAt),
    revokedAt: isoOrNull(link.revokedAt),
    createdAt: isoOrNull(link.createdAt) ?? new Date(0).toISOString(),
    status: shareLinkStatus(link),
  };
}

