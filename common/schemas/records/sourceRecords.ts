import { z } from 'zod';
import { WidgetFilter } from '../widgets/widget';

/** POST /api/data/sources/:sourceId/records/delete: every filter applies (AND); dryRun only counts. */
export const DeleteRecordsRequest = z
  .object({
    filters: z
      .array(WidgetFilter, { error: 'filters must be a list of {field, operator, value} (or {field, operator: "in", values})' })
      .min(1, 'Give at least one filter (to empty the source, PUT an empty array to its records)')
      .max(20, 'At most 20 filters'),
    dryRun: z.boolean({ error: 'dryRun must be true or false' }).default(false),
  })
  .strict();
export type DeleteRecordsRequest = z.input<typeof DeleteRecordsRequest>;

export interface DeleteRecordsResult {
  /** Records the filters match. */
  matched: number;
  /** Records removed (0 on a dry run). */
  deleted: number;
  dryRun: boolean;
}

/** `?primaryKey=`: the key to use while the source has none yet (other parameters, such as a `?key=` credential, are the guard's). */
export const ReplaceRecordsQuery = z.object({ primaryKey: z.string().min(1).max(500).optional() });

export interface ReplaceRecordsResult {
  sourceId: string;
  /** Records the source holds now. */
  stored: number;
  /** Records of the old set that are gone. */
  removed: number;
  /** Whether readers saw the old set or the new one, never a mix (a transaction: replica sets, sharded clusters, the offline engine). */
  atomic: boolean;
  revision: number;
}

export interface DeleteRecordResult {
  deleted: 1;
  recordId: string;
}
