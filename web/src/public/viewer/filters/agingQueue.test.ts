import { describe, expect, it } from 'vitest';
import { AgingQueue } from './agingQueue';

describe('the aging queue', () => {
  it('gives entries back soonest first, built at once or pushed one by one', () => {
    const ats = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1009);
    const built = AgingQueue.of(ats.map((at, i) => ({ at, id: String(i) })));
    const pushed = AgingQueue.empty();
    ats.forEach((at, i) => pushed.push({ at, id: String(i) }));
    for (const q of [built, pushed]) {
      const out: number[] = [];
      expect(q.peek()?.at).toBe(Math.min(...ats));
      while (q.size) out.push(q.pop()!.at);
      expect(out).toEqual([...ats].sort((a, b) => a - b));
      expect(q.pop()).toBeUndefined();
    }
  });
});
