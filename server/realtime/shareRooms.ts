import { MAX_BYTES_PER_MESSAGE, MAX_RECORDS_PER_MESSAGE, rooms } from '@common/realtime';
import type { AppContext } from '../context';
import { publicDashboardHead } from '../services/dashboards';
import { findDataSource } from '../services/dataSources';
import { dashboardIdsOnSource, loadDashboardForShare, removeDashboardLinks } from '../services/shareLinks';
import type { DashboardDoc } from '../models';
import type { RealtimeServer } from './index';

/** Splits a list into messages of at most `size` items and about `maxBytes` of JSON. */
function parts<T>(list: T[], size: number, maxBytes = Infinity): T[][] {
  const out: T[][] = [[]];
  let bytes = 0;
  for (const item of list) {
    const itemBytes = maxBytes === Infinity ? 0 : JSON.stringify(item).length;
    const last = out[out.length - 1];
    if (last.length && (last.length >= size || bytes + itemBytes > maxBytes)) {
      out.push([]);
      bytes = 0;
    }
    out[out.length - 1].push(item);
    bytes += itemBytes;
  }
  return out;
}

/** Longest timer Node runs (about 24.8 days); later expiries are re-armed on the next join. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Share-link viewers: `share:join` by token puts a socket in `share:<dashboardId>` (the dashboard's
 * deltas and look, published or not) and `sharelink:<linkId>` (emptied when the link is revoked).
 * A link's expiry empties its viewers at that moment. Returns the unsubscribe function.
 */
export function attachShareRooms(io: RealtimeServer, ctx: AppContext): () => Promise<void> {
  const expiries = new Map<string, NodeJS.Timeout>();

  const leaveShare = (socket: { id: string; rooms: Set<string>; leave(room: string): unknown }) => {
    clearTimeout(expiries.get(socket.id));
    expiries.delete(socket.id);
    for (const room of [...socket.rooms]) if (room.startsWith('share:') || room.startsWith('sharelink:')) void socket.leave(room);
  };

  io.on('connection', (socket) => {
    socket.on('share:join', async (token, ack) => {
      if (typeof ack !== 'function') return;
      if (typeof token !== 'string') return ack({ ok: false, reason: 'token must be a string' });
      try {
        const { link, dashboard, dataSource } = await loadDashboardForShare(ctx, token, { touch: false });
        leaveShare(socket);
        const dashboardId = String(dashboard._id);
        await socket.join([rooms.share(dashboardId), rooms.shareLink(String(link._id))]);
        if (link.expiresAt) {
          const ms = Math.min(new Date(link.expiresAt).getTime() - Date.now(), MAX_TIMER_MS);
          expiries.set(socket.id, setTimeout(() => {
            socket.emit('dashboard:removed', { dashboardId });
            leaveShare(socket);
          }, Math.max(0, ms)));
        }
        ack({ ok: true, revision: dataSource?.revision ?? 0 });
      } catch {
        ack({ ok: false, reason: 'Dashboard Not Found' });
      }
    });
    socket.on('share:leave', () => leaveShare(socket));
    socket.on('disconnect', () => {
      clearTimeout(expiries.get(socket.id));
      expiries.delete(socket.id);
    });
  });

  /** Empties a room: its viewers see "Dashboard Not Found" and stop receiving its updates. */
  const empty = (room: string, dashboardId: string) => {
    io.to(room).emit('dashboard:removed', { dashboardId });
    io.in(room).socketsLeave([room, rooms.share(dashboardId)]);
  };

  async function emitHead(dashboard: DashboardDoc, dataSourceChanged: boolean) {
    const dataSource = dashboard.dataSourceId ? await findDataSource(ctx, dashboard.dataSourceId) : null;
    const head = publicDashboardHead(dashboard, dataSource);
    const dashboardId = String(dashboard._id);
    io.to(rooms.share(dashboardId)).emit('dashboard:changed', { dashboardId, dashboard: head.dashboard, tabs: head.tabs, dataSource: head.dataSource, dataSourceChanged });
  }

  // Emits happen in the order of the writes that caused them.
  let queue = Promise.resolve();
  const serial = <T>(fn: (payload: T) => Promise<void> | void) => (payload: T) => {
    queue = queue.then(() => fn(payload)).catch((e) => ctx.log.error('share realtime emit failed', e));
  };
  const { events } = ctx;
  const off = [
    events.on('records.upserted', serial(async (e) => {
      const ids = await dashboardIdsOnSource(ctx, e.dataSourceId);
      if (!ids.length) return;
      const split = parts(e.records, MAX_RECORDS_PER_MESSAGE, MAX_BYTES_PER_MESSAGE);
      split.forEach((records, part) => {
        for (const dashboardId of ids) {
          io.to(rooms.share(dashboardId)).emit('records:upserted', {
            dataSourceId: e.dataSourceId, revision: e.revision, total: e.total, part, parts: split.length, records, dashboardId,
          });
        }
      });
    })),
    events.on('records.removed', serial(async (e) => {
      const ids = e.dashboardIds ?? (await dashboardIdsOnSource(ctx, e.dataSourceId));
      const split = parts(e.recordIds, MAX_RECORDS_PER_MESSAGE * 10);
      split.forEach((recordIds, part) => {
        for (const dashboardId of ids) {
          io.to(rooms.share(dashboardId)).emit('records:removed', {
            dataSourceId: e.dataSourceId, revision: e.revision, total: e.total, part, parts: split.length, recordIds, all: e.all, dashboardId,
          });
        }
      });
    })),
    events.on('dashboard.changed', serial(async ({ dashboard, previousDataSourceId }) => {
      const doc = await ctx.models.Dashboard.findById(dashboard.id).lean<DashboardDoc>();
      if (doc) await emitHead(doc, previousDataSourceId !== dashboard.dataSourceId);
    })),
    events.on('datasource.changed', serial(async ({ dataSource, metadataChanged }) => {
      if (!metadataChanged) return;
      const docs = await ctx.models.Dashboard.find({ dataSourceId: dataSource.id }).lean<DashboardDoc[]>();
      for (const d of docs) await emitHead(d, false);
    })),
    events.on('dashboard.removed', serial(async ({ dashboardId }) => {
      empty(rooms.share(dashboardId), dashboardId);
      await removeDashboardLinks(ctx, dashboardId);
    })),
    events.on('shareLink.revoked', serial(({ link }) => empty(rooms.shareLink(link.id), link.dashboardId))),
  ];

  return async () => {
    off.forEach((fn) => fn());
    await queue;
    for (const t of expiries.values()) clearTimeout(t);
    expiries.clear();
  };
}
