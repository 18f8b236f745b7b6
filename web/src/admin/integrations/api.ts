import type {
  CreateIntegration, IntegrationDto, IntegrationRecordsDto, IntegrationRunDto, IntegrationSettings, StartSyncResponse, SyncStatusDto,
  TestConnectionDto, ZendeskConfigResponse, ZendeskOAuthConfig,
} from '@common/schemas/integration';
import { api } from '../../api/client';

type Config = Record<string, unknown>;

/** The /api/integrations calls, through the one API client (admin bearer added there). */
export const integrationsApi = {
  list: () => api.get<IntegrationDto[]>('/api/integrations'),
  get: (id: string) => api.get<IntegrationDto>(`/api/integrations/${id}`),
  create: (body: CreateIntegration) => api.post<IntegrationDto>('/api/integrations', body),
  remove: (id: string) => api.delete<{ success: boolean }>(`/api/integrations/${id}`),
  configure: (body: ZendeskOAuthConfig) => api.post<ZendeskConfigResponse>('/api/integrations/zendesk/config', body),
  /** An API's or a database's config; a secret sent back masked (or left out) keeps its stored value. */
  saveConfig: (id: string, config: Config) => api.put<IntegrationDto>(`/api/integrations/${id}/config`, config),
  /** Test connection of a stored integration, or of an edit of its config before Save. */
  test: (id: string, config?: Config) => api.post<TestConnectionDto>(`/api/integrations/${id}/test`, config ? { config } : {}),
  /** Test connection of a config not saved yet. */
  testUnsaved: (type: string, config: Config) => api.post<TestConnectionDto>('/api/integrations/test', { type, config }),
  startSync: (id: string, startDate?: string) => api.post<StartSyncResponse>(`/api/integrations/${id}/sync`, startDate ? { startDate } : {}),
  /** An API's or a database's sync: from the stored cursor, or everything again (`full`). */
  pull: (id: string, full = false) => api.post<StartSyncResponse>(`/api/integrations/${id}/sync`, full ? { full: true } : {}),
  syncStatus: (id: string) => api.get<SyncStatusDto>(`/api/integrations/${id}/sync-status`),
  runs: (id: string) => api.get<IntegrationRunDto[]>(`/api/integrations/${id}/runs`),
  records: (id: string) => api.get<IntegrationRecordsDto>(`/api/integrations/${id}/records`),
  saveSettings: (id: string, body: IntegrationSettings) => api.put<IntegrationDto>(`/api/integrations/${id}/settings`, body),
};
