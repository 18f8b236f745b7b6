import { create } from 'zustand';
import type { TileAlertState } from '@common/schemas/alert';
import { PUBLIC_REFRESH_MS } from '@common/constants';
import { publicApi } from '../../api/client';
import { getPublicSocket } from '../../realtime/socket';
import { useLiveResource } from '../../realtime/useLiveResource';
import type { ViewerFeed } from './feed';

/** The alert states of the shown dashboard's tiles, by widget id: only tiles tied to an alert are here. */
export const useTileAlerts = create<{ dashboardId: string | null; byWidget: Record<string, TileAlertState> }>(() => ({ dashboardId: null, byWidget: {} }));

/** A tile's alert state, or undefined when no alert is tied to it. */
export const useTileAlert = (widgetId: string): TileAlertState | undefined => useTileAlerts((s) => s.byWidget[widgetId]);

/**
 * Keeps the tiles' alert states current: read with the view (and again on reconnect and with the
 * 30 s fallback), then pushed as they change (`alert:state`, to every viewer of the dashboard).
 */
export function useTileAlertSync(feed: ViewerFeed): void {
  useLiveResource<TileAlertState[] | null>(() => {
    useTileAlerts.setState({ dashboardId: feed.dashboardId, byWidget: {} });
    const path = feed.alertsPath;
    if (!path) return null;
    return {
      socket: getPublicSocket(),
      // A failed read keeps the states shown: the next push, reconnect or fallback read brings them.
      load: (signal) => publicApi.get<TileAlertState[]>(path, { signal }).catch(() => null),
      loaded: (list) => {
        if (!list) return;
        const byWidget: Record<string, TileAlertState> = {};
        for (const s of list) byWidget[s.widgetId] = s;
        useTileAlerts.setState({ dashboardId: list[0]?.dashboardId ?? useTileAlerts.getState().dashboardId, byWidget });
      },
      pushes: () => ({
        'alert:state': (s) => {
          const shown = useTileAlerts.getState().dashboardId;
          if (shown && s.dashboardId !== shown) return;
          useTileAlerts.setState((st) => ({ dashboardId: s.dashboardId, byWidget: { ...st.byWidget, [s.widgetId]: s } }));
        },
      }),
      pollMs: PUBLIC_REFRESH_MS,
    };
  }, [feed.key]);
}
