import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import mongoose from 'mongoose';
import { rooms, type SocketData } from '@common/realtime';
import type { AppContext, DashboardDoc, ShareLinkDoc } from '../core';
import { isCrossSiteHandshake, isAdminToken, draftRoomDashboard, isPrivateRoom, mayHold, type Access, askerOf, accountsHandle, shareLinkReads, termsOf } from '../access';
import { viewCacheOf, neededSources } from '../publicView';
import type { RealtimeServer } from '../realtime';
import { embedRoomsStill } from '../sharing';

interface Session {
  sid: string;
  pid: string;
  rooms: string[];
  data: unknown;
  missedPackets: unknown[][];
}
interface SessionAdapter {
  restoreSession(pid: string, offset: string): Promise<Session | null>;
  persistSession(session: Omit<Session, 'missedPackets'>): void;
}

/** The handshake of the connection being created (its `auth` and HTTP request): restoreSession is only given pid and offset. */
interface Handshake {
  auth: Record<string, unknown>;
  request?: IncomingMessage;
}
const handshakeOf = new AsyncLocalStorage<Handshake>();

/** A session socket recovers only from our own origin with the same session cookie, as its handshake authenticated. */
function sameSession(ctx: AppContext, request: IncomingMessage | undefined, credentialHash: string): boolean {
  if (!request) return false;
  const encrypted = Boolean((request.socket as { encrypted?: boolean } | undefined)?.encrypted);
  return !isCrossSiteHandshake({ headers: request.headers, encrypted, peer: request.socket?.remoteAddress }, ctx.config) && accountsHandle.of(ctx).sessionHashOf(request.headers.cookie) === credentialHash;
}

/** What a recovering socket's credential still allows (sessions and tokens may have ended or changed), or null. */
async function accessStill(ctx: AppContext, data: Partial<SocketData>, { auth, request }: Handshake): Promise<Access | null> {
  if (data.via === 'adminToken') {
    const token = typeof auth.token === 'string' ? auth.token : null;
    return !ctx.config.ADMIN_TOKEN_DISABLED && isAdminToken(token, ctx.adminToken) ? { role: 'admin', dashboardIds: null } : null;
  }
  if (data.via === 'session' && data.credentialHash && !sameSession(ctx, request, data.credentialHash)) return null;
  if ((data.via === 'session' || data.via === 'apiToken') && data.credentialHash) {
    const p = await accountsHandle.of(ctx).lookupHash(data.via, data.credentialHash).catch(() => null);
    return p ? askerOf(p) : null;
  }
  return null;
}

const prefixed = (room: string, prefix: string) => room.startsWith(prefix) && room.length > prefix.length;

/**
 * What a recovered session may still hold: each viewer room is checked again (dashboard still
 * published, share link still live and unexpired, its dashboard still there, a signed embed token
 * still under its dashboard's current secret and unexpired), source audiences are
 * kept only where a remaining room needs them, private rooms (admin, team, data source, draft) only
 * while the socket's credential (admin token in the handshake, session or personal token) still
 * allows them (roomAccess.ts: role and dashboard limits). Null: the credential is gone — no recovery (the handshake is checked anew).
 */
