import crypto from 'node:crypto';
import type mongoose from 'mongoose';
import type { DataSourceDoc, Models } from './index';
import { goneOwners } from './serverProcess';

/**
 * A data source's recordCount, fields and revision are derived from its records. Every change of
 * its records is journalled: an entry is written into the source (with the revision bump) before
 * the first record write and removed after the recount. A process killed in between leaves the
 * entry behind, and the next start repairs that source from its records (a full count: the
 * killed change's increment never landed). An entry names the run that opened it
 * (models/serverProcess): a start repairs only the entries of runs that are gone.
 */

type Id = mongoose.Types.ObjectId;

export interface OpenChange {
  token: string;
  /** The revision this change's records carry. */
  revision: number;
}

const entry = (token: string) => `ingestJournal.${token}`;

/**
 * The revision whose record changes are all written: the source's revision less the changes still
 * under way (each took one revision when it opened). A client that starts from a read carrying it
 * still applies the pushed delta of a change that was being written during the read. Exact while
 * a source's changes close in the order they opened (one process serialises them per source).
 */
export function settledRevision(ds: Pick<DataSourceDoc, 'revision' | 'ingestJournal'>): number {
  return Math.max(0, (ds.revision ?? 0) - Object.keys((ds.ingestJournal ?? {}) as object).length);
}

/**
 * Journals a change of a source's records and bumps its revision, in one write (and `countSeq`:
 * a reconciling count started before it does not store its count). Null when the source is gone.
 */
export async function openChange(models: Models, dataSourceId: Id): Promise<OpenChange | null> {
  const token = crypto.randomBytes(8).toString('hex');
  const doc = await models.DataSource.findByIdAndUpdate(
    dataSourceId,
    { $inc: { revision: 1, countSeq: 1 }, $set: { [entry(token)]: { at: new Date(), by: models.owner } } },
    { returnDocument: 'after' },
  ).lean<DataSourceDoc>();
  return doc ? { token, revision: doc.revision } : null;
}

/**
 * Ends journalled changes (a write, and the retention removal that followed it under the same
 * lock): the record count moves by what they inserted less what they deleted (the commands'
 * own counts, exact on every engine), new field names are added and the entries removed, in
 * one write. An increment, not a recount: counting a big source's records after every flush
 * costs a scan of its index each time, and increments from several processes add up without a
 * race. What an increment cannot see (an insert a killed process had sent, landing after the
 * repair at start) is put right by reconcileCount.
 */
export async function closeChange(
  models: Models,
  dataSourceId: Id,
  change: OpenChange | OpenChange[],
  counted: { added: number; newFields?: string[] },
): Promise<{ after: DataSourceDoc | null; recordCount: number }> {
  const tokens = [change].flat().map((c) => c.token);
  const after = await models.DataSource.findByIdAndUpdate(
    dataSourceId,
    {
      $inc: { recordCount: counted.added, countSeq: 1 },
      ...(tokens.length ? { $unset: Object.fromEntries(tokens.map((t) => [entry(t), ''])) } : {}),
      ...(counted.newFields?.length ? { $addToSet: { fields: { $each: counted.newFields } } } : {}),
    },
    { returnDocument: 'after' },
  ).lean<DataSourceDoc>();
  return { after, recordCount: after?.recordCount ?? 0 };
}

/**
 * Counts a source's records and stores the count — only if no change of its records was open when
 * the count began and none opened or closed until it is stored (`countSeq` unchanged): so it never
 * overwrites an increment it did not see. Answers `busy` when a change got in the way (try again
 * later), `agrees` when the stored count was right, `stored` with the counts when it was not.
 */
export async function reconcileCount(models: Models, dataSourceId: Id): Promise<{ status: 'busy' | 'agrees' } | { status: 'stored'; was: number; now: number }> {
  const before = await models.DataSource.findById(dataSourceId).lean<DataSourceDoc>();
  if (!before) return { status: 'agrees' };
  if (Object.keys((before.ingestJournal ?? {}) as object).length) return { status: 'busy' };
  const recordCount = await models.Record.countDocuments({ dataSourceId });
  const was = before.recordCount ?? 0;
  if (recordCount === was) return { status: 'agrees' };
  const res = await models.DataSource.updateOne({ _id: dataSourceId, countSeq: before.countSeq ?? 0 }, { $set: { recordCount } });
  return res.modifiedCount === 1 ? { status: 'stored', was, now: recordCount } : { status: 'busy' };
}

/** Every field name the source's records carry, in first-seen order (custom_fields stays one value). */
async function fieldsOfRecords(models: Models, dataSourceId: Id): Promise<string[]> {
  const seen = new Set<string>();
  const cursor = models.Record.find({ dataSourceId }).sort({ _id: 1 }).lean().cursor({ batchSize: 1000 });
  for await (const r of cursor) for (const k of (r as { keyOrder?: string[] }).keyOrder ?? []) if (k !== 'custom_fields') seen.add(k);
  return [...seen];
}

/** A data source repaired at start, with the record count derived from its records. */
export interface RepairedSource {
  id: string;
  sourceId: string;
  name: string;
  recordCount: number;
}

/**
 * At start: sources with a journal entry left by a killed process get their count, fields and
 * revision re-derived from their records. A source with a change of a live run under way (another
 * process, ingesting while this one starts) is left to that run: a count now would miss its
 * inserts still to land, or its close would add them twice. Answers the repaired sources.
 */
export async function repairInterruptedChanges(models: Models): Promise<RepairedSource[]> {
  const { DataSource, Record } = models;
  const gone = await goneOwners(models.ServerProcess);
  const repaired: RepairedSource[] = [];
  for (const ds of await DataSource.find().lean<DataSourceDoc[]>()) {
    const journal = (ds.ingestJournal ?? {}) as { [token: string]: unknown };
    const tokens = Object.keys(journal);
    if (!tokens.length || !tokens.every((t) => gone(journal[t]))) continue;
    const known = new Set(ds.fields ?? []);
    const missing = (await fieldsOfRecords(models, ds._id)).filter((f) => !known.has(f));
    const recordCount = await Record.countDocuments({ dataSourceId: ds._id });
    await DataSource.updateOne(
      { _id: ds._id },
      {
        // The bump makes every viewer's next delta a gap: they refetch what the killed change wrote.
        $inc: { revision: 1 },
        $set: { recordCount },
        $unset: Object.fromEntries(tokens.map((t) => [entry(t), ''])),
        ...(missing.length ? { $addToSet: { fields: { $each: missing } } } : {}),
      },
    );
    repaired.push({ id: String(ds._id), sourceId: ds.sourceId, name: ds.name, recordCount });
  }
  return repaired;
}
