import { PostgresConfig } from '@common/schemas/integrations/postgres';
import { databaseProvider } from '../sql/provider';
import { postgresPages } from './reader';

/** PostgreSQL: a query's rows, batch by batch (reader.ts). */
export const postgresProvider = databaseProvider({ type: 'postgres', label: 'PostgreSQL', config: PostgresConfig, pages: postgresPages });
