import { lockedFiltersOf } from '../core';
import type { ShareLinkDto } from '@common/schemas/sharing/shareLink';
import type { ShareLinkDoc } from '../core';
import { shareLinkOpens } from '../access';

const isoOrNull = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A link's state in words (whether it opens is the access policy's answer). */
export function shareLinkStatus(link: Pick<ShareLinkDoc, 'revokedAt' | 'expiresAt'>, now = Date.now()): ShareLinkDto['status'] {
  if (link.revokedAt) return 'revoked';
  return shareLinkOpens({ revoked: false, expiresAt: link.expiresAt ?? null }, now) ? 'active' : 'expired';
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

