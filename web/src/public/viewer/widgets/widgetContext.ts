import { createContext, useContext, useRef, useSyncExternalStore } from 'react';
import type { StoreApi } from 'zustand';
import type { KeyMappings } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/record';
import type { Aggregator } from '@common/widgets/aggregate';
import type { RecordsState } from '../recordStore';
import { useViewerStore } from '../viewerStore';

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
  /** TV mode: larger type, no controls, tables and boards paging by themselves. */
  tv: boolean;
  /** TV mode's paging period in seconds (?page=N); 0 or absent: no paging. */
  pageSeconds?: number;
}

export const WidgetContext = createContext<WidgetEnv>({ feed: viewerFeed, keyMappings: {}, dark: false, tv: false });
export const useWidgetEnv = () => useContext(WidgetContext);

/** Whether the tab around a view is the one shown (the viewer keeps visited tabs mounted, hidden). */
export const TabShownContext = createContext(true);

/**
 * The version of the feed's records (a new one on every change). In a hidden tab it stays at the
 * version it had when the tab was hidden, so a table or board there does not sort, filter and group
 * every record again on each pushed change; shown again, it catches up once.
 */
export function useFeedVersion(): number {
  const { feed } = useWidgetEnv();
  const shown = useContext(TabShownContext);
  const last = useRef(0);
  return useSyncExternalStore(feed.subscribe, () => (shown ? (last.current = feed.get().version) : last.current));
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

/** Whether the feed's last change leads from version `seen` to the current one (so it can be applied record by record). */
export function followsChange(s: ReturnType<RecordFeed['get']>, seen: number | null): boolean {
  return seen !== null && s.change !== null && s.change.version === s.version && seen === s.version - 1;
}

/**
 * Brings an aggregator that reflects feed version `seen` (null: none yet) to the feed's state: the
 * change that made the current version moves only the records it touched (their old part out, the
 * new one in); a missed or unknown change recounts everything.
 */
export function syncAggregator(aggregator: Aggregator, s: ReturnType<RecordFeed['get']>, seen: number | null): void {
  if (seen === s.version) return;
  if (followsChange(s, seen)) {
    const { previous } = s.change!;
    for (const id of s.change!.removed) aggregator.update(previous.get(id)?.data, undefined);
    for (const id of s.change!.upserted) aggregator.update(previous.get(id)?.data, s.records.get(id)?.data);
  } else {
    aggregator.reset(s.records.values());
  }
}
