import { canonicalShareToken } from '@common/ids';
import type { AppContext, ShareLinkDoc } from '../../core';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { hashShareToken, LAST_USED_RESOLUTION_MS } from '../../core';
import { shareLinkFilters, shareLinkOpens } from '../../access';

/** What a share view needs of its link. */
export interface CachedLink {
  id: string;
  dashboardId: string;
  allowCsv: boolean;
  /** Locked filters: the link's viewers get only the records matching all of them. */
  filters: WidgetFilter[];
  expiresAt: string | null;
  revoked: boolean;
  /** When it was last written as used (ms), so a busy link costs one write a minute. */
  lastUsedAt: number;
}

/** Links held at most; beyond it the oldest loaded goes (and is read again when asked). */
const MAX_LINKS = 10_000;

/** Whether a link opens its dashboard at `now` (the access policy decides). */
export const isLive = (link: CachedLink, now = Date.now()) => shareLinkOpens(link, now);

/**
 * Share links by token hash, read from MongoDB once and then held: a share view looks its token up
 * in memory. Revocation is a domain event (relayed to every process like the view events), applied
 * at once; expiry is compared with the clock on every lookup. Unknown tokens are not held.
 */
export class ShareLinkCache {
  private readonly byHash = new Map<string, CachedLink>();
  /** Links revoked while this process listened: a read racing with the revocation cannot bring one back. */
  private readonly revoked = new Set<string>();
  private generation = 0;
  /** Links read from the database (tests and the benchmark read it). */
  loads = 0;

  constructor(private readonly ctx: AppContext) {}

  /** The held link of a token (live or not), without waiting; undefined when not held. */
  peek(token: string): CachedLink | undefined {
    return canonicalShareToken(token) ? this.byHash.get(hashShareToken(token)) : undefined;
  }

  /** The link of a token, held or read (and held, unless `hold` is false); null when there is none. */
  async get(token: string, opts: { hold?: boolean } = {}): Promise<CachedLink | null> {
    if (!canonicalShareToken(token)) return null;
    const hold = opts.hold ?? true;
    const hash = hashShareToken(token);
    const held = hold ? this.byHash.get(hash) : undefined;
    if (held) return held;
    const generation = this.generation;
    this.loads++;
    const doc = await this.ctx.models.ShareLink.findOne({ tokenHash: hash }).lean<ShareLinkDoc>();
    if (!doc) return null;
    const link: CachedLink = {
      id: String(doc._id),
      dashboardId: doc.dashboardId,
      allowCsv: Boolean(doc.allowCsv),
      filters: shareLinkFilters(doc),
      expiresAt: doc.expiresAt ? new Date(doc.expiresAt).toISOString() : null,
      revoked: Boolean(doc.revokedAt) || this.revoked.has(String(doc._id)),
      lastUsedAt: doc.lastUsedAt ? new Date(doc.lastUsedAt).getTime() : 0,
    };
    if (hold && generation === this.generation) {
      if (this.byHash.size >= MAX_LINKS) this.byHash.delete(this.byHash.keys().next().value!);
      this.byHash.set(hash, link);
    }
    return link;
  }

  /** Records a use of a live link: its lastUsedAt is written when the last write is a minute old. */
  touch(link: CachedLink, now = Date.now()): void {
    if (now - link.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    link.lastUsedAt = now;
    this.ctx.models.ShareLink.updateOne({ _id: link.id }, { $set: { lastUsedAt: new Date(now) } }).catch((e) => this.ctx.log.warn(`share link lastUsedAt not written: ${String(e)}`));
  }

  revoke(linkId: string): void {
    this.revoked.add(linkId);
    for (const link of this.byHash.values()) if (link.id === linkId) link.revoked = true;
  }

  /** A deleted dashboard's links go with it. */
  removeDashboard(dashboardId: string): void {
    for (const [hash, link] of this.byHash) if (link.dashboardId === dashboardId) this.byHash.delete(hash);
  }

  clear(): void {
    this.generation++;
    this.byHash.clear();
    this.revoked.clear();
  }
}
