import { AppHandle, type AppContext } from '../../core';

const queues = new AppHandle<Map<string, Promise<unknown>>>('the dashboard locks', () => new Map());

/**
 * One save of a dashboard at a time in this process (others wait their turn, then read what the
 * first one wrote), and its versions' removals beside them. Across processes the save's
 * compare-and-set on the version decides.
 */
export async function withDashboardLock<T>(ctx: AppContext, dashboardId: string, fn: () => Promise<T>): Promise<T> {
  const name = dashboardId;
  const perApp = queues.of(ctx);
  const before = perApp.get(name) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => undefined);
  perApp.set(name, tail);
  try {
    return await run;
  } finally {
    if (perApp.get(name) === tail) perApp.delete(name);
  }
}
