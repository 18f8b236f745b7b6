import { useEffect } from 'react';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { useSession } from '../../api/session';
import { getAdminSocket, type LiveSocket } from '../../realtime/socket';
import { useDashboards } from './dashboards';
import { useDataSources } from './dataSources';

/** The admin socket of the signed-in console, or null when signed out. */
export function useAdminSocket(): LiveSocket | null {
  const key = useSession((s) => (s.me ? `${s.me.user?.id ?? 'token'}:${s.generation}` : null));
  if (!key) return null;
  return getAdminSocket(key, () => void useSession.getState().refresh());
}

/** Loads the lists once, applies admin pushes to the stores and refetches after every (re)connect. */
export function useAdminRealtime(): void {
  const socket = useAdminSocket();
  useEffect(() => {
    void useDataSources.getState().load();
    void useDashboards.getState().load();
    if (!socket) return;
    const reload = () => {
      void useDataSources.getState().load();
      void useDashboards.getState().load();
    };
    const dsChanged = (e: { dataSource: DataSourceDto }) => useDataSources.getState().upsert(e.dataSource);
    const dsRemoved = (e: { dataSourceId: string }) => useDataSources.getState().remove(e.dataSourceId);
    const dChanged = (e: { dashboard: DashboardDto }) => useDashboards.getState().upsert(e.dashboard);
    const dRemoved = (e: { dashboardId: string }) => useDashboards.getState().remove(e.dashboardId);
    socket.on('connect', reload);
    socket.on('admin:datasource:changed', dsChanged);
    socket.on('admin:datasource:removed', dsRemoved);
    socket.on('admin:dashboard:changed', dChanged);
    socket.on('admin:dashboard:removed', dRemoved);
    return () => {
      socket.off('connect', reload);
      socket.off('admin:datasource:changed', dsChanged);
      socket.off('admin:datasource:removed', dsRemoved);
      socket.off('admin:dashboard:changed', dChanged);
      socket.off('admin:dashboard:removed', dRemoved);
    };
  }, [socket]);
}
