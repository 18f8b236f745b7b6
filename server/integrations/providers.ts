import type { IntegrationType } from '@common/schemas/integration';
import { apiProvider } from './api';
import { mysqlProvider } from './mysql';
import { postgresProvider } from './postgres';
import type { PullProvider, PullType } from './provider';

/**
 * The pull providers, by integration type. A provider folder exports its provider from its
 * `index.ts`; adding one is one line here (and its type in INTEGRATION_TYPES).
 */
// Each provider narrows the config type; the room handles them through the common interface.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const PROVIDERS: Partial<Record<PullType, PullProvider<any>>> = {
  api: apiProvider,
  postgres: postgresProvider,
  mysql: mysqlProvider,
};

/** The pull provider of a type; null for Zendesk (its own steps) and the types still to come. */
export function pullProvider(type: IntegrationType | string): PullProvider | null {
  return (PROVIDERS as Record<string, PullProvider | undefined>)[type] ?? null;
}

/** The types a person may create today. */
export const pullTypes = (): PullType[] => Object.keys(PROVIDERS) as PullType[];
