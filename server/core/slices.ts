/**
 * Long work on a request's body done in slices: after SLICE_MS of work the loop is given back
 * (setImmediate) so other requests, sockets and timers run, whatever the body holds.
 */

/** Longest run of work between two turns of the event loop. */
export const SLICE_MS = 10;

export class Slicer {
  private since = performance.now();

  /** Whether the slice is used up: call `pause()` then. Cheap enough to ask every record. */
  due(): boolean {
    return performance.now() - this.since >= SLICE_MS;
  }

  /** Gives the event loop a turn, then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }

  /** Gives the loop a turn if the slice is used up. */
  async tick(): Promise<void> {
    if (this.due()) await this.pause();
  }
}
