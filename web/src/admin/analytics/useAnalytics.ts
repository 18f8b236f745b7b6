import { create } from 'zustand';
import type { DashboardAnalyticsDto, ViewersChangedEvent } from '@common/schemas/analytics';
import { api, errorText } from '../../api/client';
import { useLiveResource } from '../../realtime/useLiveResource';
import { useAdminSocket } from '../stores/useAdminRealtime';

interface AnalyticsState {
  byId: Record<string, DashboardAnalyticsDto>;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
}

/** Every dashboard's viewers now and views per day: GET /api/admin/analytics, then admin:viewers pushes. */
export const useAnalytics = create<AnalyticsState>(() => ({ byId: {}, status: 'idle', error: null }));

export async function loadAnalytics(): Promise<void> {
  if (useAnalytics.getState().status === 'idle') useAnalytics.setState({ status: 'loading' });
  try {
    const list = await api.get<DashboardAnalyticsDto[]>('/api/admin/analytics');
    useAnalytics.setState({ byId: Object.fromEntries(list.map((d) => [d.dashboardId, d])), status: 'ready', error: null });
  } catch (e) {
    useAnalytics.setState({ status: 'error', error: errorText(e) });
  }
}

function applyViewers(e: ViewersChangedEvent) {
  const current = useAnalytics.getState().byId[e.dashboardId];
  if (!current) return void loadAnalytics(); // a dashboard this screen has not seen yet
  let days = current.viewsByDay;
  const last = days[days.length - 1];
  if (last && last.day === e.day) days = [...days.slice(0, -1), { day: e.day, views: Math.max(last.views, e.viewsToday) }];
  else if (!last || last.day < e.day) days = [...days.slice(1), { day: e.day, views: e.viewsToday }]; // a new day: the oldest drops out
  useAnalytics.setState((s) => ({ byId: { ...s.byId, [e.dashboardId]: { ...current, viewers: e.viewers, viewsByDay: days } } }));
}

/** Loads the figures and keeps them live while the calling screen is open. */
export function useAnalyticsLive(): void {
  const socket = useAdminSocket();
  useLiveResource(() => ({ socket, load: loadAnalytics, loaded: () => {}, pushes: () => ({ 'admin:viewers': applyViewers }) }), [socket]);
}
