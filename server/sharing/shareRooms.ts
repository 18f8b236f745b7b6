import { rooms } from '@common/realtime';
import type { AppContext, DashboardDoc } from '../core';
import { publicDashboardHead } from '../dashboards';
import { findDataSource } from '../core';
import { shareLinkFilters } from '../access';
import { loadDashboardForShare } from './shareLinks';
import { canonicalShareToken } from '@common/ids';
import { viewerCounter, viewCacheOf, moveRoom, releaseRooms, type RoomMember } from '../publicView';
import type { RealtimeServer } from '../realtime';
import { isEmbedViewKey } from './signedEmbedding/access';

type RealtimeSocket = Parameters<Parameters<RealtimeServer['on']>[1]>[0];

/** Longest timer Node runs (about 24.8 days); later expiries are re-armed on the next join. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Share-link viewers: `share:join` by token puts a socket in `share:<dashboardId>` (the dashboard's
 * look, published or not), `sharelink:<linkId>` (emptied when the link is revoked) and its data
 * source's public audience `source:<id>` (record deltas, emitted once per change for every viewer).
 * A link with locked filters never joins the source's audience: its viewers get the deltas the view
 * cache splits for it (server/sharing/lockedLinkViews.ts), sent to `sharelink:<linkId>` on this process.
 * A link's expiry empties its viewers at that moment. Returns the unsubscribe function.
 */
