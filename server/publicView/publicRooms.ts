import type { Socket } from 'socket.io';
import { rooms, type ClientToServerEvents, type JoinAck, type ServerToClientEvents, type SocketData } from '@common/realtime';
import type { AppContext, DashboardDoc } from '../core';
import { viewCacheOf } from './viewCache';
import { canonicalObjectId } from '@common/ids';
import { viewerCounter } from './viewerCounts';
import { joinDraft } from '../dashboards';

type ViewerSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** What the room bookkeeping needs of a socket, local or on another process (RemoteSocket). */
export interface RoomMember {
  rooms: Set<string>;
  leave(room: string): unknown;
}

const DASHBOARD = rooms.dashboard('');
const SHARE = rooms.share('');
const SOURCE = rooms.source('');
const DRAFT = rooms.draft('');
const EMBED = rooms.embed('');

/**
 * The source audiences a socket still needs, from the rooms it is in (the one truth, on every
 * process): the source of each published dashboard it views and of each dashboard it views through
 * a share link, a signed embed token or as a signed-in person's draft, except the rooms in `except`.
 */
export async function neededSources(ctx: AppContext, joined: Iterable<string>, except: string[]): Promise<Set<string>> {
  const needed = new Set<string>();
  for (const room of joined) {
    if (except.includes(room)) continue;
    let dataSourceId: string | null = null;
    if (room.startsWith(DASHBOARD)) {
      dataSourceId = await viewCacheOf(ctx).view(room.slice(DASHBOARD.length)).then((v) => v.dataSourceId, () => null);
    } else if (room.startsWith(SHARE) || room.startsWith(DRAFT) || room.startsWith(EMBED)) {
      const doc = await ctx.models.Dashboard.findById(room.slice(room.indexOf(':') + 1)).select('dataSourceId').lean<Pick<DashboardDoc, 'dataSourceId'>>().catch(() => null);
      dataSourceId = doc?.dataSourceId ? String(doc.dataSourceId) : null;
    }
    if (dataSourceId) needed.add(rooms.source(dataSourceId));
  }
  return needed;
}

/**
 * A socket stops viewing through `leaving` (a dashboard or share room and the like): it leaves
 * them, and every source audience (of `sources`, or all it is in) nothing else it views needs.
 */
export async function releaseRooms(ctx: AppContext, socket: RoomMember, leaving: string[], sources?: string[]): Promise<void> {
  const candidates = sources ?? [...socket.rooms].filter((r) => r.startsWith(SOURCE));
  const needed = await neededSources(ctx, socket.rooms, leaving);
  for (const room of [...leaving, ...candidates.filter((r) => !needed.has(r))]) await socket.leave(room);
}

/**
 * A viewer joins a published dashboard: its room (head changes, removal) and its data source's
 * public audience (record deltas). The answer comes from the view cache, not the database.
 */
export async function joinDashboard(ctx: AppContext, socket: ViewerSocket, rawId: unknown, ack: unknown): Promise<void> {
  if (typeof ack !== 'function') return;
  const reply = ack as (r: JoinAck) => void;
  if (typeof rawId !== 'string') return reply({ ok: false, reason: 'dashboardId must be a string' });
  // One room per dashboard whatever the spelling (common/ids.ts); what cannot be an id is not found.
  const dashboardId = canonicalObjectId(rawId);
  if (!dashboardId) return reply({ ok: false, reason: 'Dashboard Not Found' });
  try {
    const view = await viewCacheOf(ctx).view(dashboardId);
    const joined = [rooms.dashboard(dashboardId)];
    if (view.dataSourceId) joined.push(rooms.source(view.dataSourceId));
    await socket.join(joined);
    viewerCounter(ctx)?.viewed(dashboardId, socket);
    acknowledgeJoin(socket, dashboardId, view.revision, reply);
  } catch {
    // Not published: a signed-in person who may read it follows the draft (anyone else: not found).
    const revision = socket.data.role ? await joinDraft(ctx, socket, dashboardId).catch(() => null) : null;
    if (revision === null) reply({ ok: false, reason: 'Dashboard Not Found' });
    else acknowledgeJoin(socket, dashboardId, revision, reply);
  }
}

function acknowledgeJoin(socket: ViewerSocket, dashboardId: string, revision: number, reply: (r: JoinAck) => void) {
  reply({ ok: true, revision });
  // Sent as a broadcast (to the socket's own room) so it carries a recovery offset: a viewer that
  // drops before any delta arrived can still be recovered from this point.
  socket.nsp.to(socket.id).emit('view:joined', { dashboardId, revision });
}

/** Leaves a dashboard's room (public or draft), and every source audience no other viewed dashboard needs. */
export async function leaveDashboard(ctx: AppContext, socket: ViewerSocket, rawId: unknown): Promise<void> {
  const dashboardId = canonicalObjectId(rawId);
  if (!dashboardId) return;
  await releaseRooms(ctx, socket, [rooms.dashboard(dashboardId), rooms.draft(dashboardId)]);
}

/**
 * The viewers in `room` (on every process) no longer view through it: each leaves it and those of
 * `dataSourceIds` nothing else it views needs — a socket that views another dashboard of the same
 * source keeps its deltas.
 */
export async function emptyRoom(ctx: AppContext, nsp: { in(room: string): { fetchSockets(): Promise<RoomMember[]> } }, room: string, dataSourceIds: (string | null | undefined)[]): Promise<void> {
  const sources = dataSourceIds.filter((x): x is string => Boolean(x)).map((id) => rooms.source(id));
  for (const socket of await nsp.in(room).fetchSockets()) await releaseRooms(ctx, socket, [room], sources);
}

/**
 * A dashboard moved to another source: its viewers follow it, keeping the old source only if
 * something else they view needs it. `skip`: viewers that never follow a source (locked share links).
 */
export async function moveRoom<S extends RoomMember & { join(room: string): unknown }>(
  ctx: AppContext, nsp: { in(room: string): { fetchSockets(): Promise<S[]> } }, room: string, from: string | null | undefined, to: string | null | undefined, skip?: (socket: S) => boolean,
): Promise<void> {
  for (const socket of await nsp.in(room).fetchSockets()) {
    if (skip?.(socket)) continue;
    if (from) {
      const needed = await neededSources(ctx, socket.rooms, [room]);
      if (!needed.has(rooms.source(from))) await socket.leave(rooms.source(from));
    }
    if (to) await socket.join(rooms.source(to));
  }
}
