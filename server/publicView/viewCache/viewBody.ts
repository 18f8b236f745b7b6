import type { DataSourceDto } from '@common/schemas/dataSource';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { compileLocked } from '@common/filterBar';
import { presentPublicHeadFromDtos, serializePublicView } from '../../dashboards';
import mongoose from 'mongoose';
import { type AppContext, type DataSourceDoc, type DomainEvents, inSlices, presentDataSource, presentRecord, type RecordDoc, SLICED_READ_BATCH } from '../../core';
import { SourceView } from './sourceView';

/** The domain events that change a public or share view; the cache listens to these (locally and from Redis). */
export const VIEW_EVENTS = ['records.upserted', 'records.removed', 'datasource.changed', 'datasource.removed', 'dashboard.changed', 'dashboard.removed', 'shareLink.revoked'] as const;
export type ViewEventName = (typeof VIEW_EVENTS)[number];
export type ViewEvent = { [K in ViewEventName]: { name: K; payload: DomainEvents[K] } }[ViewEventName];

/** A view's head: the dashboard and its source's description, without the records. */
export type PublicHead = ReturnType<typeof presentPublicHeadFromDtos>;

/** A body's pieces less its last byte (a view's closing brace, for a share link's part to follow). */
export function withoutLastByte(pieces: readonly Buffer[]): Buffer[] {
  const out = pieces.slice();
  const last = out[out.length - 1];
  out[out.length - 1] = last.subarray(0, last.length - 1);
  return out;
}

/** Where the records go in a public view's JSON text: a raw NUL never appears in JSON (JSON.stringify escapes it). */
const RECORDS_MARK = '\u0000';

/**
 * A public view's body as pieces: its head, the records (those passing `test`) written in slices,
 * its tail — the same bytes as `serializePublicView` of the whole, and so the same ETag on every process.
 */
export async function* bodyPieces(head: PublicHead, source: SourceView | null, test: ((data: Record<string, unknown>) => boolean) | null, revision: number): AsyncGenerator<Buffer | string> {
  const [before, after] = serializePublicView(head, RECORDS_MARK, revision, source?.truncated ?? false).split(RECORDS_MARK);
  yield before;
  if (source) yield* source.jsonPieces(test);
  else yield '[]';
  yield after;
}

/** The test of a link's locked filters under its source's types. */
export function lockedTest(filters: WidgetFilter[], source: Pick<DataSourceDto, 'fieldTypes' | 'dateOrder'> | null) {
  return compileLocked(filters, source ? { fieldTypes: source.fieldTypes, dateOrder: source.dateOrder } : undefined);
}

/** Applies a record or source event to a source view; false when the view must be rebuilt. */
export function applyToSource(view: SourceView, e: ViewEvent): boolean {
  switch (e.name) {
    case 'records.upserted':
      return view.upsert(e.payload.revision, e.payload.records);
    case 'records.removed':
      return view.remove(e.payload.revision, e.payload.recordIds, e.payload.all);
    case 'datasource.changed':
      view.setMeta(e.payload.dataSource);
      return true;
    case 'datasource.removed':
      return false;
    default:
      return true;
  }
}

/**
 * A source's presented records read from the database in slices: the driver parses a batch of
 * SLICED_READ_BATCH at a time and the loop turns between slices, whatever the source's size.
 */
export async function readSource(ctx: AppContext, dataSourceId: string): Promise<SourceView> {
  const limit = ctx.config.VIEW_MAX_RECORDS;
  const { DataSource, Record } = ctx.models;
  const ds = mongoose.isObjectIdOrHexString(dataSourceId) ? await DataSource.findById(dataSourceId).lean<DataSourceDoc>() : null;
  const view = new SourceView(dataSourceId, ds ? presentDataSource(ds) : null, limit);
  if (!ds) return view;
  let n = 0;
  const cursor = Record.find({ dataSourceId: ds._id }).sort({ _id: 1 }).limit(limit + 1).lean<RecordDoc>().cursor({ batchSize: SLICED_READ_BATCH });
  for await (const doc of inSlices(cursor)) {
    if (++n > limit) view.truncated = true;
    else view.add(presentRecord(doc));
  }
  return view;
}
