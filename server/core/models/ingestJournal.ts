import crypto from 'node:crypto';
import type mongoose from 'mongoose';
import type { DataSourceDoc, Models } from './index';

/**
 * A data source's recordCount, fields and revision are derived from its records. Every change of
 * its records is journalled: an entry is written into the source (with the revision bump) before
 * the first record write and removed after the recount. A process killed in between leaves the
 * entry behind, and the next start repairs that source from its records.
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

/** Journals a change of a source's records and bumps its revision, in one write. Null when the source is gone. */
export async function openChange(models: Models, dataSourceId: Id): Promise<OpenChange | null> {
  const token = crypto.randomBytes(8).toString('hex');
  const doc = await models.DataSource.findByIdAndUpdate(
    dataSourceId,
    { $inc: { revision: 1 }, $set: { [entry(token)]: new Date() } },
    { returnDocument: 'after' },
  ).lean<DataSourceDoc>();
  return doc ? { token, revision: doc.revision } : null;
}

/**
 * Counts the source's records and stores the count unless a later count began meanwhile
 * (`countSeq`): under concurrent changes the last count started is the one that stays, and it
 * started after every finished write. Optionally adds field names and closes journal entries.
 */
export async function recount(
  models: Models,
  dataSourceId: Id,
  opts: { newFields?: string[]; tokens?: string[] } = {},
): Promise<{ after: DataSourceDoc | null; recordCount: number }> {
  const { DataSource, Record } = models;
  const started = await DataSource.findByIdAndUpdate(
    dataSourceId,
    { $inc: { countSeq: 1 }, ...(opts.newFields?.length ? { $addToSet: { fields: { $each: opts.newFields } } } : {}) },
    { returnDocument: 'after' },
  ).lean<DataSourceDoc>();
  if (!started) return { after: null, recordCount: 0 };
  const recordCount = await Record.countDocuments({ dataSourceId });
  const tokens = opts.tokens ?? [];
  const close = tokens.length ? { $unset: Object.fromEntries(tokens.map((t) => [entry(t), ''])) } : {};
  let after = await DataSource.findOneAndUpdate(
    { _id: dataSourceId, countSeq: started.countSeq },
    { $set: { recordCount }, ...close },
    { returnDocument: 'after' },
  ).lean<DataSourceDoc>();
  // A later count owns recordCount now; our entry still closes.
  if (!after) after = await DataSource.findByIdAndUpdate(dataSourceId, close, { returnDocument: 'after' }).lean<DataSourceDoc>();
  return { after, recordCount };
}

/** Ends journalled changes (a write, and the retention removal that followed it under the same lock): new field names, one recount, the entries removed. */
export const closeChange = (models: Models, dataSourceId: Id, change: OpenChange | OpenChange[], newFields: string[] = []) =>
  recount(models, dataSourceId, { newFields, tokens: [change].flat().map((c) => c.token) });

/** Every field name the source's records carry, in first-seen order (custom_fields stays one value). */
async function fieldsOfRecords(models: Models, dataSourceId: Id): Promise<string[]> {
  const seen = new Set<string>();
  const cursor = models.Record.find({ dataSourceId }).sort({ _id: 1 }).lean().cursor({ batchSize: 1000 });
  for await (const r of cursor) for (const k of (r as { keyOrder?: string[] }).keyOrder ?? []) if (k !== 'custom_fields') seen.add(k);
  return [...seen];
}

/** A data source repaired at start, with the record count derived from its records. */
export interface RepairedSource {
  sourceId: string;
  name: string;
  recordCount: number;
}

/**
 * At start: sources with a journal entry left by a killed process get their count, fields and
 * revision re-derived from their records. Answers the repaired sources.
 */
export async function repairInterruptedChanges(models: Models): Promise<RepairedSource[]> {
  const { DataSource, Record } = models;
  const repaired: RepairedSource[] = [];
  for (const ds of await DataSource.find().lean<DataSourceDoc[]>()) {
    const tokens = Object.keys((ds.ingestJournal ?? {}) as object);
    if (!tokens.length) continue;
    const known = new Set(ds.fields ?? []);
    const missing = (await fieldsOfRecords(models, ds._id)).filter((f) => !known.has(f));
    const recordCount = await Record.countDocuments({ dataSourceId: ds._id });
    await DataSource.updateOne(
      { _id: ds._id },
      {
        // The bump makes every viewer's next delta a gap: they refetch what the killed change wrote.
        $inc: { revision: 1, countSeq: 1 },
        $set: { recordCount },
        $unset: Object.fromEntries(tokens.map((t) => [entry(t), ''])),
        ...(missing.length ? { $addToSet: { fields: { $each: missing } } } : {}),
      },
    );
    repaired.push({ sourceId: ds.sourceId, name: ds.name, recordCount });
  }
  return repaired;
}
