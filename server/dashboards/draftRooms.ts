import type { Socket } from 'socket.io';
import { rooms, type ClientToServerEvents, type ServerToClientEvents, type SocketData } from '@common/realtime';
import type { AppContext } from '../core';
import { settledRevision, findDataSource } from '../core';
import { readableDashboard } from '../access';

type ViewerSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * A signed-in person opens an unpublished dashboard they may read (the viewer shows drafts to the
 * team, as `GET /api/dashboards/:id` does with a session): the socket joins its draft room (head
 * changes, removal) and its data source's audience (record deltas). The revision joined, or null
 * when the person may not read it (no role, outside their chosen dashboards, gone).
 */
export async function joinDraft(ctx: AppContext, socket: ViewerSocket, dashboardId: string): Promise<number | null> {
  const dashboard = await readableDashboard(ctx, socket.data, dashboardId);
  if (!dashboard) return null;
  const dataSource = dashboard.dataSourceId ? await findDataSource(ctx, dashboard.dataSourceId) : null;
  await socket.join(dataSource ? [rooms.draft(dashboardId), rooms.source(String(dataSource._id))] : [rooms.draft(dashboardId)]);
  return dataSource ? settledRevision(dataSource) : 0;
}
