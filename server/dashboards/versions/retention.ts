import type { AppContext, DashboardDoc } from '../../core';
import { withDashboardLock } from './dashboardLock';
import { initVersions, versionsOf } from './versionModel';

/** The last versions of a dashboard kept whatever their age. */
export const VERSIONS_ALWAYS_KEPT = 50;
/** How often the versions past DASHBOARD_VERSIONS_DAYS are swept. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Removes the versions older than DASHBOARD_VERSIONS_DAYS, keeping each dashboard's last
 * VERSIONS_ALWAYS_KEPT: one delete per dashboard with more versions than that (reads the dashboards,
 * never the versions). Answers how many versions went.
 */
export async function sweepDashboardVersions(ctx: AppContext, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - ctx.config.DASHBOARD_VERSIONS_DAYS * 86_400_000);
  const many = await ctx.models.Dashboard.find({ version: { $gt: VERSIONS_ALWAYS_KEPT } }).lean<DashboardDoc[]>();
  let removed = 0;
  for (const d of many) {
    const dashboardId = String(d._id);
    const newestGoing = (d.version ?? 0) - VERSIONS_ALWAYS_KEPT;
    const res = await withDashboardLock(ctx, dashboardId, () => versionsOf.of(ctx).deleteMany({ dashboardId, version: { $lte: newestGoing }, createdAt: { $lt: cutoff } }));
    removed += res.deletedCount ?? 0;
  }
  return removed;
}

/**
 * Starts what the versions need beside the saves: the collection and its index, the removal of a
 * deleted dashboard's versions (from its domain event) and the hourly retention sweep.
 */
export async function startDashboardVersions(ctx: AppContext): Promise<{ close(): Promise<void> }> {
  await initVersions(ctx);
  const pending = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const off = ctx.events.on('dashboard.removed', ({ dashboardId }) => {
    track(withDashboardLock(ctx, dashboardId, () => versionsOf.of(ctx).deleteMany({ dashboardId })).catch((e: unknown) => ctx.log.error(`dashboard versions: could not remove those of the deleted dashboard ${dashboardId}`, e)));
  });
  const sweep = () => track(sweepDashboardVersions(ctx).catch((e: unknown) => ctx.log.error('dashboard versions: the retention sweep failed', e)));
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  sweep();
  return {
    async close() {
      off();
      clearInterval(timer);
      await Promise.allSettled([...pending]);
    },
  };
}
