import type { AppContext } from '../context';

/**
 * One change of a data source's records at a time, per process: concurrent ingests into the same
 * source write one after the other (revisions then follow write order). Different sources run in
 * parallel. Across processes the database's own guarantees apply (unique index, transactions);
 * the offline engine runs concurrent transactions without write conflicts, which lost records
 * under 20 concurrent first ingests before this lock.
 */
const queues = new WeakMap<AppContext, Map<string, Promise<unknown>>>();

export async function withSourceLock<T>(ctx: AppContext, dataSourceId: string, fn: () => Promise<T>): Promise<T> {
  let perApp = queues.get(ctx);
  if (!perApp) queues.set(ctx, (perApp = new Map()));
  const before = perApp.get(dataSourceId) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => undefined);
  perApp.set(dataSourceId, tail);
  try {
    return await run;
  } finally {
    // The last in line leaves no entry behind.
    if (perApp.get(dataSourceId) === tail) perApp.delete(dataSourceId);
  }
}
