import { type AppContext, KeyedQueue } from '../../core';

const saves = new KeyedQueue('the dashboard locks');

/**
 * One save of a dashboard at a time in this process (others wait their turn, then read what the
 * first one wrote), and its versions' removals beside them. Across processes the save's
 * compare-and-set on the version decides.
 */
export function withDashboardLock<T>(ctx: AppContext, dashboardId: string, fn: () => Promise<T>): Promise<T> {
  return saves.run(ctx, dashboardId, fn);
}
