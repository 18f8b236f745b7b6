import type { z } from 'zod';
import { databaseConfig } from './database';

/** A PostgreSQL integration's config: postgres://user:password@host:5432/database?sslmode=…, a query, its key and incremental column. */
export const PostgresConfig = databaseConfig('postgres');
export type PostgresConfig = z.infer<typeof PostgresConfig>;
