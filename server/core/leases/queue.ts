import { AppHandle, type AppContext } from '../context';

/**
 * In-process turns: work under one key runs one at a time, in the order it arrived; other keys run
 * beside it. A failure ends only its own turn. The last in line leaves no entry behind. Each app
 * keeps its own queues (two test servers in one process never wait for each other). Across
 * processes a lease or the database's compare-and-set decides; this only orders a process's own work.
 */
export class KeyedQueue {
  private readonly queues: AppHandle<Map<string, Promise<unknown>>>;

  constructor(what: string) {
    this.queues = new AppHandle(what, () => new Map());
  }

  async run<T>(ctx: AppContext, key: string, fn: () => Promise<T>): Promise<T> {
    const perApp = this.queues.of(ctx);
    const before = perApp.get(key) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    perApp.set(key, tail);
    try {
      return await run;
    } finally {
      if (perApp.get(key) === tail) perApp.delete(key);
    }
  }
}
