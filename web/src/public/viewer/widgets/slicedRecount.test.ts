import { describe, expect, it } from 'vitest';
import { Aggregator, type AggregateSpec } from '@common/widgets/aggregate';
import { recountInSlices } from './slicedRecount';

const spec: AggregateSpec = { metric: 'max', valueField: 'n', groupField: 'status' };
const records = Array.from({ length: 30_000 }, (_, i) => ({ data: { status: ['open', 'closed', 'pending'][i % 3], n: (i * 7919) % 10_007 } }));

/** A clock that moves 1 ms each time it is read, and a task queue run by hand. */
function harness() {
  let t = 0;
  const queue: (() => void)[] = [];
  return { now: () => t++, schedule: (step: () => void) => queue.push(step), run: () => { while (queue.length) queue.shift()!(); }, queue };
}

describe('recountInSlices', () => {
  it('counts in slices that stop at the time budget and ends with the totals of a recount at once', () => {
    const h = harness();
    let result: { aggregator: Aggregator; slices: number } | null = null;
    recountInSlices(spec, () => records, () => records, (aggregator, slices) => (result = { aggregator, slices }), { schedule: h.schedule, now: h.now, sliceMs: 3 });
    // Nothing runs in the caller's task: the first slice is scheduled like the rest.
    expect(result).toBeNull();
    expect(h.queue).toHaveLength(1);
    h.queue.shift()!();
    expect(result).toBeNull();
    expect(h.queue).toHaveLength(1);
    h.run();
    const whole = new Aggregator(spec, () => records);
    whole.reset(records);
    expect(result!.slices).toBeGreaterThan(5);
    expect(result!.aggregator.top()).toEqual(whole.top());
    expect(result!.aggregator.value()).toBe(whole.value());
    expect(result!.aggregator.size).toBe(records.length);
  });

  it('does not finish once abandoned', () => {
    const h = harness();
    let finished = false;
    const cancel = recountInSlices(spec, () => records, () => records, () => (finished = true), { schedule: h.schedule, now: h.now, sliceMs: 3 });
    cancel();
    h.run();
    expect(finished).toBe(false);
  });

  it('finishes in one slice when the records fit the budget', () => {
    const h = harness();
    let slices = 0;
    recountInSlices(spec, () => records, () => records.slice(0, 10), (_, n) => (slices = n), { schedule: h.schedule });
    h.run();
    expect(slices).toBe(1);
  });
});
