import type { JoinAck } from '@common/realtime';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import type { ShareViewResponse } from '@common/schemas/shareLink';
import { publicApi } from '../../api/client';
import type { LiveSocket } from '../../realtime/socket';

/**
 * Where a viewer gets its dashboard: the public dashboard by id (/dashboards/:id) or a share link by
 * token (/s/:token). Same view, same deltas; only the paths and the room differ.
 */
export interface ViewerFeed {
  /** Changes when the viewer must start over. */
  key: string;
  /** The dashboard's id when known up front (a share link learns it from its first answer). */
  dashboardId: string | null;
  fetchView(): Promise<PublicDashboardResponse>;
  /** The states of the tiles tied to alerts. */
  alertsPath: string;
  /** The CSV download path for a tab, or null when this feed may not export. */
  exportPath(tabId: string | null): string | null;
  join(socket: LiveSocket, ack: (r: JoinAck) => void): void;
  leave(socket: LiveSocket): void;
  /** Where the header's back button goes; null: no back button (a shared page stands alone). */
  backTo: string | null;
}

const tabQuery = (tabId: string | null) => (tabId ? `?tab=${encodeURIComponent(tabId)}` : '');

export function dashboardFeed(id: string): ViewerFeed {
  const path = `/api/dashboards/${encodeURIComponent(id)}`;
  return {
    key: `dashboard:${id}`,
    dashboardId: id,
    fetchView: () => publicApi.get<PublicDashboardResponse>(path),
    alertsPath: `${path}/alerts`,
    exportPath: (tabId) => `${path}/export${tabQuery(tabId)}`,
    join: (socket, ack) => socket.emit('dashboard:join', id, ack),
    leave: (socket) => socket.emit('dashboard:leave', id),
    backTo: '/dashboards',
  };
}

/** A share link's feed; `onShare` hears what the link allows with every answer. */
export function shareFeed(token: string, allowCsv: boolean, onShare: (share: ShareViewResponse['share']) => void): ViewerFeed {
  const path = `/api/share/${encodeURIComponent(token)}`;
  return {
    key: `share:${token}`,
    dashboardId: null,
    fetchView: async () => {
      const view = await publicApi.get<ShareViewResponse>(path);
      onShare(view.share);
      return view;
    },
    alertsPath: `${path}/alerts`,
    exportPath: (tabId) => (allowCsv ? `${path}/export${tabQuery(tabId)}` : null),
    join: (socket, ack) => socket.emit('share:join', token, ack),
    leave: (socket) => socket.emit('share:leave'),
    backTo: null,
  };
}
