import { z } from 'zod';

/** Field key → display label. Keys are arbitrary field names (dots, `$`, unicode allowed). */
export const KeyMappings = z.record(z.string(), z.string().max(200));
export type KeyMappings = z.infer<typeof KeyMappings>;

export const CreateDataSource = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
  description: z.string().max(2000, 'Description must be at most 2000 characters').optional().default(''),
});
export type CreateDataSource = z.input<typeof CreateDataSource>;

export const UpdateDataSource = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
    description: z.string().max(2000, 'Description must be at most 2000 characters'),
    primaryKey: z.string().min(1, 'Primary key cannot be empty').max(500).nullable(),
    keyMappings: KeyMappings,
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
