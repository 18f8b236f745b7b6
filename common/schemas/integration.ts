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
  })
  .strict();
export type CreateIntegration = z.input<typeof CreateIntegration>;

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

/** GET /api/integrations/:id/sync-status. */
export interface SyncStatusDto {
  integrationId: string;
  isRunning: boolean;
  progress: { message: string; progress: number };
  ticketsProcessed: number;
  usersProcessed: number;
  lastSyncResults: SyncResultsDto | null;
  errors: string[];
  interrupted: boolean;
  startedAt: string | null;
  finishedAt: string | null;
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
  /** True when a client id/secret and an access token are stored (the values never leave). */
  hasCredentials: boolean;
  dataSourceId: string | null;
  sourceId: string | null;
  isSyncing: boolean;
  nextAutoSyncAt: string | null;
  lastSync: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/integrations/:id/records: what the integration has synced. */
export interface IntegrationRecordsDto {
  totalTickets: number;
  totalUsers: number;
  totalOrganizations: number;
  totalCustomStatuses: number;
}

export interface StartSyncResponse {
  status: 'started';
  integrationId: string;
  mode: 'initial' | 'incremental';
}

export interface ZendeskConfigResponse {
  authUrl: string;
}
