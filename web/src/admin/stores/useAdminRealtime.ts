import { useSession } from '../../api/session';
import { getAdminSocket, type LiveSocket } from '../../realtime/socket';
import { useLiveResource } from '../../realtime/useLiveResource';
import { useDashboards } from './dashboards';
import { useDataSources } from './dataSources';

/** The admin socket of the signed-in console, or null when signed out. */
export function useAdminSocket(): LiveSocket | null {
  const key = useSession((s) => (s.me ? `${s.me.user?.id ?? 'token'}:${s.generation}` : null));
  if (!key) return null;
  return getAdminSocket(key, () => void useSession.getState().refresh());
}

/** Loads the lists, applies admin pushes to the stores and refetches after every (re)connect. */
export function useAdminRealtime(): void {
  const socket = useAdminSocket();
  useLiveResource(() => ({
    socket,
    // The stores keep their own state (an error keeps the old items): nothing to hand over.
    load: () => Promise.all([useDataSources.getState().load(), useDashboards.getState().load()]),
    loaded: () => {},
    pushes: () => ({
      'admin:datasource:changed': (e) => useDataSources.getState().upsert(e.dataSource),
      'admin:datasource:removed': (e) => useDataSources.getState().remove(e.dataSourceId),
      'admin:dashboard:changed': (e) => useDashboards.getState().upsert(e.dashboard),
      'admin:dashboard:removed': (e) => useDashboards.getState().remove(e.dashboardId),
    }),
  }), [socket]);
}
