import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents, SocketData } from '@common/realtime';
import type { AppContext } from '../core';
import { joinCluster, type ClusterRelay } from './cluster';

/** Frames from this size go deflated (smaller ones cost more CPU to deflate than they save). */
const DEFLATE_THRESHOLD = 4096;

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
    // Large frames (a big ingest's delta) go deflated; small ones as they are, so the common case
    // costs no CPU. ws honours the threshold only without context takeover: with it, every frame
    // to every socket was deflated (a single-record delta to 200 viewers: 200 deflates, most of
    // the server's CPU under sustained ingest, and viewers falling seconds behind).
    perMessageDeflate: { threshold: DEFLATE_THRESHOLD, serverNoContextTakeover: true, clientNoContextTakeover: true, zlibDeflateOptions: { level: 3, memLevel: 7 } },
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
  io.engine.on('connection', (conn: EngineSocket) => {
    shareSmallFrames(conn.transport);
    conn.on('upgrade', shareSmallFrames);
  });
  try {
    const cluster = ctx.config.REDIS_URL ? await joinCluster(io, ctx, ctx.config.REDIS_URL, opts.onRedisReset, opts.relays) : null;
    return { io, closeCluster: async () => void (await cluster?.close()) };
  } catch (e) {
    io.close();
    throw e;
  }
}

interface EngineTransport {
  _canSendPreEncodedFrame?: (packet: { options?: { wsPreEncodedFrame?: Buffer[] } }) => boolean;
  /** The ws connection (websocket transport); its sender queues messages behind one being deflated. */
  socket?: { _sender?: { _state?: unknown; _queue?: unknown } };
}
interface EngineSocket {
  transport: EngineTransport;
  on(event: 'upgrade', fn: (transport: EngineTransport) => void): unknown;
}

/**
 * A push is encoded once: Socket.IO builds one WebSocket frame for every socket of the rooms, but
 * Engine.IO sends it only on connections without permessage-deflate — with deflate configured,
 * each socket encoded and framed the message again (at 10,000 viewers, 10,000 encodes per push).
 * Frames under the threshold are never deflated anyway, so those go as the shared frame; larger
 * ones still go through ws and its deflate. Should Engine.IO's internals change, pushes are simply
 * encoded per socket again, as before. A shared frame never overtakes a message ws is still
 * deflating (it would be written at once, the deflated one after it).
 */
function shareSmallFrames(transport: EngineTransport): void {
  if (typeof transport._canSendPreEncodedFrame !== 'function') return;
  const canSend = transport._canSendPreEncodedFrame.bind(transport);
  const withoutDeflate = transport as EngineTransport & { perMessageDeflate?: unknown };
  transport._canSendPreEncodedFrame = (packet) => {
    const frame = packet.options?.wsPreEncodedFrame;
    const sender = transport.socket?._sender;
    // ws's sender is idle in its state 0 (DEFAULT), with nothing queued.
    const idle = sender?._state === 0 && Array.isArray(sender._queue) && !sender._queue.length;
    if (!idle || !frame || frame.reduce((n, b) => n + b.length, 0) >= DEFLATE_THRESHOLD) return canSend(packet);
    const deflate = withoutDeflate.perMessageDeflate;
    withoutDeflate.perMessageDeflate = null;
    try {
      return canSend(packet);
    } finally {
      withoutDeflate.perMessageDeflate = deflate;
    }
  };
}
