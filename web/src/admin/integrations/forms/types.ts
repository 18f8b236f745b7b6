import type { ComponentType, ReactNode } from 'react';

/** A config as the server takes it (and answers it, secrets masked). */
export type Config = Record<string, unknown>;

/**
 * The console's form of one pull provider (an API, a database): its card's words and the fields of
 * its config. The dialog around it (name, Test connection, sample rows, Create / Save) is shared:
 * `PullIntegrationDialog`. A provider registers its form in `registry.ts`.
 */
export interface PullForm {
  type: 'api' | 'postgres' | 'mysql';
  /** "HTTP API". */
  label: string;
  /** One sentence for its provider card. */
  blurb: string;
  icon: ReactNode;
  /** The form items of the config, named under `config` (antd Form names `['config', …]`). `editing`: a stored config (secrets masked). */
  Fields: ComponentType<{ editing: boolean }>;
  /** The form's values (under `config`) for a stored config, or the defaults of a new one. */
  toValues(config: Config | null): Record<string, unknown>;
  /** The config to send from the form's values (a secret left masked is kept by the server). */
  toConfig(values: Record<string, unknown>): Config;
}
