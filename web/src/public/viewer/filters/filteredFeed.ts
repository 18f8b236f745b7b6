import type { RecordTest } from '@common/filterBar';
import type { RecordDto } from '@common/schemas/record';
import type { RecordsChange } from '../recordStore';
import { SLICE_FROM, SLICE_MS, type SlicingOptions } from '../widgets/slicedRecount';
import { followsChange, type RecordFeed } from '../widgets/widgetContext';

type Snapshot = ReturnType<RecordFeed['get']>;

/** Records tested between two looks at the clock. */
const CHECK_EVERY = 2048;
/** The longest a timer can wait (setTimeout's limit); a later instant is waited for in steps. */
const MAX_WAIT_MS = 2 ** 31 - 1;

/** When a record stops passing the filters as time goes on (agingOf in common/filterBar.ts); null: never. */
export type LeavesAt = (data: Record<string, unknown>) => number | null;

const nextTask = (step: () => void) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => step();
  channel.port2.postMessage(null);
};

/**
 * The viewer's records as the dashboard's filter bar narrows them: a record feed (what every
 * widget, table and bucket board reads) over the viewer's store holding only the records that pass
 * the filters' test. A pushed change is applied record by record (a record entering, changing in,
 * or leaving the filter is a change of this feed, so widget totals stay incremental). A new test —
 * the viewer changed a filter — filters every record again: at once below SLICE_FROM records, in
 * slices of about SLICE_MS above, keeping the previous records on screen until it is done, so no
 * task holds the page for long. With a relative date range ("last 15 minutes"), each record leaves
 * at the instant it ages out of the range, as a change of its own (one timer for the soonest; no
 * refilter). Versions are its own and only grow, whatever the test.
 */
export class FilteredFeed implements RecordFeed {
  private test: RecordTest | null = null;
  private leavesAt: LeavesAt | null = null;
  /** The kept records with the instant each leaves, soonest first from `agingHead` on (entries of records changed since are checked when due). */
  private aging: { at: number; id: string }[] = [];
  private agingHead = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private snap: Snapshot = { records: new Map(), order: [], version: 0, change: null };
  /** The store version the records reflect; null: filter everything again. */
  private seen: number | null = null;
  private cancel: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();
  /** Refilters done in slices (tests and the benchmark read it). */
  slicedPasses = 0;

  constructor(
    readonly base: RecordFeed,
    private readonly slicing: SlicingOptions = {},
  ) {}

  /**
   * Narrows by a new test (null: every record); the records follow at once or after a sliced pass.
   * `leavesAt` says when a kept record ages out of the test's relative date ranges.
   */
  setTest(test: RecordTest | null, leavesAt: LeavesAt | null = null): void {
    if (test === this.test) return;
    this.test = test;
    this.leavesAt = test ? leavesAt : null;
    this.aging = [];
    this.agingHead = 0;
    this.arm();
    this.cancel?.();
    this.cancel = null;
    this.seen = null;
    this.notify();
  }

  /** Whether a refilter is under way (the old records are still shown). */
  get filtering(): boolean {
    return this.cancel !== null;
  }

