import { rooms } from '@common/realtime';
import type { AppContext } from '../context';
import { ViewStats } from '../services/viewStats';
import type { RealtimeServer } from './index';

/** What the analytics route asks the realtime side. */
export interface ViewerCounter {
  /** Open viewers of each dashboard, counted in its rooms across every process (the adapter). */
  viewers(dashboardIds: string[]): Promise<Map<string, number>>;
  stats: ViewStats;
}

const counters = new WeakMap<AppContext, ViewerCounter>();

/** The viewer counter of a running app (set when realtime attaches). */
export function viewerCounter(ctx: AppContext): ViewerCounter | null {
  return counters.get(ctx) ?? null;
}

/** Which dashboard a viewer room belongs to: `dashboard:<id>` (public) or `share:<id>` (share links). */
function dashboardOfRoom(room: string): string | null {
  for (const prefix of ['dashboard:', 'share:']) if (room.startsWith(prefix)) return room.slice(prefix.length);
  return null;
}

/** Recounts a dashboard's viewers this long after a join or leave, so a burst costs one count. */
const RECOUNT_MS = 200;

/**
 * Live viewer counts: every socket joining a dashboard's viewer room counts one view today, and
 * each join or leave pushes the dashboard's viewer count (all processes) to the admin room.
 */
export async function attachViewerCounts(io: RealtimeServer, ctx: AppContext): Promise<() => void> {
  const stats = await ViewStats.open(ctx.conn);
  const count = async (dashboardId: string) => (await io.in([rooms.dashboard(dashboardId), rooms.share(dashboardId)]).fetchSockets()).length;
  const counter: ViewerCounter = {
    stats,
    async viewers(ids) {
      return new Map(await Promise.all(ids.map(async (id) => [id, await count(id)] as const)));
    },
  };
  counters.set(ctx, counter);

  const timers = new Map<string, NodeJS.Timeout>();
  const today = new Map<string, { day: string; views: number }>();
  const push = (dashboardId: string) => {
    if (timers.has(dashboardId)) return;
    timers.set(dashboardId, setTimeout(() => {
      timers.delete(dashboardId);
      void count(dashboardId)
        .then((viewers) => {
          const t = today.get(dashboardId) ?? { day: new Date().toISOString().slice(0, 10), views: 0 };
          io.to(rooms.admin).emit('admin:viewers', { dashboardId, viewers, viewsToday: t.views, day: t.day });
        })
        .catch((e) => ctx.log.error('viewer count failed', e));
    }, RECOUNT_MS));
  };

  const adapter = io.of('/').adapter;
  const onJoin = (room: string) => {
    const dashboardId = dashboardOfRoom(room);
    if (!dashboardId) return;
    void stats
      .count(dashboardId)
      .then((t) => today.set(dashboardId, t))
      .catch((e) => ctx.log.error('view count failed', e))
      .finally(() => push(dashboardId));
  };
  const onLeave = (room: string) => {
    const dashboardId = dashboardOfRoom(room);
    if (dashboardId) push(dashboardId);
  };
  adapter.on('join-room', onJoin);
  adapter.on('leave-room', onLeave);
  return () => {
    adapter.off('join-room', onJoin);
    adapter.off('leave-room', onLeave);
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
    counters.delete(ctx);
  };
}
