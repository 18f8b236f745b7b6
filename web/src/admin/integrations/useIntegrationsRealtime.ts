import type { IntegrationDto } from '@common/schemas/integration';
import { useLiveResource } from '../../realtime/useLiveResource';
import { useAdminSocket } from '../stores/useAdminRealtime';
import { useIntegrations } from './store';
import { syncEvents } from './syncFollower';

/** Loads the integrations and applies admin pushes; refetches after every (re)connect. */
export function useIntegrationsRealtime(): void {
  const socket = useAdminSocket();
  useLiveResource(() => ({
    socket,
    load: () => useIntegrations.getState().load(),
    loaded: () => {},
    pushes: () => ({
      'admin:integration:changed': (e) => useIntegrations.getState().upsert(e.integration as IntegrationDto),
      'admin:integration:removed': (e) => useIntegrations.getState().remove(e.integrationId),
      'sync:progress': syncEvents.progress,
      'sync:completed': syncEvents.completed,
      'sync:failed': syncEvents.failed,
    }),
  }), [socket]);
}
