import { z } from 'zod';
import { pathProblem } from '../paths';

/** Field key → display label. Keys are arbitrary field names (dots, `$`, unicode allowed). */
export const KeyMappings = z.record(z.string(), z.string().max(200));
export type KeyMappings = z.infer<typeof KeyMappings>;

/** The type model (common/types): what a field's values are, inferred per source and editable. */
export const FieldType = z.enum(['text', 'number', 'boolean', 'datetime', 'category']);
export type FieldType = z.infer<typeof FieldType>;

/** A field path (common/paths): `issue.id`, `values.0`, `a\.b` for a name containing a dot. */
export const FieldPath = z
  .string({ error: 'must be a field path such as "id" or "issue.id"' })
  .trim()
  .min(1, 'cannot be empty')
  .superRefine((path, ctx) => {
    const problem = pathProblem(path);
    if (problem) ctx.addIssue({ code: 'custom', message: `the path ${problem}` });
  });

/** How an update of a known key lands: the whole record replaced, or only the fields sent. */
export const UpdateMode = z.enum(['replace', 'merge'], { error: 'must be "replace" or "merge"' });
export type UpdateMode = z.infer<typeof UpdateMode>;

/** Which part of a written date such as 01/02/2024 is the month. */
export const DateOrder = z.enum(['mdy', 'dmy'], { error: 'must be "mdy" (01/02 = January 2) or "dmy" (01/02 = 1 February)' });
export type DateOrder = z.infer<typeof DateOrder>;

/** What a source keeps: at most N records and/or records younger than a duration (null: no limit). */
export const Retention = z
  .object({
    maxRecords: z.number({ error: 'maxRecords must be a whole number' }).int('maxRecords must be a whole number').min(1, 'maxRecords must be at least 1').max(100_000_000, 'maxRecords must be at most 100,000,000').nullable(),
    maxAgeSeconds: z.number({ error: 'maxAgeSeconds must be a whole number of seconds' }).int('maxAgeSeconds must be a whole number of seconds').min(60, 'maxAgeSeconds must be at least 60').max(3_153_600_000, 'maxAgeSeconds must be at most 100 years'),
  })
  .partial()
  .strict();
export type Retention = z.infer<typeof Retention>;

/** A source's settings, plain fields of create and update (each message names its field). */
const sourceSettings = {
  /** The key records are upserted by; only while the source holds no records. */
  primaryKey: FieldPath.nullable(),
  /** Every record kept with a server id and its received time (no primary key). */
  appendOnly: z.boolean({ error: 'must be true or false' }),
  /** The time a record happened (a path); charts over time, retention and ordering use it. */
  timeField: FieldPath.nullable(),
  updateMode: UpdateMode,
  retention: Retention,
  /** Types set by a person (path → type); they win over the inferred ones. */
  fieldTypes: z.record(z.string().min(1).max(500), FieldType.nullable()),
  dateOrder: DateOrder,
};

export const CreateDataSource = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
    description: z.string().max(2000, 'Description must be at most 2000 characters').optional().default(''),
    ...z.object(sourceSettings).partial().shape,
  })
  .strict();
export type CreateDataSource = z.input<typeof CreateDataSource>;

export const UpdateDataSource = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
    description: z.string().max(2000, 'Description must be at most 2000 characters'),
    keyMappings: KeyMappings,
    ...sourceSettings,
  })
  .partial()
  .strict();
export type UpdateDataSource = z.infer<typeof UpdateDataSource>;

export const RawQuery = z.object({
  dataSourceId: z.string({ error: 'dataSourceId is required' }).min(1, 'dataSourceId is required'),
  limit: z.coerce.number().int().min(1, 'limit must be at least 1').max(1000, 'limit must be at most 1000').default(10),
  offset: z.coerce.number().int().min(0, 'offset must be 0 or more').default(0),
});

/** A data source as every endpoint returns it (the ingest key only ever as a hint). */
export interface DataSourceDto {
  id: string;
  sourceId: string;
  name: string;
  description: string;
  primaryKey: string | null;
  /** Every record kept with a server id (no primary key). */
  appendOnly: boolean;
  timeField: string | null;
  updateMode: UpdateMode;
  retention: { maxRecords: number | null; maxAgeSeconds: number | null };
  /** Each field's type: inferred from the records, or set by a person (see fieldTypesSet). */
  fieldTypes: Record<string, FieldType>;
  /** The fields whose type a person set (path → type). */
  fieldTypesSet: Record<string, FieldType>;
  dateOrder: DateOrder;
  keyMappings: KeyMappings;
  fields: string[];
  recordCount: number;
  revision: number;
  isActive: boolean;
  ingestKeyHint: string | null;
  integrationId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Answer of create and key rotation: the only time the full ingest key leaves the server. */
export interface DataSourceWithKeyDto extends DataSourceDto {
  ingestKey: string;
}
