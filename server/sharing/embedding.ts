import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import type { EmbeddingDto } from '@common/schemas/embedding';
import { embedOriginProblem } from '@common/sharing';
import type { AppContext } from '../core';
import { getDashboard } from '../dashboards';
import { loadDashboardForShare } from './shareLinks';
import { canonicalObjectId, canonicalShareToken } from '@common/ids';

const embeddingSchema = new Schema(
  {
    dashboardId: { type: String, required: true, unique: true },
    origins: { type: [String], default: [] },
  },
  { minimize: false, versionKey: false, timestamps: true },
);
type EmbeddingDoc = InferSchemaType<typeof embeddingSchema> & { _id: mongoose.Types.ObjectId };

function model(ctx: AppContext): Model<EmbeddingDoc> {
  return (ctx.conn.models.DashboardEmbedding as Model<EmbeddingDoc> | undefined) ?? ctx.conn.model<EmbeddingDoc>('DashboardEmbedding', embeddingSchema, 'dashboardembeddings');
}

/** Builds the collection's unique index (once, at start). */
export async function initEmbedding(ctx: AppContext): Promise<void> {
  await model(ctx).createIndexes();
}

async function originsOf(ctx: AppContext, dashboardId: string): Promise<string[]> {
  const doc = await model(ctx).findOne({ dashboardId }).lean<EmbeddingDoc>();
  return [...(doc?.origins ?? [])];
}

/** The stored origins that pass today's rule (one stored under an older, laxer rule never reaches a header). */
async function allowedOriginsOf(ctx: AppContext, dashboardId: string): Promise<string[]> {
  return (await originsOf(ctx, dashboardId)).filter((o) => embedOriginProblem(o) === null);
}

export async function getEmbedding(ctx: AppContext, dashboardId: string): Promise<EmbeddingDto> {
  const d = await getDashboard(ctx, dashboardId);
  return { dashboardId: d.id, origins: await originsOf(ctx, d.id) };
}

/** Replaces a dashboard's allowed embedding origins (validated, deduplicated). */
export async function setEmbedding(ctx: AppContext, dashboardId: string, origins: string[]): Promise<EmbeddingDto> {
  const d = await getDashboard(ctx, dashboardId);
  const unique = [...new Set(origins)];
  await model(ctx).updateOne({ dashboardId: d.id }, { $set: { origins: unique } }, { upsert: true });
  return { dashboardId: d.id, origins: unique };
}

const VIEWER_BY_ID = /^\/dashboards\/([0-9a-fA-F]{24})$/;
const VIEWER_BY_TOKEN = /^\/s\/([^/]+)$/;

/**
 * The origins allowed to frame the viewer page at `path` (/dashboards/<id> or /s/<token>), or an
 * empty list for every other page and for dashboards that allow none.
 */
export async function frameAncestorsFor(ctx: AppContext, path: string): Promise<string[]> {
  const byId = VIEWER_BY_ID.exec(path);
  if (byId) return allowedOriginsOf(ctx, canonicalObjectId(byId[1]) ?? '');
  const byToken = VIEWER_BY_TOKEN.exec(path);
  if (byToken && canonicalShareToken(byToken[1])) {
    const shared = await loadDashboardForShare(ctx, byToken[1], { touch: false }).catch(() => null);
    if (shared) return allowedOriginsOf(ctx, String(shared.dashboard._id));
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
