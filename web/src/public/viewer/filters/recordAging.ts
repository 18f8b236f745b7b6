import type { RecordDto } from '@common/schemas/records/record';
import { nextTask, SLICE_FROM, SLICE_MS, type SlicingOptions } from '../widgets/slicedRecount';
import { AgingQueue, type Leaving } from './agingQueue';

/** When a record stops passing the filters as time goes on (agingOf in common/filterBar.ts); null: never. */
export type LeavesAt = (data: Record<string, unknown>) => number | null;

/** The longest a timer can wait (setTimeout's limit); a later instant is waited for in steps. */
const MAX_WAIT_MS = 2 ** 31 - 1;
/** Records ageing out within this of each other leave together (a pass walks the kept order once). */
const GAP_MS = 1000;
/** Records read between two looks at the clock while the queue is built. */
const CHECK_EVERY = 2048;


/**
 * The filtered feed's clock for relative date ranges: which kept record leaves when, and one timer
 * for the soonest, which calls `onDue` once records are due (at most once a second). After a
 * refilter the queue is built anew — in slices from SLICE_FROM records on, as the refilter is, so
 * reading 100,000 dates never holds the page; records pushed meanwhile join it when it is done.
 */
export class RecordAging {
  private leavesAt: LeavesAt | null = null;
  private queue = AgingQueue.empty();
  /** Entries of records added while the queue is being built. */
  private pending: Leaving[] | null = null;
  private cancelBuild: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastPass = 0;

  constructor(
    private readonly onDue: () => void,
    private readonly slicing: SlicingOptions = {},
  ) {}

  /** Follows a new test's relative ranges (null: none); forgets every record. */
  reset(leavesAt: LeavesAt | null): void {
    this.leavesAt = leavesAt;
    this.cancelBuild?.();
    this.cancelBuild = null;
    this.pending = null;
    this.queue = AgingQueue.empty();
    this.arm();
  }

  get active(): boolean {
    return this.leavesAt !== null;
  }

  /** Every kept record anew (after a refilter). */
  rebuild(records: Map<string, RecordDto>, order: readonly string[]): void {
    if (!this.leavesAt) return;
    this.reset(this.leavesAt);
    const leavesAt = this.leavesAt;
    const entries: Leaving[] = [];
    const read = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const r = records.get(order[i]);
        const at = r ? leavesAt(r.data) : null;
        if (at !== null) entries.push({ at, id: order[i] });
      }
    };
    const done = () => {
      this.queue = AgingQueue.of(this.pending ? entries.concat(this.pending) : entries);
      this.pending = null;
      this.cancelBuild = null;
      this.arm();
    };
    if (order.length < SLICE_FROM) {
      read(0, order.length);
      return done();
    }
    const { schedule = nextTask, sliceMs = SLICE_MS, now = () => performance.now() } = this.slicing;
    let cancelled = false;
    let next = 0;
    this.pending = [];
    const step = () => {
      if (cancelled) return;
      const end = now() + sliceMs;
      while (next < order.length) {
        const stop = Math.min(order.length, next + CHECK_EVERY);
        read(next, stop);
        next = stop;
        if (now() >= end) break;
      }
      if (next < order.length) return schedule(step);
      done();
    };
    this.cancelBuild = () => {
      cancelled = true;
    };
    schedule(step);
  }

  /** Records a change kept or changed. */
  add(records: Map<string, RecordDto>, ids: readonly string[]): void {
    if (!this.leavesAt) return;
    for (const id of ids) {
      const r = records.get(id);
      const at = r ? this.leavesAt(r.data) : null;
      if (at === null) continue;
      if (this.pending) this.pending.push({ at, id });
      else this.queue.push({ at, id });
    }
    this.arm();
  }

  /** The kept records whose time in the range is over by `now` (an entry of a record changed since is checked against its data now). */
  takeDue(records: Map<string, RecordDto>, now: number): string[] {
    this.lastPass = now;
    const due: string[] = [];
    for (let top = this.queue.peek(); top && top.at < now; top = this.queue.peek()) {
      this.queue.pop();
      const r = records.get(top.id);
      if (!r || !this.leavesAt) continue;
      const at = this.leavesAt(r.data);
      if (at === null || at < now) due.push(top.id);
    }
    return [...new Set(due)];
  }

  /** Sets the one timer for the soonest record (none while the queue is built or empty). */
  arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const top = this.queue.peek();
    if (!this.leavesAt || this.pending || !top) return;
    // A record leaves once the clock is past its last instant in the range.
    const now = Date.now();
    const wait = Math.min(MAX_WAIT_MS, Math.max(0, top.at + 1 - now, this.lastPass + GAP_MS - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.onDue();
    }, wait);
  }
}
