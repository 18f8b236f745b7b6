import { createContext } from 'react';
import { CSV_OPTIONS, csvCell } from '@common/csv';
import { fieldLabel } from '@common/formats';
import type { RecordDto } from '@common/schemas/records/record';
import { fieldValue } from '@common/cells';
import { LAST_UPDATED, specFormat, type ColumnSpec } from './table/tableModel';

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

/**
 * The CSV of what a table shows (its filter, sort and visible columns, "Show All Fields" included):
 * headers by one name per field, values in each column's format, formulas neutralised, RFC 4180 with
 * a BOM — the rules of the server's export (common/csv.ts). The CSV writer loads on the first
 * export: most visits never export, and it would weigh on every first visit.
 */
export async function tableCsv({ specs, rows }: TableSnapshot, labels: Record<string, string>): Promise<string> {
  const { stringify } = await import('csv-stringify/browser/esm/sync');
  const header = specs.map((s) => csvCell('', s.field === LAST_UPDATED ? 'Last Updated' : fieldLabel(s.field, labels)));
  const body = rows.map((r) =>
    specs.map((s) => (s.field === LAST_UPDATED ? new Date(r.lastUpdated).toISOString() : csvCell(s.field, fieldValue(r.data, s.field), specFormat(s)))),
  );
  return stringify([header, ...body], { ...CSV_OPTIONS });
}