  get = (): Snapshot => {
    this.sync();
    return this.snap;
  };

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    const off = this.base.subscribe(listener);
    return () => {
      off();
      this.listeners.delete(listener);
    };
  };

  private notify() {
    for (const l of [...this.listeners]) l();
  }

  private publish(records: Map<string, RecordDto>, order: string[], change: Omit<RecordsChange, 'version'> | null, seen: number) {
    const version = this.snap.version + 1;
    this.snap = { records, order, version, change: change ? { ...change, version } : null };
    this.seen = seen;
    if (!this.leavesAt) return;
    // Every record is new to the aging list after a refilter; after a change, those it upserted.
    if (!change) {
      this.aging = [];
      this.agingHead = 0;
    }
    this.track(change ? change.upserted : order);
  }

  /** Adds records to the aging list (in order of leaving) and sets the timer for the soonest. */
  private track(ids: readonly string[]) {
    const leavesAt = this.leavesAt!;
    const added: { at: number; id: string }[] = [];
    for (const id of ids) {
      const r = this.snap.records.get(id);
      const at = r ? leavesAt(r.data) : null;
      if (at !== null) added.push({ at, id });
    }
    // A few pushed records (mostly the newest: near the end) go in by binary search; many, by one sort.
    if (added.length >= 64) {
      this.aging = [...this.aging.slice(this.agingHead), ...added].sort((a, b) => a.at - b.at);
      this.agingHead = 0;
    } else for (const e of added) insertSorted(this.aging, this.agingHead, e);
    this.arm();
  }

  private arm() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.leavesAt || this.agingHead >= this.aging.length) return;
    // A record leaves once the clock is past its last instant in the range.
    const wait = Math.min(MAX_WAIT_MS, Math.max(0, this.aging[this.agingHead].at + 1 - Date.now()));
    this.timer = setTimeout(this.expire, wait);
  }

  /** The records whose time in the range is over leave, as one change (a refilter under way will leave them out itself). */
  private expire = () => {
    this.timer = null;
    this.sync();
    if (this.cancel || this.seen === null || !this.leavesAt) return;
    const now = Date.now();
    const records = this.snap.records;
    const removed: string[] = [];
    const previous = new Map<string, RecordDto>();
    while (this.agingHead < this.aging.length && this.aging[this.agingHead].at < now) {
      const { id } = this.aging[this.agingHead++];
      const r = records.get(id);
      if (!r) continue;
      // Changed since it was listed: it may stay longer (its newer entry is further down).
      const at = this.leavesAt(r.data);
      if (at !== null && at >= now) continue;
      previous.set(id, r);
      records.delete(id);
      removed.push(id);
    }
    // The passed entries go once they are most of the list.
    if (this.agingHead > 1024 && this.agingHead * 2 > this.aging.length) {
      this.aging = this.aging.slice(this.agingHead);
      this.agingHead = 0;
    }
    if (removed.length) {
      const version = this.snap.version + 1;
      this.snap = { records, order: this.snap.order.filter((id) => records.has(id)), version, change: { upserted: [], removed, previous, version } };
      this.notify();
    }
    this.arm();
  };

  private sync(): void {
    if (this.cancel) return;
    const b = this.base.get();
    if (this.seen === b.version) return;
    const follows = this.seen !== null && followsChange(b, this.seen);
    if (!this.test) {
      // Nothing narrows: the store's own records, under this feed's versions.
      this.publish(b.records, b.order, follows ? b.change : null, b.version);
      return;
    }
    if (follows && this.snap.records !== b.records) return this.applyChange(b, this.test);
    if (b.records.size < SLICE_FROM) {
      const { records, order } = filterAll(b.order, b.records, this.test);
      this.publish(records, order, null, b.version);
      return;
    }
    this.refilterInSlices(this.test);
  }

  /** One pushed change of the store, as a change of the filtered records. */
  private applyChange(b: Snapshot, test: RecordTest) {
    const records = this.snap.records;
    const change = b.change!;
    const upserted: string[] = [];
    const removed: string[] = [];
    const previous = new Map<string, RecordDto>();
    let membership = false;
    const drop = (id: string) => {
      const had = records.get(id);
      if (!had) return;
      previous.set(id, had);
      records.delete(id);
      removed.push(id);
      membership = true;
    };
    for (const id of change.removed) drop(id);
    for (const id of change.upserted) {
      const r = b.records.get(id);
      if (!r || !test(r.data)) {
        drop(id);
        continue;
      }
      const had = records.get(id);
      if (had) previous.set(id, had);
      else membership = true;
      records.set(id, r);
      upserted.push(id);
    }
    const order = membership ? b.order.filter((id) => records.has(id)) : this.snap.order;
    this.publish(records, order, { upserted, removed, previous }, b.version);
  }

  private refilterInSlices(test: RecordTest) {
    const { schedule = nextTask, sliceMs = SLICE_MS, now = () => performance.now() } = this.slicing;
    let cancelled = false;
    let ids: string[] | null = null;
    let source: Map<string, RecordDto> | null = null;
    let version = 0;
    const kept: string[] = [];
    const records = new Map<string, RecordDto>();
    let next = 0;
    const step = () => {
      if (cancelled) return;
      if (!ids) {
        const b = this.base.get();
        ids = [...b.order];
        source = b.records;
        version = b.version;
      }
      const end = now() + sliceMs;
      while (next < ids.length) {
        const stop = Math.min(ids.length, next + CHECK_EVERY);
        for (; next < stop; next++) {
          const r = source!.get(ids[next]);
          if (r && test(r.data)) {
            kept.push(ids[next]);
            records.set(ids[next], r);
          }
        }
        if (now() >= end) break;
      }
      if (next < ids.length) return schedule(step);
      this.cancel = null;
      this.slicedPasses++;
      this.publish(records, kept, null, version);
      // Changes made meanwhile are applied (or filtered again) when the listeners read.
      this.notify();
    };
    this.cancel = () => {
      cancelled = true;
    };
    schedule(step);
  }
}

/** Puts an entry in its place in a list sorted from `from` on (found by binary search). */
function insertSorted(list: { at: number; id: string }[], from: number, e: { at: number; id: string }) {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].at <= e.at) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, e);
}

/** The records that pass, in the store's order. */
function filterAll(order: readonly string[], all: Map<string, RecordDto>, test: RecordTest): { records: Map<string, RecordDto>; order: string[] } {
  const records = new Map<string, RecordDto>();
  const kept: string[] = [];
  for (const id of order) {
    const r = all.get(id);
    if (r && test(r.data)) {
      records.set(id, r);
      kept.push(id);
    }
  }
  return { records, order: kept };
}
