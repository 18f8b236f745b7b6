import type { RecordDto } from '@common/schemas/records/record';
import { recordTimeReader } from '@common/time/recordTime';
import type { ViewerHead } from '../viewerStore';

/**
 * The time field the table orders by when no column is sorted: the source's time field, '' for
 * an append-only source without one (the received time), or null (server order, as before).
 */
export function defaultTimeOrder(dataSource: ViewerHead['dataSource'] | undefined): string | null {
  if (!dataSource) return null;
  if (dataSource.timeField) return dataSource.timeField;
  return dataSource.appendOnly ? '' : null;
}

/** Records newest first by the time field (else the time each arrived), the same reading retention uses; ties keep their order. */
export function newestFirst(records: RecordDto[], timeField: string): RecordDto[] {
  const timeOf = recordTimeReader(timeField || null);
  return records
    .map((r, i) => ({ r, i, t: timeOf(r.data, Date.parse(r.lastUpdated)) }))
    .sort((a, b) => b.t - a.t || a.i - b.i)
    .map((k) => k.r);
}
