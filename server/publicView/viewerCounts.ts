import type { Socket } from 'socket.io';
import { rooms } from '@common/realtime';
import { canonicalViewerPage } from '@common/ids';
import { AppHandle, type AppContext } from '../core';
import { ViewStats } from './viewStats';
import type { RealtimeServer } from '../realtime';
import { teamOf } from '../access';

/** What the analytics route asks the realtime side. */
export interface ViewerCounter {
  /** Open viewers of each dashboard, counted in its rooms across every process (the adapter). */
  viewers(dashboardIds: string[]): Promise<Map<string, number>>;
  stats: ViewStats;
  /** A socket opened a dashboard (joined its public or share room): one view, once per viewer page. */
  viewed(dashboardId: string, socket: Pick<Socket, 'handshake' | 'id'>): void;
}

/** Pending views are written this often (and when the server stops). */
export const VIEWS_FLUSH_MS = 5_000;

/**
 * The viewer page a socket belongs to: the id the web app sends in its handshake (`auth.page`,
 * made once per page load and sent again on every reconnect), else the socket's session id (which
 * a recovered connection keeps; a client without a page id counts again after an unrecovered reconnect).
 */
export function viewerPageOf(socket: Pick<Socket, 'handshake' | 'id'>): string {
  const page = canonicalViewerPage((socket.handshake.auth as { page?: unknown } | undefined)?.page);
  return page ? `page:${page}` : `session:${socket.id}`;
}

const counters = new AppHandle<ViewerCounter>('the viewer counts');

/** The viewer counter of a running app (set when realtime attaches). */
export function viewerCounter(ctx: AppContext): ViewerCounter | null {
  return counters.peek(ctx) ?? null;
}

/** Which dashboard a viewer room belongs to: `dashboard:<id>` (public) or `share:<id>` (share links). */
function dashboardOfRoom(room: string): string | null {
  for (const prefix of ['dashboard:', 'share:']) if (room.startsWith(prefix)) return room.slice(prefix.length);
  return null;
}

/** Recounts a dashboard's viewers this long after a join or leave, so a burst costs one count. */
const RECOUNT_MS = 200;

/**
 * Live viewer counts: each join or leave of a dashboard's viewer rooms pushes the dashboard's
 * viewer count (all processes) to the admin room. Views are counted once per viewer page and day
 * in memory (`viewed`, called by the joins) and written every VIEWS_FLUSH_MS, one write per
 * dashboard, and when the server stops.
 */
export async function attachViewerCounts(io: RealtimeServer, ctx: AppContext): Promise<() => Promise<void>> {
  const stats = await ViewStats.open(ctx.conn);
  const count = async (dashboardId: string) => (await io.in([rooms.dashboard(dashboardId), rooms.share(dashboardId)]).fetchSockets()).length;
  const counter: ViewerCounter = {
    stats,
    async viewers(ids) {
      return new Map(await Promise.all(ids.map(async (id) => [id, await count(id)] as const)));
    },
    viewed(dashboardId, socket) {
      stats.view(dashboardId, viewerPageOf(socket));
    },
  };
  counters.set(ctx, counter);
  const flush = () => stats.flush().catch((e) => ctx.log.error('writing view counts failed', e));
  const flusher = setInterval(() => void flush(), VIEWS_FLUSH_MS);
  flusher.unref();

  const timers = new Map<string, NodeJS.Timeout>();
  const push = (dashboardId: string) => {
    if (timers.has(dashboardId)) return;
    timers.set(dashboardId, setTimeout(() => {
      timers.delete(dashboardId);
      void Promise.all([count(dashboardId), stats.today(dashboardId)])
        .then(([viewers, t]) => {
          io.to(teamOf(dashboardId)).emit('admin:viewers', { dashboardId, viewers, viewsToday: t.views, day: t.day });
        })
        .catch((e) => ctx.log.error('viewer count failed', e));
    }, RECOUNT_MS));
  };

  const adapter = io.of('/').adapter;
  const onJoinOrLeave = (room: string) => {
    const dashboardId = dashboardOfRoom(room);
    if (dashboardId) push(dashboardId);
  };
  adapter.on('join-room', onJoinOrLeave);
  adapter.on('leave-room', onJoinOrLeave);
  return async () => {
    adapter.off('join-room', onJoinOrLeave);
    adapter.off('leave-room', onJoinOrLeave);
    clearInterval(flusher);
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
    counters.clear(ctx);
    await flush();
  };
}
