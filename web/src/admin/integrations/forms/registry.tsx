import { ApiOutlined, ConsoleSqlOutlined, DatabaseOutlined } from '@ant-design/icons';
import { ApiFields } from './ApiFields';
import { apiConfig, apiValues, type ApiValues } from './apiValues';
import { databaseFields } from './DatabaseFields';
import { databaseConfig, databaseValues, type DatabaseValues } from './databaseValues';
import type { PullForm } from './types';

/**
 * The console's forms of the pull providers, by type: a provider card is active when its form is
 * here. Adding one is one entry (its fields component and its values ↔ config mapping).
 */
export const PULL_FORMS: Partial<Record<PullForm['type'], PullForm>> = {
  api: {
    type: 'api',
    label: 'HTTP API',
    blurb: 'Any JSON API: pages, sign-in, incremental syncs, records into a data source.',
    icon: <ApiOutlined style={{ fontSize: 28, color: '#2563eb' }} />,
    Fields: ApiFields,
    toValues: (config) => ({ ...apiValues(config) }),
    toConfig: (values) => apiConfig(values as unknown as ApiValues),
  },
  postgres: {
    type: 'postgres',
    label: 'PostgreSQL',
    blurb: 'A SQL query, read in batches; later syncs read only newer rows.',
    icon: <DatabaseOutlined style={{ fontSize: 28, color: '#336791' }} />,
    Fields: databaseFields('postgres'),
    toValues: (config) => ({ ...databaseValues(config) }),
    toConfig: (values) => databaseConfig('postgres', values as unknown as DatabaseValues),
  },
  mysql: {
    type: 'mysql',
    label: 'MySQL',
    blurb: 'MySQL or MariaDB: a SQL query, read in batches; later syncs read only newer rows.',
    icon: <ConsoleSqlOutlined style={{ fontSize: 28, color: '#00758f' }} />,
    Fields: databaseFields('mysql'),
    toValues: (config) => ({ ...databaseValues(config) }),
    toConfig: (values) => databaseConfig('mysql', values as unknown as DatabaseValues),
  },
};

export const pullFormOf = (type: string): PullForm | null => PULL_FORMS[type as PullForm['type']] ?? null;
