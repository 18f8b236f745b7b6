import { hashShareToken, LAST_USED_RESOLUTION_MS, NotFoundError, ValidationError, presentDataSource, findDataSource } from '../core';
import crypto from 'node:crypto';
import mongoose from 'mongoose';
import type { CreateShareLink, CreatedShareLinkDto, ShareLinkDto } from '@common/schemas/sharing/shareLink';
import type { AppContext, DashboardDoc, DataSourceDoc, ShareLinkDoc } from '../core';
import { lockedFilterProblems } from './lockedFilters';
import { presentShareLink } from './presentShareLink';
import { shareLinkOpens, termsOf } from '../access';
import { getDashboard } from '../dashboards';
import { canonicalShareToken } from '@common/ids';

/** 24 random bytes: 192 bits, 32 URL-safe characters. */
const TOKEN_BYTES = 24;
/** lastUsedAt is written at most this often per link, so busy links cost no write per view. */
const linkNotFound = () => NotFoundError('Share link');

async function requireLink(ctx: AppContext, dashboardId: string, linkId: string): Promise<ShareLinkDoc> {
  const link = mongoose.isObjectIdOrHexString(linkId) ? await ctx.models.ShareLink.findById(linkId).lean<ShareLinkDoc>() : null;
  if (!link || link.dashboardId !== dashboardId) throw linkNotFound();
  return link;
}

/** Makes a link; its token is in this answer only. */
export async function createShareLink(ctx: AppContext, dashboardId: string, input: CreateShareLink): Promise<CreatedShareLinkDto> {
  const dashboard = await getDashboard(ctx, dashboardId);
  if (input.filters.length) {
    const ds = dashboard.dataSourceId ? await findDataSource(ctx, dashboard.dataSourceId) : null;
    const problems = lockedFilterProblems(input.filters, ds ? presentDataSource(ds) : null);
    if (problems.length) throw ValidationError(problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
  }
  const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
  const doc = await ctx.models.ShareLink.create({
    dashboardId: dashboard.id,
    label: input.label,
    tokenHash: hashShareToken(token),
    tokenHint: token.slice(0, 6),
    allowCsv: input.allowCsv,
    filters: input.filters,
    expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
  });
  const link = presentShareLink(doc.toObject() as ShareLinkDoc);
  ctx.events.emit('shareLink.created', { link, dashboardName: dashboard.name });
  return { link, token, path: `/s/${token}` };
}

/** A dashboard's links, oldest first, revoked and expired ones included. */
export async function listShareLinks(ctx: AppContext, dashboardId: string): Promise<ShareLinkDto[]> {
  const dashboard = await getDashboard(ctx, dashboardId);
  const docs = await ctx.models.ShareLink.find({ dashboardId: dashboard.id }).sort({ createdAt: 1 }).lean<ShareLinkDoc[]>();
  return docs.map(presentShareLink);
}

/** Revokes a link: its viewers are emptied at once and its token answers 404 from now on. */
export async function revokeShareLink(ctx: AppContext, dashboardId: string, linkId: string): Promise<ShareLinkDto> {
  const link = await requireLink(ctx, dashboardId, linkId);
  const after = link.revokedAt
    ? link
    : await ctx.models.ShareLink.findByIdAndUpdate(link._id, { $set: { revokedAt: new Date() } }, { returnDocument: 'after' }).lean<ShareLinkDoc>();
  if (!after) throw linkNotFound();
  const dto = presentShareLink(after);
  if (!link.revokedAt) ctx.events.emit('shareLink.revoked', { link: dto });
  return dto;
}

/** Removes the links of a deleted dashboard. */
export async function removeDashboardLinks(ctx: AppContext, dashboardId: string): Promise<void> {
  await ctx.models.ShareLink.deleteMany({ dashboardId });
}

export interface SharedDashboard {
  link: ShareLinkDoc;
  dashboard: DashboardDoc;
  dataSource: DataSourceDoc | null;
}

/**
 * The dashboard a token opens, published or not. Unknown, revoked and expired tokens, and links
 * whose dashboard is gone, are all the same 404.
 */
export async function loadDashboardForShare(ctx: AppContext, token: string, opts: { touch?: boolean } = {}): Promise<SharedDashboard> {
  if (canonicalShareToken(token) === null) throw linkNotFound();
  const link = await ctx.models.ShareLink.findOne({ tokenHash: hashShareToken(token) }).lean<ShareLinkDoc>();
  if (!link || !shareLinkOpens(termsOf(link))) throw linkNotFound();
  const dashboard = mongoose.isObjectIdOrHexString(link.dashboardId) ? await ctx.models.Dashboard.findById(link.dashboardId).lean<DashboardDoc>() : null;
  if (!dashboard) throw linkNotFound();
  const dataSource = dashboard.dataSourceId ? await findDataSource(ctx, dashboard.dataSourceId) : null;
  const now = Date.now();
  if (opts.touch !== false && (!link.lastUsedAt || now - new Date(link.lastUsedAt).getTime() > LAST_USED_RESOLUTION_MS)) {
    await ctx.models.ShareLink.updateOne({ _id: link._id }, { $set: { lastUsedAt: new Date(now) } });
  }
  return { link, dashboard, dataSource };
}

