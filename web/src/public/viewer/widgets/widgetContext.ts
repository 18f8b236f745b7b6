import { createContext, useContext, useMemo, useRef, useSyncExternalStore } from 'react';
import type { StoreApi } from 'zustand';
import type { KeyMappings } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/record';
import { Aggregator, type AggregateSpec } from '@common/widgets/aggregate';
import type { RecordsState } from '../recordStore';
import { useViewerStore } from '../viewerStore';

function* dataOf(records: Map<string, RecordDto>): Iterable<Record<string, unknown>> {
  for (const r of records.values()) yield r.data;
}

/**
 * Records the widgets of a page read (KPIs, charts, tables, bucket boards): the viewer's live store,
 * or the builder's live preview of a source. Both are record stores (recordStore.ts).
 */
export interface RecordFeed {
  get(): Pick<RecordsState, 'records' | 'order' | 'version' | 'change'>;
  subscribe(listener: () => void): () => void;
}

/** The feed of a zustand store holding records. */
export function storeFeed<S extends RecordsState>(store: StoreApi<S>): RecordFeed {
  return { get: () => store.getState(), subscribe: (l) => store.subscribe(l) };
}

export const viewerFeed: RecordFeed = storeFeed(useViewerStore);

export interface WidgetEnv {
  feed: RecordFeed;
  keyMappings: KeyMappings;
  dark: boolean;
  /** TV mode: larger type. */
  tv: boolean;
}

export const WidgetContext = createContext<WidgetEnv>({ feed: viewerFeed, keyMappings: {}, dark: false, tv: false });
export const useWidgetEnv = () => useContext(WidgetContext);

/** The version of the feed's records (a new one on every change). */
export function useFeedVersion(): number {
  const { feed } = useWidgetEnv();
  return useSyncExternalStore(feed.subscribe, () => feed.get().version);
}

/** One record of the feed: a row or card selecting its own record re-renders alone when it changes. */
export function useFeedRecord(recordId: string): RecordDto | undefined {
  const { feed } = useWidgetEnv();
  return useSyncExternalStore(feed.subscribe, () => feed.get().records.get(recordId));
}

/** A field's label from the source's key mappings, or the field name. */
export function useFieldLabel(): (field: string | undefined) => string {
  const { keyMappings } = useWidgetEnv();
  return (field) => (field ? (keyMappings[field] ?? field) : '');
}

/**
 * Brings an aggregator that reflects feed version `seen` (null: none yet) to the feed's state: the
 * change that made the current version moves only the records it touched (their old part out, the
 * new one in); a missed or unknown change recounts everything.
 */
export function syncAggregator(aggregator: Aggregator, s: ReturnType<RecordFeed['get']>, seen: number | null): void {
  if (seen === s.version) return;
  if (seen !== null && s.change && s.change.version === s.version && seen === s.version - 1) {
    const { previous } = s.change;
    for (const id of s.change.removed) aggregator.update(previous.get(id)?.data, undefined);
    for (const id of s.change.upserted) aggregator.update(previous.get(id)?.data, s.records.get(id)?.data);
  } else {
    aggregator.reset(dataOf(s.records));
  }
}

/**
 * An aggregator kept in step with the feed: a change that touched some records moves only those
 * records' parts (common/widgets/aggregate.ts); a missed or unknown change recounts everything.
 * Returns the aggregator and the feed version it reflects (a new version re-renders the widget).
 */
export function useAggregator(spec: AggregateSpec): { aggregator: Aggregator; version: number } {
  const { feed } = useWidgetEnv();
  const key = JSON.stringify(spec);
  // The spec's content (key) decides when to start over, not its identity.
  const aggregator = useMemo(() => new Aggregator(JSON.parse(key) as AggregateSpec, () => dataOf(feed.get().records)), [key, feed]);
  const seen = useRef<{ aggregator: Aggregator; version: number } | null>(null);
  const sync = () => {
    const s = feed.get();
    const last = seen.current;
    syncAggregator(aggregator, s, last?.aggregator === aggregator ? last.version : null);
    seen.current = { aggregator, version: s.version };
    return s.version;
  };
  const version = useSyncExternalStore(feed.subscribe, sync);
  return { aggregator, version };
}
