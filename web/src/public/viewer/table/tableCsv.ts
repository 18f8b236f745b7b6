import { CSV_OPTIONS, csvCell } from '@common/csv';
import { fieldLabel } from '@common/formats';
import { fieldValue } from '@common/cells';
import { LAST_UPDATED, specFormat } from './tableModel';
import type { TableSnapshot } from '../viewerExport';

/**
 * The CSV of what a table shows (its filter, sort and visible columns, "Show All Fields" included):
 * headers by one name per field, values in each column's format, formulas neutralised, RFC 4180 with
 * a BOM — the rules of the server's export (common/csv.ts). This module and the CSV writer load on
 * the first export: most visits never export, and they would weigh on every first visit.
 */
export async function tableCsv({ specs, rows }: TableSnapshot, labels: Record<string, string>): Promise<string> {
  const { stringify } = await import('csv-stringify/browser/esm/sync');
  const header = specs.map((s) => csvCell('', s.field === LAST_UPDATED ? 'Last Updated' : fieldLabel(s.field, labels)));
  const body = rows.map((r) =>
    specs.map((s) => (s.field === LAST_UPDATED ? new Date(r.lastUpdated).toISOString() : csvCell(s.field, fieldValue(r.data, s.field), specFormat(s)))),
  );
  return stringify([header, ...body], { ...CSV_OPTIONS });
}