async function recheck(ctx: AppContext, session: Session, handshake: Handshake): Promise<{ keep: string[]; removed: string[] } | null> {
  const data = (session.data ?? {}) as Partial<SocketData>;
  const access = await accessStill(ctx, data, handshake);
  if (data.role && !access) return null;
  const keep: string[] = [];
  const removed: string[] = [];
  const held = new Set(session.rooms);
  for (const room of held) {
    if (room === session.sid || room === rooms.publicList) keep.push(room);
    else if (isPrivateRoom(room)) {
      if (access && (await mayHold(ctx, access, room))) keep.push(room);
      else if (draftRoomDashboard(room)) removed.push(draftRoomDashboard(room)!);
    } else if (prefixed(room, rooms.dashboard(''))) {
      const dashboardId = room.slice(rooms.dashboard('').length);
      const live = await viewCacheOf(ctx).view(dashboardId).then(() => true, () => false);
      if (live) keep.push(room);
      else removed.push(dashboardId);
    }
  }
  // A share viewer holds one link's rooms: share:<dashboardId> and sharelink:<linkId>.
  const shareRoom = [...held].find((r) => prefixed(r, rooms.share('')));
  const linkRoom = [...held].find((r) => prefixed(r, rooms.shareLink('')));
  if (shareRoom) {
    const dashboardId = shareRoom.slice(rooms.share('').length);
    const linkId = linkRoom?.slice(rooms.shareLink('').length);
    const link = linkId && mongoose.isObjectIdOrHexString(linkId) ? await ctx.models.ShareLink.findById(linkId).lean<ShareLinkDoc>() : null;
    const dashboard = link && shareLinkReads(termsOf(link), dashboardId)
      ? await ctx.models.Dashboard.findById(dashboardId).lean<DashboardDoc>()
      : null;
    if (dashboard) keep.push(shareRoom, linkRoom!);
    else removed.push(dashboardId);
  }
  // A signed-embedding viewer keeps its rooms while its token's secret and expiry still hold.
  const embed = await embedRoomsStill(ctx, data, held);
  keep.push(...embed.keep);
  if (embed.removed) removed.push(embed.removed);
  const needed = await neededSources(ctx, keep, []);
  for (const room of held) if (needed.has(room)) keep.push(room);
  return { keep, removed: [...new Set(removed)] };
}

/** The offset a missed packet carries as its last element (both adapters put it there). */
const offsetOf = (packet: unknown[] | undefined): string | null => {
  const last = packet?.[packet.length - 1];
  return typeof last === 'string' ? last : null;
};

/**
 * Connection state recovery re-checks access. Socket.IO restores a session's rooms and sends its
 * missed packets while it creates the socket — before any middleware or `connection` handler runs
 * (`skipMiddlewares` or not) — so the check sits in the adapter's `restoreSession`, which both the
 * in-memory and the Redis Streams adapter call first. Rooms that no longer pass are not restored,
 * the missed packets are read again for the rooms that remain (the adapter filters them by room,
 * so nothing sent to a revoked room — before or after the revocation — reaches the client), and
 * the client is told `dashboard:removed` for each dashboard it lost. Call after the adapter is set.
 */
export function recheckRecoveredSessions(io: RealtimeServer, ctx: AppContext): void {
  const nsp = io.of('/') as unknown as { _createSocket(client: { request?: IncomingMessage }, auth: Record<string, unknown>): Promise<unknown>; adapter: SessionAdapter };
  if (typeof nsp._createSocket !== 'function') throw new Error('socket.io changed: Namespace._createSocket is gone (recovery re-check)');
  const create = nsp._createSocket.bind(nsp);
  nsp._createSocket = (client, auth) => handshakeOf.run({ auth: auth ?? {}, request: client?.request }, () => create(client, auth));

  const adapter = nsp.adapter;
  const restore = adapter.restoreSession.bind(adapter);
  adapter.restoreSession = async (pid, offset) => {
    const first = await restore(pid, offset);
    if (!first) return first;
    const verdict = await recheck(ctx, first, handshakeOf.getStore() ?? { auth: {} });
    if (!verdict) return null;
    const changed = verdict.keep.length !== first.rooms.length;
    // The session again, with the rooms that passed; its packets since the first read (or, when a
    // room was dropped, all of them again, filtered by the remaining rooms).
    adapter.persistSession({ sid: first.sid, pid: first.pid, rooms: verdict.keep, data: first.data });
    const from = changed ? offset : (offsetOf(first.missedPackets.at(-1)) ?? offset);
    const again = await restore(pid, from);
    if (!again) return null;
    const missedPackets = [...(changed ? [] : first.missedPackets), ...again.missedPackets];
    for (const dashboardId of verdict.removed) missedPackets.push(['dashboard:removed', { dashboardId }]);
    if (changed) ctx.log.debug(`realtime: recovered session left ${first.rooms.length - verdict.keep.length} room(s) it may no longer hold`);
    return { ...again, rooms: verdict.keep, missedPackets };
  };
}
