/**
 * Long work (a request's body, a large source read or counted, a large view written) done in
 * slices: after SLICE_MS of work the loop is given back so other requests, sockets and timers run,
 * whatever the work holds.
 *
 * One slice per turn of the loop, for the whole process: every slicer that gives the loop back
 * waits in one line and the next turn resumes only the first of them. Resumed all at once (each on
 * its own setImmediate, all in the same check phase), ten sliced tasks made one turn of ten slices.
 * The line is the process's, not an app's: the apps of one process share its one event loop.
 */

/** Longest run of work between two turns of the event loop. */
export const SLICE_MS = 10;

/** The slice length in force (SLICE_MS; a test proving that work goes in slices sets 0: a turn after every item). */
let sliceMs = SLICE_MS;

/** Sets the slice length for the whole process; answers the function that puts it back. For tests. */
export function setSliceMs(ms: number): () => void {
  const was = sliceMs;
  sliceMs = ms;
  return () => {
    sliceMs = was;
  };
}

/** Sliced work waiting for a turn of the loop, first come first served. */
const waiting: (() => void)[] = [];
let turnScheduled = false;

/** Resumes the first waiting slicer, and asks for another turn for the next. */
function resumeOne(): void {
  turnScheduled = false;
  const next = waiting.shift();
  if (waiting.length) {
    turnScheduled = true;
    // Called from the check phase: runs in the next turn, after I/O and timers.
    setImmediate(resumeOne);
  }
  next?.();
}

/** Resolves at a later turn of the loop than this one, when it is this caller's turn. */
function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(resumeOne);
    }
  });
}

export class Slicer {
  private since = performance.now();

  /** Whether the slice is used up: call `pause()` then. Cheap enough to ask every record. */
  due(): boolean {
    return performance.now() - this.since >= sliceMs;
  }

  /** Gives the event loop a turn (and the other sliced work theirs), then starts a new slice. */
  async pause(): Promise<void> {
    await nextTurn();
    this.since = performance.now();
  }

  /** Gives the loop a turn if the slice is used up. */
  async tick(): Promise<void> {
    if (this.due()) await this.pause();
  }
}

/**
 * Documents a large read takes a batch (`cursor({ batchSize })`): the driver parses a batch in one
 * go, so a batch must stay a few milliseconds of work (a 16 MB default batch was seconds of one
 * turn on a loaded machine); between batches the loop turns on the read itself.
 */
export const SLICED_READ_BATCH = 500;

/**
 * The items of a list or a cursor, giving the loop a turn whenever a slice is used up: a `for
 * await` over a cursor's buffered documents runs as one chain of microtasks, which never lets
 * timers or sockets in.
 */
export async function* inSlices<T>(items: Iterable<T> | AsyncIterable<T>, slicer = new Slicer()): AsyncGenerator<T> {
  for await (const item of items) {
    yield item;
    await slicer.tick();
  }
}
