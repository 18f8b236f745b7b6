import type { AppContext } from '../core';
import { removeDashboardLinks } from './shareLinks';
import { removeEmbedding } from './signedEmbedding/secrets';

/**
 * What sharing does when something it shares goes: a deleted dashboard's links, embedding origins
 * and embedding secret are deleted with it (its signed tokens stop at once). The dashboards feature
 * announces the removal; sharing owns its links (the socket layer only tells the links' viewers).
 * Returns the unsubscribe.
 */
export function startSharingCascades(ctx: AppContext): () => void {
  return ctx.events.on('dashboard.removed', ({ dashboardId }) => {
    removeDashboardLinks(ctx, dashboardId).catch((e) => ctx.log.error(`sharing: could not remove the links of deleted dashboard ${dashboardId}`, e));
    removeEmbedding(ctx, dashboardId).catch((e) => ctx.log.error(`sharing: could not remove the embedding of deleted dashboard ${dashboardId}`, e));
  });
}
