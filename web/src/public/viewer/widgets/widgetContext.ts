import { createContext, useContext } from 'react';
import type { KeyMappings } from '@common/schemas/dataSource';
import type { RecordDto } from '@common/schemas/record';
import type { Aggregator } from '@common/widgets/aggregate';
import { useViewerStore, type RecordsChange } from '../viewerStore';

/** Records a widget reads: the viewer's live store, or the builder's preview of a source. */
export interface RecordFeed {
  get(): { records: Map<string, RecordDto>; version: number; change: RecordsChange | null };
  subscribe(listener: () => void): () => void;
}

export const viewerFeed: RecordFeed = { get: () => useViewerStore.getState(), subscribe: (l) => useViewerStore.subscribe(l) };

/** A fixed list of records (the builder's preview); a new list is a new feed. */
export function listFeed(list: RecordDto[]): RecordFeed {
  const state = { records: new Map(list.map((r) => [r.recordId, r])), version: 1, change: null };
  return { get: () => state, subscribe: () => () => {} };
}

export interface WidgetEnv {
  feed: RecordFeed;
  keyMappings: KeyMappings;
  dark: boolean;
  /** TV mode: larger type. */
  tv: boolean;
}

export const WidgetContext = createContext<WidgetEnv>({ feed: viewerFeed, keyMappings: {}, dark: false, tv: false });
export const useWidgetEnv = () => useContext(WidgetContext);

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
