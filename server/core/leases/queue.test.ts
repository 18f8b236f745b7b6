import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { KeyedQueue } from './queue';

/** Only the app's handle map is used: the queue keeps its state per app. */
const appWithHandles = () => ({ handles: new Map() }) as unknown as AppContext;

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { open, opened };
}

describe('KeyedQueue', () => {
  it('runs work under one key in arrival order, one at a time; other keys and other apps beside it', async () => {
    const queue = new KeyedQueue('test turns');
    const [app, other] = [appWithHandles(), appWithHandles()];
    const log: string[] = [];
    const first = gate();
    const a1 = queue.run(app, 'a', async () => { log.push('a1 start'); await first.opened; log.push('a1 end'); });
    const a2 = queue.run(app, 'a', async () => { log.push('a2'); });
    const b = queue.run(app, 'b', async () => { log.push('b'); });
    const elsewhere = queue.run(other, 'a', async () => { log.push('other app a'); });
    await Promise.all([b, elsewhere]);
    expect(log).toEqual(['a1 start', 'b', 'other app a']);
    first.open();
    await Promise.all([a1, a2]);
    expect(log).toEqual(['a1 start', 'b', 'other app a', 'a1 end', 'a2']);
  });

  it('a failed turn answers its own caller only; the next runs, and the last leaves no entry behind', async () => {
    const queue = new KeyedQueue('test turns');
    const app = appWithHandles();
    const failed = queue.run(app, 'k', async () => { throw new Error('no'); });
    const next = queue.run(app, 'k', async () => 'ran');
    await expect(failed).rejects.toThrow('no');
    await expect(next).resolves.toBe('ran');
    const maps = [...(app as unknown as { handles: Map<unknown, Map<string, unknown>> }).handles.values()];
    expect(maps.map((m) => m.size)).toEqual([0]);
  });
});
