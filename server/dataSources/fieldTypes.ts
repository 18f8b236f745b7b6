/**
 * The type model's server side: each source's field types, inferred from a sample of its records
 * (common/types/infer) and stored on the source (`fieldTypes`, keys escaped). Nothing on the write
 * path: it follows the `records.upserted` events, batched per source (at most one pass per
 * `FIELD_TYPES_BATCH_MS`), and writes one `$set` only when the types change. A source met for the
 * first time in this process is sampled from its stored records (the newest `BACKFILL_SAMPLE`), and
 * at start every source holding records but no types yet is sampled the same way (backfill).
 * Types a person set (`fieldTypesSet`) are kept apart and win (the presenter merges them).
 */
import type { DateOrder, FieldType } from '@common/schemas/dataSource';
import { sameTypes, TypeSampler } from '@common/types/infer';
import type { AppContext, DataSourceDoc, RecordDoc } from '../core';
import { decodeKeys, encodeKeys, presentDataSource, presentRecord, Slicer } from '../core';

/** Records' changes of one source are read together, at most once per this many milliseconds. */
export const FIELD_TYPES_BATCH_MS = 300;
/** Stored records sampled when a source is met first (newest first). */
export const BACKFILL_SAMPLE = 1_000;
/** Stored records read a batch when a source is sampled. */
const SAMPLE_READ_BATCH = 200;
/** Records waiting for a pass, per source: beyond this a burst is sampled, not read whole. */
const MAX_PENDING = 5_000;

interface SourceTypes {
  /** Null until the source was read and its stored records sampled. */
  known: Known | null;
  pending: Record<string, unknown>[];
  timer: NodeJS.Timeout | null;
}

/** What the service knows of a source once met: its sample, the inferred types stored, and the settings inference reads. */
interface Known {
  sampler: TypeSampler;
  stored: Record<string, FieldType>;
  dateOrder: DateOrder;
  timeField: string | null;
}

export interface FieldTypesService {
  /** Runs the waiting passes now and resolves once every pass is done (tests compare views at rest). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export function startFieldTypes(ctx: AppContext): FieldTypesService {
  const sources = new Map<string, SourceTypes>();
  let closed = false;
  /** Passes run one at a time, so two never write the same source's types. */
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (fn: () => Promise<void>) => {
    queue = queue.then(fn).catch((e) => ctx.log.error('field types: inference failed', e));
    return queue;
  };

  const schedule = (id: string, st: SourceTypes) => {
    if (st.timer || closed) return;
    st.timer = setTimeout(() => {
      st.timer = null;
      void enqueue(() => pass(id));
    }, FIELD_TYPES_BATCH_MS);
    st.timer.unref?.();
  };

  /** One pass over a source's waiting records: no database read once the source is known, one write when its types change. */
  async function pass(id: string): Promise<void> {
    const st = sources.get(id);
    if (!st || closed) return;
    if (!st.known) {
      const ds = await ctx.models.DataSource.findById(id).lean<DataSourceDoc>();
      if (!ds) {
        sources.delete(id);
        return;
      }
      // The stored sample holds the waiting records too.
      st.known = await know(ctx, ds);
      st.pending = [];
    }
    const slicer = new Slicer();
    for (const data of st.pending.splice(0)) {
      st.known.sampler.add(data);
      await slicer.tick();
    }
    await storeTypes(ctx, id, st.known);
  }

  const offUpserted = ctx.events.on('records.upserted', (e) => {
    if (closed) return;
    let st = sources.get(e.dataSourceId);
    if (!st) sources.set(e.dataSourceId, (st = { known: null, pending: [], timer: null }));
    for (const r of e.records) if (st.pending.length < MAX_PENDING) st.pending.push(r.data);
    schedule(e.dataSourceId, st);
  });
  // A new day/month order or time field can change what the sampled values are.
  const offChanged = ctx.events.on('datasource.changed', ({ dataSource: ds }) => {
    const st = sources.get(ds.id);
    if (!st?.known || closed || (st.known.dateOrder === ds.dateOrder && st.known.timeField === ds.timeField)) return;
    st.known.dateOrder = ds.dateOrder;
    st.known.timeField = ds.timeField;
    schedule(ds.id, st);
  });
  const offRemoved = ctx.events.on('datasource.removed', (e) => {
    const st = sources.get(e.dataSourceId);
    if (st?.timer) clearTimeout(st.timer);
    sources.delete(e.dataSourceId);
  });

