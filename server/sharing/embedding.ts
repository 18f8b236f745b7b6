import type { EmbeddingDto } from '@common/schemas/sharing/embedding';
import { embedOriginProblem } from '@common/sharing';
import type { AppContext } from '../core';
import { getDashboard } from '../dashboards';
import { loadDashboardForShare } from './shareLinks';
import { canonicalObjectId, canonicalShareToken } from '@common/ids';
import { embeddingModel } from './embeddingModel';
import { presentSecret } from './signedEmbedding/secrets';
import { embedAccessOf } from './signedEmbedding/access';
import { claimedDashboard } from './signedEmbedding/tokens';

/** Builds the collection's unique index (once, at start). */
export async function initEmbedding(ctx: AppContext): Promise<void> {
  await embeddingModel(ctx).createIndexes();
}

async function originsOf(ctx: AppContext, dashboardId: string): Promise<string[]> {
  const doc = await embeddingModel(ctx).findOne({ dashboardId }).lean();
  return [...(doc?.origins ?? [])];
}

/** The stored origins that pass today's rule (one stored under an older, laxer rule never reaches a header). */
async function allowedOriginsOf(ctx: AppContext, dashboardId: string): Promise<string[]> {
  return (await originsOf(ctx, dashboardId)).filter((o) => embedOriginProblem(o) === null);
}

/** A dashboard's embedding: its allowed origins, and whether it has a secret (when made, by whom — never the secret). */
export async function getEmbedding(ctx: AppContext, dashboardId: string): Promise<EmbeddingDto> {
  const d = await getDashboard(ctx, dashboardId);
  const doc = await embeddingModel(ctx).findOne({ dashboardId: d.id }).lean();
  return { dashboardId: d.id, origins: [...(doc?.origins ?? [])], secret: await presentSecret(ctx, doc?.secret) };
}

/** Replaces a dashboard's allowed embedding origins (validated, deduplicated). */
export async function setEmbedding(ctx: AppContext, dashboardId: string, origins: string[]): Promise<EmbeddingDto> {
  const d = await getDashboard(ctx, dashboardId);
  const unique = [...new Set(origins)];
  await embeddingModel(ctx).updateOne({ dashboardId: d.id }, { $set: { origins: unique } }, { upsert: true });
  return getEmbedding(ctx, d.id);
}

const VIEWER_BY_ID = /^\/dashboards\/([0-9a-fA-F]{24})$/;
const VIEWER_BY_TOKEN = /^\/s\/([^/]+)$/;
const VIEWER_BY_EMBED_TOKEN = /^\/embed\/([^/]+)$/;

/**
 * The origins allowed to frame the viewer page at `path` (/dashboards/<id>, /s/<token> or
 * /embed/<signed token>: the dashboard it names), or an empty list for every other page and for
 * dashboards that allow none.
 */
export async function frameAncestorsFor(ctx: AppContext, path: string): Promise<string[]> {
  const byId = VIEWER_BY_ID.exec(path);
  if (byId) return allowedOriginsOf(ctx, canonicalObjectId(byId[1]) ?? '');
  const byToken = VIEWER_BY_TOKEN.exec(path);
  if (byToken && canonicalShareToken(byToken[1])) {
    const shared = await loadDashboardForShare(ctx, byToken[1], { touch: false }).catch(() => null);
    if (shared) return allowedOriginsOf(ctx, String(shared.dashboard._id));
  }
  const byEmbed = VIEWER_BY_EMBED_TOKEN.exec(path);
  if (byEmbed) {
    // A refused token's page shows only that it is unavailable: the sites of the dashboard it names
    // may frame that too, so a host sees the reason in its iframe rather than a blocked frame.
    const grant = await embedAccessOf(ctx).open(byEmbed[1], { count: false }).catch(() => null);
    const dashboardId = grant?.dashboardId ?? claimedDashboard(byEmbed[1]);
    if (dashboardId) return allowedOriginsOf(ctx, dashboardId);
  }
  return [];
}

/**
 * A CSP header with its frame-ancestors directive set to 'self' plus the given origins. Built from
 * its directives (no `String.replace`, whose `$&`-style patterns would rewrite an origin).
 */
export function withFrameAncestors(csp: string, origins: string[]): string {
  const others = csp.split(';').map((d) => d.trim()).filter((d) => d && !/^frame-ancestors(\s|$)/i.test(d));
  return [...others, ['frame-ancestors', "'self'", ...origins].join(' ')].join(';');
}
