import type { Schema, SchemaOptions } from 'mongoose';

const KEY = 'livedashLiveness' as keyof SchemaOptions;

/**
 * Marks what in a collection only says which processes are alive — heartbeats, leases, worker
 * beats, renewed every few seconds: such a write alone does not call for a snapshot of the
 * offline engine's data (db/dataKeeper), or an idle server would write one every 5 s. The
 * collection is still kept with the rest. `paths`: only updates that set nothing but these
 * fields (e.g. `lease.until`); none: every write of the collection.
 */
export function markLiveness(schema: Schema, paths?: string[]): void {
  schema.set(KEY, (paths ?? true) as never);
}

/** What markLiveness said of a schema. */
export function livenessOf(schema: Schema): true | string[] | undefined {
  return schema.get(KEY) as true | string[] | undefined;
}
