import { createContext, useContext, useMemo, useRef, useSyncExternalStore } from 'react';
import type { StoreApi } from 'zustand';
import type { DateOrder, FieldType, KeyMappings } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/records/record';
import type { Aggregator } from '@common/widgets/aggregate';
import { NO_TYPING, type FieldTyping } from '@common/types/fieldTyping';
import type { RecordsState } from '../recordStore';
import type { Narrowing } from './emptyReason';
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
  /** The records before the dashboard's filter bar narrows them (widgets that opt out read these). */
  unfiltered?: RecordFeed;
  keyMappings: KeyMappings;
  /** The source's type model: how each field's values read, sort and export (common/types). */
  typing: FieldTyping;
  /** The source's time field: the date field of a widget that names none. */
  timeField?: string | null;
  dark: boolean;
  /** TV mode: larger type, no controls, tables and boards paging by themselves. */
  tv: boolean;
  /** TV mode's paging period in seconds (?page=N); 0 or absent: no paging. */
  pageSeconds?: number;
  /** What narrows every widget's records (a share link's locks, the filter bar), for an empty widget to say why. */
  narrowing?: Narrowing;
}

export const WidgetContext = createContext<WidgetEnv>({ feed: viewerFeed, keyMappings: {}, typing: NO_TYPING, dark: false, tv: false });
export const useWidgetEnv = () => useContext(WidgetContext);

/** A source's type model as one value that changes only when the types or the day/month order do. */
export function useTyping(fieldTypes: Record<string, FieldType> | undefined, dateOrder: DateOrder | undefined): FieldTyping {
  const key = fieldTypes ? JSON.stringify([fieldTypes, dateOrder ?? 'mdy']) : '';
  return useMemo(() => {
    if (!key) return NO_TYPING;
    const [types, order] = JSON.parse(key) as [Record<string, FieldType>, DateOrder];
    return { fieldTypes: types, dateOrder: order };
  }, [key]);
}

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
