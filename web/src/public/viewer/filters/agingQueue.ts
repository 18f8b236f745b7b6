/** A record of the filtered feed and the instant it leaves a relative date range. */
export interface Leaving {
  at: number;
  id: string;
}

/**
 * The kept records by the instant each leaves, soonest first: a binary min-heap. Built from a whole
 * refilter's records at once (heapify: linear, no sort of 100,000 records), then records pushed as
 * they come and taken off the top as they age out.
 */
export class AgingQueue {
  private constructor(private readonly heap: Leaving[]) {}

  static empty(): AgingQueue {
    return new AgingQueue([]);
  }

  /** A queue of these entries (the array becomes the queue's own). */
  static of(entries: Leaving[]): AgingQueue {
    const q = new AgingQueue(entries);
    for (let i = (entries.length >> 1) - 1; i >= 0; i--) q.down(i);
    return q;
  }

  get size(): number {
    return this.heap.length;
  }

  /** The soonest entry, left in place. */
  peek(): Leaving | undefined {
    return this.heap[0];
  }

  push(e: Leaving): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent].at <= e.at) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = e;
  }

  /** Takes the soonest entry off. */
  pop(): Leaving | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      this.down(0);
    }
    return top;
  }

  private down(i: number) {
    const h = this.heap;
    const e = h[i];
    for (;;) {
      let child = 2 * i + 1;
      if (child >= h.length) break;
      if (child + 1 < h.length && h[child + 1].at < h[child].at) child++;
      if (h[child].at >= e.at) break;
      h[i] = h[child];
      i = child;
    }
    h[i] = e;
  }
}
