import { rooms } from '@common/realtime';
import type { Role } from '@common/schemas/auth';
import { askerOf, hasRole, API_TOKEN_PREFIX, type Principal, accountsHandle, isCrossSiteHandshake, readSessionCookie, isAdminToken, failedCredentials, draftRoomDashboard, isPrivateRoom, mayHold, rateLimitsHandle } from '../access';
import { ErrorCode } from '@common/schemas/errors';
import type { AppContext } from '../core';
import { clientAddress } from '../core';
import type { RealtimeServer } from '../realtime';
import { releaseRooms } from '../publicView';
import { startSocketRecheck, type RoomCheck } from './socketRecheck';

type AppSocket = Parameters<Parameters<RealtimeServer['on']>[1]>[0];

/** A refused handshake, with a stable code the client matches on (never the message). */
const refuse = (code: string, message: string) => Object.assign(new Error(message), { data: { code } });

const signedOut = { isAdmin: false, role: null, userId: null, credentialHash: null, via: null, dashboardIds: null } as const;

function setPrincipal(socket: AppSocket, p: Principal | null) {
  Object.assign(
    socket.data,
    p ? { isAdmin: hasRole(askerOf(p), 'admin'), role: p.role, userId: p.user?.id ?? null, credentialHash: p.credentialHash, via: p.via, dashboardIds: p.user?.dashboardIds ?? null } : signedOut,
  );
}

/**
 * Who a socket is: a token in the handshake (`auth: { token }`: the admin token or a personal API
 * token; a wrong one is refused and counted like a wrong bearer token over REST), else the session
 * cookie of a handshake from our own origin (an ended session, or a page of another origin, just
 * connects signed out, so public viewing never breaks). Admins join
 * the admin room. Ended sessions and tokens close their sockets at once (the `auth.revoked` event,
 * relayed between processes), and a socket recovering after a gap has its credential checked again.
 */
export function attachAdminAccess(io: RealtimeServer, ctx: AppContext): { close(): void; recheckSockets(): void } {
  const failures = failedCredentials(rateLimitsHandle.of(ctx));
  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token === 'string' && token) {
      const address = clientAddress(socket.handshake.headers, socket.handshake.address, ctx.config);
      const blocked = await failures.blocked(address, token);
      if (blocked) return next(refuse(ErrorCode.rateLimited, blocked));
      const p: Principal | null =
        !ctx.config.ADMIN_TOKEN_DISABLED && isAdminToken(token, ctx.adminToken) ? { via: 'adminToken', role: 'admin', user: null, credentialHash: null }
        : token.startsWith(API_TOKEN_PREFIX) ? await accountsHandle.of(ctx).lookupApiToken(token)
        : null;
      if (!p) {
        await failures.failed(address, token);
        ctx.events.emit('activity.happened', { kind: 'auth.failed', category: 'auth', summary: 'Refused admin token on the realtime (Socket.IO) handshake', address, details: { audience: 'admin', path: '/socket.io' } });
        return next(refuse(ErrorCode.invalidAdminToken, 'Invalid admin token'));
      }
      setPrincipal(socket, p);
      return next();
    }
    // The cookie counts only from our own pages: a page of another origin (even of the same site,
    // whose WebSocket upgrades carry the cookie) connects signed out — public rooms only, as embeds need.
    const session = isCrossSiteHandshake({ headers: socket.handshake.headers, encrypted: socket.handshake.secure, peer: socket.handshake.address }, ctx.config) ? null : readSessionCookie(socket.handshake.headers.cookie);
    setPrincipal(socket, session ? await accountsHandle.of(ctx).lookupSession(session).catch(() => null) : null);
    next();
  });

  io.on('connection', (socket) => {
    if (socket.recovered) void recheck(socket).catch((e) => ctx.log.error('realtime: could not check a recovered socket again', e));
    else joinRoleRooms(socket);
  });

  /** Admins join the admin room; editors and admins the team room, or those of their chosen dashboards. */
  function joinRoleRooms(socket: AppSocket) {
    if (socket.data.isAdmin) void socket.join(rooms.admin);
    if (!socketHasRole(socket, 'editor')) return;
    const limit = socket.data.dashboardIds;
    void socket.join(limit ? limit.map(rooms.teamDashboard) : [rooms.team]);
  }

  /**
   * The credential may have ended or changed (a gap, an admin changed the person's dashboard limits,
   * or a revocation Redis lost — the periodic check): keep only the private rooms it still allows,
   * and tell the socket of each draft it lost.
   */
  async function recheck(socket: AppSocket, checked?: { principal: Principal | null; holds: RoomCheck }) {
    const { credentialHash, via } = socket.data;
    if (!credentialHash || (via !== 'session' && via !== 'apiToken')) return;
    // The periodic check brings the credential it read (reading it is not a use: the session's idle expiry stays).
    const p = checked ? checked.principal : await accountsHandle.of(ctx).lookupHash(via, credentialHash).catch(() => null);
    const holds: RoomCheck = checked?.holds ?? ((access, room) => mayHold(ctx, access, room));
    setPrincipal(socket, p);
    const lost: string[] = [];
    for (const room of [...socket.rooms]) if (isPrivateRoom(room) && !(await holds(socket.data, room))) lost.push(room);
    if (lost.length) await releaseRooms(ctx, socket, lost);
    for (const dashboardId of lost.map(draftRoomDashboard)) if (dashboardId) socket.emit('dashboard:removed', { dashboardId });
    if (p) joinRoleRooms(socket);
  }

  // What the relay could not bring (revoked while Redis was down) is found by checking again.
  const sweep = startSocketRecheck(io, ctx, recheck);
  const off = ctx.events.on('auth.revoked', (r) => {
    const hashes = new Set(r.credentialHashes ?? []);
    for (const socket of io.of('/').sockets.values()) {
      const { credentialHash, userId } = socket.data;
      const ofUser = Boolean(r.userId && userId === r.userId);
      // Changed dashboard limits apply to open sockets at once (in every process: the relay brings the event).
      if (r.refreshOnly) {
        if (ofUser) void recheck(socket).catch((e) => ctx.log.error('realtime: could not apply changed dashboard limits to a socket', e));
      } else if ((credentialHash && hashes.has(credentialHash)) || ofUser) socket.disconnect(true);
    }
  });
  return {
    close: () => {
      off();
      sweep.close();
    },
    /** Checks every signed-in socket of this process again now (the Redis relay is back). */
    recheckSockets: sweep.run,
  };
}

/** Whether a socket's role includes the one a room needs. */
export const socketHasRole = (socket: AppSocket, needed: Role) => hasRole(socket.data, needed);
