import type { RecordTest } from '@common/filterBar';
import type { RecordDto } from '@common/schemas/record';
import type { RecordsChange } from '../recordStore';
import { SLICE_FROM, SLICE_MS, type SlicingOptions } from '../widgets/slicedRecount';
import { followsChange, type RecordFeed } from '../widgets/widgetContext';

type Snapshot = ReturnType<RecordFeed['get']>;

/** Records tested between two looks at the clock. */
const CHECK_EVERY = 2048;

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
 * task holds the page for long. Versions are its own and only grow, whatever the test.
 */
export class FilteredFeed implements RecordFeed {
  private test: RecordTest | null = null;
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

  /** Narrows by a new test (null: every record); the records follow at once or after a sliced pass. */
  setTest(test: RecordTest | null): void {
    if (test === this.test) return;
    this.test = test;
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
  }

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
