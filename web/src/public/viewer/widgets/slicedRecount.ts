import { Aggregator, type AggregateSpec, type DataHolder } from '@common/widgets/aggregate';

/** The longest one slice of a recount holds the main thread: well inside a 16.7 ms frame. */
export const SLICE_MS = 6;
/** Stores up to this many records are recounted at once (a few ms); larger ones in slices. */
export const SLICE_FROM = 20_000;
/** Records counted between two looks at the clock. */
const CHECK_EVERY = 1024;

/** Runs `step` again soon, after the browser had a chance to paint and handle input. */
export type Schedule = (step: () => void) => void;

/** Runs a step in a task of its own (a message to this page: no 4 ms clamp of nested timers). */
export const nextTask: Schedule = (step) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => step();
  channel.port2.postMessage(null);
};

export interface SlicingOptions {
  schedule?: Schedule;
  sliceMs?: number;
  now?: () => number;
}

/**
 * Counts records into a new aggregator a slice at a time — each slice stops after `sliceMs` — so a
 * recount of 100,000 records never freezes the page. Nothing runs in the caller's task: the first
 * slice calls `take` for the records as they are then (copied, since a store may change them
 * while the count goes on). `done` receives the finished aggregator; the caller keeps showing the
 * old totals until then. Returns a function that abandons the recount.
 */
export function recountInSlices(
  spec: AggregateSpec,
  all: () => Iterable<DataHolder>,
  take: () => Iterable<DataHolder>,
  done: (aggregator: Aggregator, slices: number) => void,
  { schedule = nextTask, sliceMs = SLICE_MS, now = () => performance.now() }: SlicingOptions = {},
): () => void {
  const aggregator = new Aggregator(spec, all);
  aggregator.reset([]);
  let list: readonly DataHolder[] | null = null;
  let next = 0;
  let slices = 0;
  let cancelled = false;
  const step = () => {
    if (cancelled) return;
    slices += 1;
    const end = now() + sliceMs;
    const todo = (list ??= [...take()]);
    while (next < todo.length) {
      const stop = Math.min(todo.length, next + CHECK_EVERY);
      for (; next < stop; next++) aggregator.update(undefined, todo[next].data);
      if (now() >= end) break;
    }
    if (next < todo.length) schedule(step);
    else done(aggregator, slices);
  };
  schedule(step);
  return () => {
    cancelled = true;
  };
}
