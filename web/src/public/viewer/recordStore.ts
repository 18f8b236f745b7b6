import type { StoreApi } from 'zustand';
import type { RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { RecordDto } from '@common/schemas/records/record';

/**
 * The records of one data source as a live store keeps them: a Map keyed by recordId updated in
 * place (a pushed change swaps one record object and bumps `version`, so a row or card that selects
 * its own record re-renders alone) plus the server order. The viewer's store and the widget
 * builder's preview store both hold this state and change it only through `recordKeeper`.
 */
export interface RecordsState {
  records: Map<string, RecordDto>;
  /** recordIds in server order (live additions at the end). */
  order: string[];
  /** Bumped on every change of `records` or `order`. */
  version: number;
  /** What the change to `version` touched, for incremental widget totals; null: start over. */
  change: RecordsChange | null;
  /** The source revision the records reflect. */
  revision: number;
}

export interface RecordsChange {
  version: number;
  upserted: string[];
  removed: string[];
  /** The records these ids held before the change (none for a new record). */
  previous: Map<string, RecordDto>;
}

/** No records yet. */
export const emptyRecords = (): Omit<RecordsState, 'version'> => ({ records: new Map(), order: [], change: null, revision: 0 });

/** The records of a state in server order. */
export function orderedRecords(s: Pick<RecordsState, 'records' | 'order'>): RecordDto[] {
  const out: RecordDto[] = [];
  for (const id of s.order) {
    const r = s.records.get(id);
    if (r) out.push(r);
  }
  return out;
}

export interface RecordKeeper<S extends RecordsState> {
  /**
   * Takes a full answer (records at `revision`), keeping unchanged record objects so their rows do
   * not re-render; `extra` is set in the same update (the viewer's head and status).
   */
  load(list: RecordDto[], revision: number, extra?: Partial<S>): void;
  /** Upserts pushed records by recordId in place; new ones are appended. */
  upserted(e: RecordsUpserted, extra?: Partial<S>): void;
  /** Removes pushed recordIds, or every record with `all`. */
  removed(e: RecordsRemoved, extra?: Partial<S>): void;
  /** Forgets every record (a new version without a change: widgets start over). */
  clear(extra?: Partial<S>): void;
}

/** The record-keeping of a zustand store whose state holds `RecordsState`. */
export function recordKeeper<S extends RecordsState>(store: StoreApi<S>): RecordKeeper<S> {
  const { getState: get } = store;
  // zustand merges a partial state; the cast keeps `S` generic (its other fields come in `extra`).
  const set = (patch: Partial<RecordsState>, extra?: Partial<S>) => store.setState({ ...extra, ...patch } as unknown as Partial<S>);
  return {
    load(list, revision, extra) {
      const old = get().records;
      const records = new Map<string, RecordDto>();
      const order: string[] = [];
      const upserted: string[] = [];
      const previous = new Map<string, RecordDto>();
      for (const r of list) {
        const prev = old.get(r.recordId);
        const same = prev && prev.revision === r.revision && prev.lastUpdated === r.lastUpdated;
        records.set(r.recordId, same ? prev : r);
        if (!same) {
          upserted.push(r.recordId);
          if (prev) previous.set(r.recordId, prev);
        }
        order.push(r.recordId);
      }
      const removed = [...old.keys()].filter((id) => !records.has(id));
      for (const id of removed) previous.set(id, old.get(id)!);
      const version = get().version + 1;
      set({ records, order, version, change: { version, upserted, removed, previous }, revision }, extra);
    },
    upserted(e, extra) {
      const { records, order } = get();
      let added = false;
      const previous = new Map<string, RecordDto>();
      for (const r of e.records) {
        const prev = records.get(r.recordId);
        if (!prev) {
          order.push(r.recordId);
          added = true;
        } else if (!previous.has(r.recordId)) previous.set(r.recordId, prev);
        records.set(r.recordId, r);
      }
      const upserted = [...new Set(e.records.map((r) => r.recordId))];
      const version = get().version + 1;
      set({ version, change: { version, upserted, removed: [], previous }, order: added ? [...order] : order, revision: e.revision }, extra);
    },
    removed(e, extra) {
      if (e.all) {
        set({ records: new Map(), order: [], version: get().version + 1, change: null, revision: e.revision }, extra);
        return;
      }
      const { records } = get();
      const gone = new Set(e.recordIds);
      const previous = new Map<string, RecordDto>();
      for (const id of gone) {
        const prev = records.get(id);
        if (prev) previous.set(id, prev);
        records.delete(id);
      }
      const version = get().version + 1;
      set({ order: get().order.filter((id) => !gone.has(id)), version, change: { version, upserted: [], removed: [...previous.keys()], previous }, revision: e.revision }, extra);
    },
    clear(extra) {
      set({ records: new Map(), order: [], version: get().version + 1, change: null }, extra);
    },
  };
}
