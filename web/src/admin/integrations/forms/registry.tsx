import { ApiOutlined } from '@ant-design/icons';
import { ApiFields } from './ApiFields';
import { apiConfig, apiValues, type ApiValues } from './apiValues';
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
};

export const pullFormOf = (type: string): PullForm | null => PULL_FORMS[type as PullForm['type']] ?? null;
