import { z } from 'zod';
import { AUTO_SYNC_MAX_SECONDS, AUTO_SYNC_MIN_SECONDS } from '../constants';

export const INTEGRATION_TYPES = ['zendesk', 'salesforce', 'hubspot', 'api', 'postgres', 'mysql'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const INTEGRATION_STATUSES = ['active', 'inactive', 'error', 'pending'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

/** Message of the popup / callback page back to the console. */
export const OAUTH_COMPLETE = 'OAUTH_COMPLETE';
export interface OAuthCompleteMessage {
  type: typeof OAUTH_COMPLETE;
  success: boolean;
  error: string | null;
  integrationId: string | null;
}

export const CreateIntegration = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
    description: z.string().max(2000, 'Description must be at most 2000 characters').optional().default(''),
    type: z.enum(INTEGRATION_TYPES, {
      error: (issue) => (issue.input === undefined || issue.input === '' ? 'Type is required' : `Type must be one of ${INTEGRATION_TYPES.join(', ')}`),
    }),
    /** What to read, for an API or a database (checked by the provider's own schema: `integrations/<type>.ts`); Zendesk is configured through OAuth instead. */
    config: z.record(z.string(), z.unknown(), { error: 'config must be an object' }).optional(),
  })
  .strict();
export type CreateIntegration = z.input<typeof CreateIntegration>;

const ConfigObject = z.record(z.string(), z.unknown(), { error: 'config must be an object' });

/** POST /api/integrations/:id/test: the stored config, or (`config`) an edit of it not yet saved — its secrets kept as a PUT would keep them. */
export const TestConnection = z.object({ config: ConfigObject.optional() }).strict();
export type TestConnection = z.infer<typeof TestConnection>;

/** POST /api/integrations/test: a config not saved yet (the console's form before Create). */
export const TestUnsavedConnection = z
  .object({
    type: z.enum(INTEGRATION_TYPES, { error: `Type must be one of ${INTEGRATION_TYPES.join(', ')}` }),
    config: ConfigObject,
  })
  .strict();
export type TestUnsavedConnection = z.infer<typeof TestUnsavedConnection>;

/** PUT /api/integrations/:id/config: the whole config; a secret left out (or sent back masked) keeps its stored value. */
export const IntegrationConfigUpdate = z.record(z.string(), z.unknown(), { error: 'Send the config as a JSON object' });
export type IntegrationConfigUpdate = z.infer<typeof IntegrationConfigUpdate>;

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

/** OAuth config payload; integrationId binds the authorization to one integration. */
export const ZendeskOAuthConfig = z
  .object({
    integrationId: required('integrationId is required'),
    clientId: required('Client ID is required'),
    clientSecret: required('Client Secret is required'),
    hostUrl: required('Host URL is required'),
    redirectUri: z.string().trim().optional(),
    scope: z.string().trim().optional(),
  })
  .strict();
export type ZendeskOAuthConfig = z.input<typeof ZendeskOAuthConfig>;

export const StartSync = z
  .object({
    /** An API or a database: read everything again from the beginning, not only what is newer than the stored cursor. */
    full: z.boolean({ error: 'full must be true or false' }).optional(),
    /** Unix seconds as a string (or number); absent for an incremental sync from lastCursor. */
    startDate: z.union([z.string(), z.number()]).optional().transform((v, c) => {
      if (v === undefined || v === '') return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        c.addIssue({ code: 'custom', message: 'startDate must be unix seconds' });
        return z.NEVER;
      }
      return n;
    }),
  })
  .strict();
export type StartSync = z.input<typeof StartSync>;

export const IntegrationSettings = z
  .object({
    autoSync: z.boolean({ error: 'autoSync must be true or false' }),
    syncInterval: z
      .number({ error: 'syncInterval must be a number of seconds' })
      .int('syncInterval must be whole seconds')
      .min(AUTO_SYNC_MIN_SECONDS, 'Please enter a frequency of at least 30 seconds')
      .max(AUTO_SYNC_MAX_SECONDS, `syncInterval must be at most ${AUTO_SYNC_MAX_SECONDS} seconds`),
  })
  .strict();
export type IntegrationSettings = z.infer<typeof IntegrationSettings>;

export interface SyncResultsDto {
  ticketsSynced: number;
  usersSynced: number;
  organizationsSynced: number;
  ticketsDeleted: number;
}

/** GET /api/integrations/:id/sync-status; the sync:progress event carries the same counts, for every provider. */
export interface SyncStatusDto {
  integrationId: string;
  isRunning: boolean;
  progress: { message: string; progress: number };
  /** Records stored by the run (the last one when none runs). */
  recordsProcessed: number;
  /** Pages (batches) read and stored. */
  pagesProcessed: number;
  /** Zendesk's own counts. */
  ticketsProcessed?: number;
  usersProcessed?: number;
  /** Zendesk: the last run's totals. */
  lastSyncResults: SyncResultsDto | null;
  errors: string[];
  interrupted: boolean;
  startedAt: string | null;
  finishedAt: string | null;
}

export const RUN_STATUSES = ['running', 'succeeded', 'failed'] as const;

/** GET /api/integrations/:id/runs: one sync run, newest first (the last 100 are kept). */
export interface IntegrationRunDto {
  id: string;
  startedAt: string;
  finishedAt: string | null;
  status: (typeof RUN_STATUSES)[number];
  /** full: from the beginning; incremental: after the stored cursor. */
  mode: 'full' | 'incremental';
  trigger: 'manual' | 'auto';
  records: number;
  pages: number;
  rejected: number;
  /** The first rejections: the page, the record's place in it and why. */
  rejections: { page: string; index: number; reason: string }[];
  /** Why the run failed, naming the page (batch) it happened on. */
  error: string | null;
  notes: string[];
}

/** POST /api/integrations/:id/test: the first page read, nothing stored. */
export interface TestConnectionDto {
  ok: true;
  /** Field names of the sample records, in first-seen order. */
  fields: string[];
  /** At most 5 records of the first page. */
  sample: Record<string, unknown>[];
  /** How many records the first page held. */
  records: number;
}

/** An integration as every endpoint and socket event shows it: never a secret or token. */
export interface IntegrationDto {
  id: string;
  name: string;
  description: string;
  type: IntegrationType;
  status: IntegrationStatus;
  config: {
    domain: string | null;
    hostUrl: string | null;
    autoSync: boolean;
    syncInterval: number;
    lastCursor: string | null;
    lastSyncErrors: string[];
  };
  /** True when credentials are stored: Zendesk's client and token, a pull config's secrets (the values never leave). */
  hasCredentials: boolean;
  /** An API's or a database's config, each secret replaced by a mask (null for Zendesk). */
  connection: Record<string, unknown> | null;
  /** The last sync run, its outcome and counts. */
  lastRun: IntegrationRunDto | null;
  dataSourceId: string | null;
  sourceId: string | null;
  isSyncing: boolean;
  nextAutoSyncAt: string | null;
  lastSync: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/integrations/:id/records for Zendesk: what the integration has synced. */
export interface ZendeskRecordsDto {
  totalTickets: number;
  totalUsers: number;
  totalOrganizations: number;
  totalCustomStatuses: number;
}
/** GET /api/integrations/:id/records: Zendesk's totals, or the records of an API's or a database's data source. */
export type IntegrationRecordsDto = ZendeskRecordsDto | { totalRecords: number };

export interface StartSyncResponse {
  status: 'started';
  integrationId: string;
  mode: 'initial' | 'incremental';
}

export interface ZendeskConfigResponse {
  authUrl: string;
}
