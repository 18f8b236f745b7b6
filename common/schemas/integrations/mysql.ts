import type { z } from 'zod';
import { databaseConfig } from './database';

/** A MySQL or MariaDB integration's config: mysql://user:password@host:3306/database?ssl-mode=…, a query, its key and incremental column. */
export const MysqlConfig = databaseConfig('mysql');
export type MysqlConfig = z.infer<typeof MysqlConfig>;
