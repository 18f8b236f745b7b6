import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents, SocketData } from '@common/realtime';
import type { AppContext } from '../core';
import { joinCluster, type ClusterRelay } from './cluster';

/** How long a disconnected viewer's missed packets are kept for it. */
export const RECOVERY_WINDOW_MS = 2 * 60 * 1000;

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface Realtime {
  io: RealtimeServer;
  close(): Promise<void>;
}

/**
 * Socket.IO on the HTTP server, joined to the other processes through Redis when REDIS_URL is set.
 * It knows no feature: the features' rooms and relays are attached by the app (server/sockets).
 */
export async function startRealtimeServer(server: http.Server, ctx: AppContext, opts: { relays: ClusterRelay[]; onRedisReset: () => void }): Promise<{ io: RealtimeServer; closeCluster(): Promise<void> }> {
  const io: RealtimeServer = new Server(server, {
    serveClient: false,
    // No `cors` option: the polling transport sends no CORS headers, so no page of another origin
    // reads a handshake's answer (our own pages need none). WebSocket upgrades know no CORS: the
    // handshake's Origin decides whether its cookie counts (server/sockets/adminAccess).
    maxHttpBufferSize: 1e6,
    // No permessage-deflate: with it, Engine.IO encodes and frames every packet again for every
    // socket (and deflates each one over the threshold for each socket: a 256 KB part of a big
    // delta to 10,000 viewers was 10,000 deflates). Without it a push to a room is encoded and
    // framed once, and the same bytes go to every socket. Deltas come in parts of at most 256 KB
    // (common/realtime.ts); reads over HTTP stay compressed (once per change, in the view cache).
    perMessageDeflate: false,
    // A viewer back within two minutes gets the packets it missed and its rooms again (no refetch).
    connectionStateRecovery: { maxDisconnectionDuration: RECOVERY_WINDOW_MS, skipMiddlewares: true },
  });
  // A WebSocket upgrade answers 101 and, a moment later (the handshake's microtask), Engine.IO's
  // open packet: held back until the turn ends, both go in one write — in a restart storm every
  // viewer's upgrade at once, and each write a syscall.
  server.prependListener('upgrade', (_req: http.IncomingMessage, socket: Duplex) => {
    socket.cork();
    setImmediate(() => socket.uncork());
  });
  try {
    const cluster = ctx.config.REDIS_URL ? await joinCluster(io, ctx, ctx.config.REDIS_URL, opts.onRedisReset, opts.relays) : null;
    return { io, closeCluster: async () => void (await cluster?.close()) };
  } catch (e) {
    io.close();
    throw e;
  }
}
