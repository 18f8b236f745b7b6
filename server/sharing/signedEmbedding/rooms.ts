import { rooms, type SocketData } from '@common/realtime';
import type { AppContext, DashboardDoc } from '../../core';
import { clientAddress, findDataSource } from '../../core';
import { embedTokenFilters, embedTokenReads, failedCredentials, rateLimitsHandle } from '../../access';
import { releaseRooms, viewCacheOf, viewerCounter, type RoomMember } from '../../publicView';
import { RECOVERY_WINDOW_MS, type RealtimeServer } from '../../realtime';
import { EmbedRefused, embedAccessOf, embedViewKey } from './access';

type RealtimeSocket = Parameters<Parameters<RealtimeServer['on']>[1]>[0];

/** Longest timer Node runs (about 24.8 days); a token lives a day at most anyway. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** What a refused join is told: one reason for every refusal, as over REST. */
const REFUSED = 'This embed token is not valid';

const EMBED = rooms.embed('');
const EMBED_VIEW = rooms.embedView('');
const embedRoomsOf = (joined: Iterable<string>) => [...joined].filter((r) => r.startsWith(EMBED) || r.startsWith(EMBED_VIEW));

/**
 * Signed-embedding viewers: `embed:join` by token puts a socket in `embed:<dashboardId>` (the
 * dashboard's look, published or not; emptied when its secret changes) and either its source's
 * public audience (a token that locks nothing) or `embedview:<viewKey>` — the locked view its
 * token's filters make, whose deltas the view cache splits as it does a locked share link's (never
 * a record the token may not see). A refused join counts like a refused token over REST. The socket
 * ends at the token's `exp`, and at once when the dashboard's secret changes (on every process:
 * the change is relayed), after `dashboard:removed`. Returns the unsubscribe function.
 */
