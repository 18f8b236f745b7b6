import type {
  CreateIntegration, IntegrationDto, IntegrationRecordsDto, IntegrationSettings, StartSyncResponse, SyncStatusDto, ZendeskConfigResponse,
  ZendeskOAuthConfig,
} from '@common/schemas/integration';
import { api } from '../../api/client';

/** The /api/integrations calls, through the one API client (admin bearer added there). */
export const integrationsApi = {
  list: () => api.get<IntegrationDto[]>('/api/integrations'),
  create: (body: CreateIntegration) => api.post<IntegrationDto>('/api/integrations', body),
  remove: (id: string) => api.delete<{ success: boolean }>(`/api/integrations/${id}`),
  configure: (body: ZendeskOAuthConfig) => api.post<ZendeskConfigResponse>('/api/integrations/zendesk/config', body),
  startSync: (id: string, startDate?: string) => api.post<StartSyncResponse>(`/api/integrations/${id}/sync`, startDate ? { startDate } : {}),
  syncStatus: (id: string) => api.get<SyncStatusDto>(`/api/integrations/${id}/sync-status`),
  records: (id: string) => api.get<IntegrationRecordsDto>(`/api/integrations/${id}/records`),
  saveSettings: (id: string, body: IntegrationSettings) => api.put<IntegrationDto>(`/api/integrations/${id}/settings`, body),
};