export function attachShareRooms(io: RealtimeServer, ctx: AppContext): () => Promise<void> {
  const expiries = new Map<string, NodeJS.Timeout>();

  /** Rooms a share viewer leaves when its link ends (and its source's deltas, unless a dashboard it views needs them). */
  const shareRoomsOf = (joined: Set<string>) => [...joined].filter((r) => r.startsWith(rooms.share('')) || r.startsWith(rooms.shareLink('')));
  const leaveShare = async (socket: RoomMember & { id: string }) => {
    clearTimeout(expiries.get(socket.id));
    expiries.delete(socket.id);
    await releaseRooms(ctx, socket, shareRoomsOf(socket.rooms));
  };

  /** At the link's expiry the socket is told and leaves its rooms. */
  const armExpiry = (socket: RealtimeSocket, dashboardId: string, expiresAt: string | null) => {
    if (!expiresAt) return;
    const ms = Math.min(new Date(expiresAt).getTime() - Date.now(), MAX_TIMER_MS);
    expiries.set(socket.id, setTimeout(() => {
      socket.emit('dashboard:removed', { dashboardId });
      void leaveShare(socket);
    }, Math.max(0, ms)));
  };

  io.on('connection', (socket) => {
    // A recovered session still holding its link's rooms (checked again, recoveryCheck.ts) keeps its expiry.
    const held = socket.data.share;
    if (socket.recovered && held && [...socket.rooms].some((r) => r.startsWith(rooms.shareLink('')))) armExpiry(socket, held.dashboardId, held.expiresAt);
    socket.on('share:join', async (token, ack) => {
      if (typeof ack !== 'function') return;
      if (typeof token !== 'string') return ack({ ok: false, reason: 'token must be a string' });
      if (!canonicalShareToken(token)) return ack({ ok: false, reason: 'Dashboard Not Found' });
      try {
        const { link, dashboard, dataSource } = await loadDashboardForShare(ctx, token, { touch: false });
        await leaveShare(socket);
        const dashboardId = String(dashboard._id);
        const linkId = String(link._id);
        const filters = shareLinkFilters(link);
        const locked = filters.length > 0;
        if (locked) {
          // The records are held here, so this process can split every change for the link.
          const cache = viewCacheOf(ctx);
          cache.locked.watch(linkId, dashboardId, filters);
          await cache.view(dashboardId, { drafts: true }).catch(() => undefined);
        }
        await socket.join([rooms.share(dashboardId), rooms.shareLink(linkId), ...(dataSource && !locked ? [rooms.source(String(dataSource._id))] : [])]);
        const expiresAt = link.expiresAt ? new Date(link.expiresAt).toISOString() : null;
        socket.data.share = { dashboardId, expiresAt, locked };
        armExpiry(socket, dashboardId, expiresAt);
        viewerCounter(ctx)?.viewed(dashboardId, socket);
        ack({ ok: true, revision: dataSource?.revision ?? 0 });
      } catch {
        ack({ ok: false, reason: 'Dashboard Not Found' });
      }
    });
    socket.on('share:leave', () => void leaveShare(socket));
    socket.on('disconnect', () => {
      clearTimeout(expiries.get(socket.id));
      expiries.delete(socket.id);
    });
  });

  /** Empties a room: its viewers see "Dashboard Not Found" and stop receiving its updates. */
  const empty = async (room: string, dashboardId: string) => {
    io.to(room).emit('dashboard:removed', { dashboardId });
    for (const socket of await io.in(room).fetchSockets()) await releaseRooms(ctx, socket, shareRoomsOf(socket.rooms));
  };
  /** Signed-embedding viewers of a deleted dashboard are told, and their sockets end. */
  const endEmbeds = (dashboardId: string) => {
    io.to(rooms.embed(dashboardId)).emit('dashboard:removed', { dashboardId });
    io.in(rooms.embed(dashboardId)).disconnectSockets();
  };

  async function emitHead(dashboard: DashboardDoc, dataSourceChanged: boolean) {
    const dataSource = dashboard.dataSourceId ? await findDataSource(ctx, dashboard.dataSourceId) : null;
    const head = publicDashboardHead(dashboard, dataSource);
    const dashboardId = String(dashboard._id);
    // Share-link and signed-embedding viewers alike (the record deltas reach each by its own room).
    io.to([rooms.share(dashboardId), rooms.embed(dashboardId)]).emit('dashboard:changed', { dashboardId, dashboard: head.dashboard, tabs: head.tabs, dataSource: head.dataSource, dataSourceChanged });
  }

  // Emits happen in the order of the writes that caused them.
  let queue = Promise.resolve();
  const serial = <T>(fn: (payload: T) => Promise<void> | void) => (payload: T) => {
    queue = queue.then(() => fn(payload)).catch((e) => ctx.log.error('share realtime emit failed', e));
  };
  const { events } = ctx;
  const off = [
    events.on('dashboard.changed', serial(async ({ dashboard, previousDataSourceId }) => {
      // Share viewers follow the dashboard to its new source's deltas (drafts too).
      if (previousDataSourceId !== dashboard.dataSourceId) {
        await moveRoom(ctx, io, rooms.share(dashboard.id), previousDataSourceId, dashboard.dataSourceId, (s) => Boolean(s.data.share?.locked));
        await moveRoom(ctx, io, rooms.embed(dashboard.id), previousDataSourceId, dashboard.dataSourceId, (s) => Boolean(s.data.embed?.viewKey));
      }
      const doc = await ctx.models.Dashboard.findById(dashboard.id).lean<DashboardDoc>();
      if (doc) await emitHead(doc, previousDataSourceId !== dashboard.dataSourceId);
    })),
    events.on('datasource.changed', serial(async ({ dataSource, metadataChanged }) => {
      if (!metadataChanged) return;
      const docs = await ctx.models.Dashboard.find({ dataSourceId: dataSource.id }).lean<DashboardDoc[]>();
      for (const d of docs) await emitHead(d, false);
    })),
    events.on('dashboard.removed', serial(async ({ dashboardId }) => {
      // The links themselves are deleted by the sharing feature (cascades.ts); here their viewers are told.
      await empty(rooms.share(dashboardId), dashboardId);
      endEmbeds(dashboardId);
    })),
    events.on('shareLink.revoked', serial(({ link }) => empty(rooms.shareLink(link.id), link.dashboardId))),
  ];
  // Locked views' deltas — locked share links' and signed embed tokens' — split by the view cache for
  // this process's viewers (local and relayed changes alike).
  const offLocked = viewCacheOf(ctx).locked.listen((d) => {
    const room = io.local.to(isEmbedViewKey(d.key) ? rooms.embedView(d.key) : rooms.shareLink(d.key));
    if (d.kind === 'upserted') room.emit('records:upserted', d.e);
    else if (d.kind === 'removed') room.emit('records:removed', d.e);
    else room.emit('view:resync', { reason: 'locked-view' });
  });

  return async () => {
    offLocked();
    off.forEach((fn) => fn());
    await queue;
    for (const t of expiries.values()) clearTimeout(t);
    expiries.clear();
  };
}