export function attachEmbedRooms(io: RealtimeServer, ctx: AppContext): () => void {
  const access = embedAccessOf(ctx);
  const cache = viewCacheOf(ctx);
  const failures = failedCredentials(rateLimitsHandle.of(ctx));
  const expiries = new Map<string, NodeJS.Timeout>();

  /** A locked view nobody on this process watches any more is no longer split here. */
  const unwatchIfEmpty = (viewKey: string | null | undefined) => {
    if (viewKey && !io.of('/').adapter.rooms.get(rooms.embedView(viewKey))?.size) cache.locked.unwatch(viewKey);
  };
  /** A dropped viewer may come back within the recovery window, expecting what it missed: its view is kept split until then. */
  const releases = new Map<string, NodeJS.Timeout>();
  const unwatchLater = (viewKey: string | null | undefined) => {
    if (!viewKey || releases.has(viewKey)) return;
    releases.set(viewKey, setTimeout(() => {
      releases.delete(viewKey);
      unwatchIfEmpty(viewKey);
    }, RECOVERY_WINDOW_MS + 5_000));
  };
  const leave = async (socket: RoomMember & { id: string; data: Partial<SocketData> }) => {
    clearTimeout(expiries.get(socket.id));
    expiries.delete(socket.id);
    const viewKey = socket.data.embed?.viewKey;
    delete socket.data.embed;
    await releaseRooms(ctx, socket, embedRoomsOf(socket.rooms));
    unwatchIfEmpty(viewKey);
  };
  /**
   * The token ended (its exp, its secret changed): the viewer is told, and its socket ends. Told
   * through this process alone: a socket's own emit goes through the Redis adapter first (for
   * recovery, which an ended socket does not get), and would arrive after the disconnect.
   */
  const end = (socket: RealtimeSocket, dashboardId: string) => {
    io.local.to(socket.id).emit('dashboard:removed', { dashboardId });
    socket.disconnect();
  };
  const arm = (socket: RealtimeSocket, dashboardId: string, exp: number) => {
    clearTimeout(expiries.get(socket.id));
    expiries.set(socket.id, setTimeout(() => end(socket, dashboardId), Math.max(0, Math.min(exp * 1000 - Date.now(), MAX_TIMER_MS))));
  };

  io.on('connection', (socket) => {
    // A recovered session that kept its embed rooms (checked again, embedRoomsStill) keeps its expiry and its deltas.
    const held = socket.data.embed;
    if (socket.recovered && held && socket.rooms.has(rooms.embed(held.dashboardId))) {
      if (held.viewKey) cache.locked.watch(held.viewKey, held.dashboardId, held.filters ?? []);
      arm(socket, held.dashboardId, held.exp);
    }
    socket.on('embed:join', async (token, ack) => {
      if (typeof ack !== 'function') return;
      const address = clientAddress(socket.handshake.headers, socket.handshake.address, ctx.config);
      try {
        if (typeof token !== 'string') throw new EmbedRefused('malformed');
        const blocked = await failures.blocked(address, token);
        if (blocked) return ack({ ok: false, reason: blocked });
        const grant = await access.open(token).catch(async (e: unknown) => {
          if (e instanceof EmbedRefused) await failures.failed(address, token);
          throw e;
        });
        const dashboard = await ctx.models.Dashboard.findById(grant.dashboardId).lean<DashboardDoc>();
        if (!dashboard) throw new EmbedRefused('no_secret');
        const dataSource = dashboard.dataSourceId ? await findDataSource(ctx, dashboard.dataSourceId) : null;
        await leave(socket);
        const filters = embedTokenFilters(grant);
        const viewKey = embedViewKey(grant);
        if (viewKey) {
          // The records are held here, so this process can split every change for the view.
          cache.locked.watch(viewKey, grant.dashboardId, filters);
          await cache.view(grant.dashboardId, { drafts: true }).catch(() => undefined);
        }
        await socket.join([rooms.embed(grant.dashboardId), ...(viewKey ? [rooms.embedView(viewKey)] : dataSource ? [rooms.source(String(dataSource._id))] : [])]);
        socket.data.embed = { dashboardId: grant.dashboardId, secretId: grant.secretId, exp: grant.exp, viewKey, filters };
        arm(socket, grant.dashboardId, grant.exp);
        viewerCounter(ctx)?.viewed(grant.dashboardId, socket);
        access.used('join');
        const revision = dataSource?.revision ?? 0;
        ack({ ok: true, revision });
        // As a broadcast to its own room, so it carries a recovery offset (a viewer that drops before
        // any delta arrived can still be recovered from here), as a dashboard's join does.
        socket.nsp.to(socket.id).emit('view:joined', { dashboardId: grant.dashboardId, revision });
      } catch (e) {
        if (!(e instanceof EmbedRefused)) ctx.log.error('embed:join failed', e);
        ack({ ok: false, reason: REFUSED });
      }
    });
    socket.on('embed:leave', () => void leave(socket));
    socket.on('disconnect', () => {
      clearTimeout(expiries.get(socket.id));
      expiries.delete(socket.id);
      unwatchLater(socket.data.embed?.viewKey);
    });
  });

  /**
   * A dashboard's secret changed (here or on another process; null: Redis was lost, so any may
   * have): this process's sockets verified under another secret end at once.
   */
  const secretChanged = async (dashboardId: string | null) => {
    const current = new Map<string, string | null>();
    for (const socket of io.of('/').sockets.values()) {
      const held = socket.data.embed;
      if (!held || (dashboardId !== null && held.dashboardId !== dashboardId)) continue;
      if (!current.has(held.dashboardId)) current.set(held.dashboardId, await access.currentSecretId(held.dashboardId));
      if (current.get(held.dashboardId) !== held.secretId) end(socket, held.dashboardId);
    }
  };
  const offSecret = ctx.events.on('embedding.secretChanged', ({ dashboardId }) => {
    secretChanged(dashboardId).catch((e) => ctx.log.error('embedding: could not end the sockets of a changed secret', e));
  });

  return () => {
    offSecret();
    for (const t of [...expiries.values(), ...releases.values()]) clearTimeout(t);
    expiries.clear();
    releases.clear();
  };
}

/**
 * Which embed rooms a recovering socket keeps (connection state recovery, sockets/recoveryCheck):
 * both, while its token's secret is the dashboard's current one, its `exp` has not passed and its
 * dashboard exists; else none, and the dashboard it lost.
 */
export async function embedRoomsStill(ctx: AppContext, data: Partial<SocketData>, held: Set<string>): Promise<{ keep: string[]; removed: string | null }> {
  const embed = data.embed;
  const mine = embedRoomsOf(held);
  if (!embed || !mine.length) return { keep: [], removed: null };
  const current = await embedAccessOf(ctx).currentSecretId(embed.dashboardId).catch(() => null);
  const opens = current === embed.secretId && embedTokenReads({ dashboardId: embed.dashboardId, exp: embed.exp, filters: embed.filters ?? [] }, embed.dashboardId) && embed.exp * 1000 > Date.now();
  const exists = opens && (await ctx.models.Dashboard.exists({ _id: embed.dashboardId }).catch(() => null));
  return exists ? { keep: mine, removed: null } : { keep: [], removed: embed.dashboardId };
}
