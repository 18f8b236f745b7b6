import type { Socket } from 'socket.io';
import { rooms, type ClientToServerEvents, type JoinAck, type ServerToClientEvents, type SocketData } from '@common/realtime';
import type { AppContext } from '../context';
import { viewCacheOf } from '../viewCache';

type ViewerSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * A viewer joins a published dashboard: its room (head changes, removal) and its data source's
 * public audience (record deltas). The answer comes from the view cache, not the database.
 */
export async function joinDashboard(ctx: AppContext, socket: ViewerSocket, dashboardId: unknown, ack: unknown): Promise<void> {
  if (typeof ack !== 'function') return;
  const reply = ack as (r: JoinAck) => void;
  if (typeof dashboardId !== 'string') return reply({ ok: false, reason: 'dashboardId must be a string' });
  try {
    const view = await viewCacheOf(ctx).view(dashboardId);
    const joined = [rooms.dashboard(dashboardId)];
    if (view.dataSourceId) joined.push(rooms.source(view.dataSourceId));
    await socket.join(joined);
    socket.data.viewing = { ...socket.data.viewing, [dashboardId]: view.dataSourceId };
    reply({ ok: true, revision: view.revision });
    // Sent as a broadcast (to the socket's own room) so it carries a recovery offset: a viewer that
    // drops before any delta arrived can still be recovered from this point.
    socket.nsp.to(socket.id).emit('view:joined', { dashboardId, revision: view.revision });
  } catch {
    reply({ ok: false, reason: 'Dashboard Not Found' });
  }
}

/**
 * Leaves a dashboard's room, and every source audience no other viewed dashboard needs (the
 * server may have moved the socket to a new source when the dashboard changed its source).
 */
export async function leaveDashboard(socket: ViewerSocket, dashboardId: unknown): Promise<void> {
  if (typeof dashboardId !== 'string') return;
  const viewing = { ...socket.data.viewing };
  delete viewing[dashboardId];
  socket.data.viewing = viewing;
  const needed = new Set(Object.values(viewing).flatMap((id) => (id ? [rooms.source(id)] : [])));
  const unneeded = [...socket.rooms].filter((r) => r.startsWith(rooms.source('')) && !needed.has(r));
  await Promise.all([rooms.dashboard(dashboardId), ...unneeded].map((r) => socket.leave(r)));
}
