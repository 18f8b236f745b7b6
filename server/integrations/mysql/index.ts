import { MysqlConfig } from '@common/schemas/integrations/mysql';
import { databaseProvider } from '../sql/provider';
import { mysqlPages } from './reader';

/** MySQL and MariaDB: a query's rows, batch by batch (reader.ts). */
export const mysqlProvider = databaseProvider({ type: 'mysql', label: 'MySQL', config: MysqlConfig, pages: mysqlPages });
