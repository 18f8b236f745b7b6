import type { JoinAck } from '@common/realtime';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import type { ShareViewResponse } from '@common/schemas/sharing/shareLink';
import type { EmbedTerms, EmbedViewResponse } from '@common/schemas/sharing/embedding';
import { publicApi } from '../../api/client';
import type { LiveSocket } from '../../realtime/socket';

/**
 * Where a viewer gets its dashboard: the public dashboard by id (/dashboards/:id), a share link by
 * token (/s/:token) or a signed embed token (/embed/:token). Same view, same deltas; only the paths
 * and the room differ.
 */
export interface ViewerFeed {
  /** Changes when the viewer must start over. */
  key: string;
  /** The dashboard's id when known up front (a share link learns it from its first answer). */
  dashboardId: string | null;
  fetchView(): Promise<PublicDashboardResponse>;
  /** The states of the tiles tied to alerts; null: this feed shows none (a signed embed token's). */
  alertsPath: string | null;
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

/**
 * A signed embed token's feed: its rows only (the server holds them to the token's filters), no
 * alert states (a tile's state counts rows the token may not see); `onEmbed` hears what the token
 * allows with every answer.
 */
export function embedFeed(token: string, allowCsv: boolean, onEmbed: (embed: EmbedTerms) => void): ViewerFeed {
  const path = `/api/embed/${encodeURIComponent(token)}`;
  return {
    key: `embed:${token}`,
    dashboardId: null,
    fetchView: async () => {
      const view = await publicApi.get<EmbedViewResponse>(path);
      onEmbed(view.embed);
      return view;
    },
    alertsPath: null,
    exportPath: (tabId) => (allowCsv ? `${path}/export${tabQuery(tabId)}` : null),
    join: (socket, ack) => socket.emit('embed:join', token, ack),
    leave: (socket) => socket.emit('embed:leave'),
    backTo: null,
  };
}
