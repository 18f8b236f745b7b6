import type { AppContext } from '../context';
import type { DataSourceDoc } from '../models';
import { presentDataSource } from '../presenters';

/** Removes records of a source by recordId, bumps its revision and announces the removal. */
export async function removeRecords(ctx: AppContext, ds: DataSourceDoc, recordIds: string[]): Promise<number> {
  if (!recordIds.length) return 0;
  const { Record, DataSource } = ctx.models;
  const res = await Record.deleteMany({ dataSourceId: ds._id, recordId: { $in: recordIds } });
  const removed = res.deletedCount ?? 0;
  // The count is recounted, as ingest does, so it never drifts.
  const recordCount = await Record.countDocuments({ dataSourceId: ds._id });
  const after = await DataSource.findByIdAndUpdate(ds._id, { $inc: { revision: 1 }, $set: { recordCount } }, { returnDocument: 'after' }).lean<DataSourceDoc>();
  if (!after) return removed;
  ctx.events.emit('records.removed', { dataSourceId: String(ds._id), sourceId: ds.sourceId, revision: after.revision, total: after.recordCount, recordIds, all: false });
  ctx.events.emit('datasource.changed', { dataSource: presentDataSource(after) });
  return removed;
}
