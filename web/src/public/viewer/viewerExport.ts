import { createContext } from 'react';
import type { RecordDto } from '@common/schemas/records/record';
import type { ColumnSpec } from './table/tableModel';

/** The id of the dashboard tab a view is drawn in (set by the viewer page around each tab). */
export const ViewerTabContext = createContext<string | null>(null);

/** What a table shows right now: its columns and its rows, filtered and sorted. */
export interface TableSnapshot {
  specs: ColumnSpec[];
  rows: RecordDto[];
}

const views = new Map<string, () => TableSnapshot>();

/** A table view tells the export what it shows; returns its removal. */
export function registerTableView(tabId: string, snapshot: () => TableSnapshot): () => void {
  views.set(tabId, snapshot);
  return () => {
    if (views.get(tabId) === snapshot) views.delete(tabId);
  };
}

/** The table view of a tab, if that tab draws one. */
export const tableViewOf = (tabId: string) => views.get(tabId) ?? null;
