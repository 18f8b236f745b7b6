import { useEffect } from 'react';
import type { IntegrationDto } from '@common/schemas/integration';
import { useAdminSocket } from '../stores/useAdminRealtime';
import { useIntegrations } from './store';
import { syncEvents } from './syncFollower';

/** Loads the integrations and applies admin pushes; refetches after every (re)connect. */
export function useIntegrationsRealtime(): void {
  const socket = useAdminSocket();
  useEffect(() => {
    void useIntegrations.getState().load();
    if (!socket) return;
    const reload = () => void useIntegrations.getState().load();
    const changed = (e: { integration: unknown }) => useIntegrations.getState().upsert(e.integration as IntegrationDto);
    const removed = (e: { integrationId: string }) => useIntegrations.getState().remove(e.integrationId);
    socket.on('connect', reload);
    socket.on('admin:integration:changed', changed);
    socket.on('admin:integration:removed', removed);
    socket.on('sync:progress', syncEvents.progress);
    socket.on('sync:completed', syncEvents.completed);
    socket.on('sync:failed', syncEvents.failed);
    return () => {
      socket.off('connect', reload);
      socket.off('admin:integration:changed', changed);
      socket.off('admin:integration:removed', removed);
      socket.off('sync:progress', syncEvents.progress);
      socket.off('sync:completed', syncEvents.completed);
      socket.off('sync:failed', syncEvents.failed);
    };
  }, [socket]);
}