  // Backfill: sources with records and no types yet (stored before the type model, or a restart mid-batch).
  void enqueue(async () => {
    const docs = await ctx.models.DataSource.find({ recordCount: { $gt: 0 } }).lean<DataSourceDoc[]>();
    for (const ds of docs) {
      if (closed) return;
      if (Object.keys(ds.fieldTypes ?? {}).length > 0 || sources.has(String(ds._id))) continue;
      const known = await know(ctx, ds);
      sources.set(String(ds._id), { known, pending: [], timer: null });
      await storeTypes(ctx, String(ds._id), known);
    }
  });

  return {
    async settle() {
      // A write is answered before its records are announced (on the next turn of the loop): a
      // caller settling right after a write waits for that announcement first.
      await new Promise((resolve) => setImmediate(resolve));
      for (const [id, st] of sources) {
        if (!st.timer) continue;
        clearTimeout(st.timer);
        st.timer = null;
        void enqueue(() => pass(id));
      }
      await queue;
    },
    async close() {
      closed = true;
      offUpserted();
      offChanged();
      offRemoved();
      for (const st of sources.values()) if (st.timer) clearTimeout(st.timer);
      await queue;
    },
  };
}

/** A source met: a sampler over its newest stored records (one read), its stored types and settings. */
async function know(ctx: AppContext, ds: DataSourceDoc): Promise<Known> {
  return {
    sampler: await sampleStored(ctx, ds),
    stored: decodeKeys((ds.fieldTypes ?? {}) as Record<string, FieldType>),
    dateOrder: ds.dateOrder === 'dmy' ? 'dmy' : 'mdy',
    timeField: ds.timeField ?? null,
  };
}

/** A sampler over the source's newest stored records (one read). */
async function sampleStored(ctx: AppContext, ds: DataSourceDoc): Promise<TypeSampler> {
  const sampler = new TypeSampler();
  // Read in a few batches (each decoded in one go on this thread) and sampled in slices: wide records make both long.
  const cursor = ctx.models.Record.find({ dataSourceId: ds._id }).sort({ _id: -1 }).limit(BACKFILL_SAMPLE).lean<RecordDoc[]>().cursor({ batchSize: SAMPLE_READ_BATCH });
  const docs: RecordDoc[] = [];
  for await (const doc of cursor as AsyncIterable<RecordDoc>) docs.push(doc);
  const slicer = new Slicer();
  for (let i = docs.length - 1; i >= 0; i--) {
    sampler.add(presentRecord(docs[i]).data);
    await slicer.tick();
  }
  return sampler;
}

/**
 * Stores the sampler's types when they differ from the stored ones (fields no longer in the sample
 * keep their stored type) and tells the console and viewers.
 */
async function storeTypes(ctx: AppContext, id: string, known: Known): Promise<void> {
  const types = { ...known.stored, ...known.sampler.types({ dateOrder: known.dateOrder, timeField: known.timeField }) };
  if (sameTypes(known.stored, types)) return;
  const updated = await ctx.models.DataSource.findByIdAndUpdate(id, { $set: { fieldTypes: encodeKeys(types) } }, { returnDocument: 'after' }).lean<DataSourceDoc>();
  known.stored = types;
  // Viewers redraw with the new types (the public view's head carries them).
  if (updated) ctx.events.emit('datasource.changed', { dataSource: presentDataSource(updated), metadataChanged: true });
}
