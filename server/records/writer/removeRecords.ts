import type { AppContext, DataSourceDoc } from '../../core';
import { closeChange, openChange, presentDataSource } from '../../core';
import { withSourceLock } from './sourceLock';

/** Removes records of a source by recordId, bumps its revision and announces the removal. */
export async function removeRecords(ctx: AppContext, ds: DataSourceDoc, recordIds: string[]): Promise<number> {
  if (!recordIds.length) return 0;
  return withSourceLock(ctx, String(ds._id), () => removeRecordsInLock(ctx, ds, recordIds));
}

/** removeRecords for a caller that already holds the source's lock (retention, record management). */
export async function removeRecordsInLock(ctx: AppContext, ds: DataSourceDoc, recordIds: string[]): Promise<number> {
  // Journalled like ingest: a process killed mid-way leaves the source to be recounted at start.
  const change = await openChange(ctx.models, ds._id);
  if (!change) return 0;
  const res = await ctx.models.Record.deleteMany({ dataSourceId: ds._id, recordId: { $in: recordIds } });
  const removed = res.deletedCount ?? 0;
  const { after, recordCount } = await closeChange(ctx.models, ds._id, change, { added: -removed });
  if (!after) return removed;
  ctx.events.emit('records.removed', { dataSourceId: String(ds._id), sourceId: ds.sourceId, revision: change.revision, total: recordCount, recordIds, all: false });
  ctx.events.emit('datasource.changed', { dataSource: presentDataSource(after) });
  return removed;
}
