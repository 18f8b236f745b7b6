import { io, type Socket } from 'socket.io-client';
import { create } from 'zustand';
import type { ClientToServerEvents, ServerToClientEvents } from '@common/realtime';
import { SIGN_IN_AGAIN_CODES } from '@common/schemas/errors';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline';

/** Connection state per socket kind, for the "Live" indicators. */
export const useConnection = create<{ public: ConnectionState; admin: ConnectionState }>(() => ({ public: 'connecting', admin: 'connecting' }));

/**
 * Longest wait between two reconnection attempts of a public socket: random per client, 1–4 s.
 * Socket.IO caps its backoff after adding its jitter, so with one fixed cap every viewer of a
 * restarted server would retry in the same instant, again and again; a cap of its own per client
 * spreads them out (and brings them back sooner than the default 5 s).
 */
export function reconnectDelayMax(): number {
  return 1_000 + Math.round(Math.random() * 3_000);
}

/**
 * This page load's viewer page id, sent in the public socket's handshake on every (re)connect: the
 * server counts one view per viewer page and dashboard a day, whatever the joins and reconnects.
 */
const viewerPage = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

let publicSocket: LiveSocket | null = null;
let adminSocket: { key: string; socket: LiveSocket } | null = null;

function track(socket: LiveSocket, kind: 'public' | 'admin') {
  socket.on('connect', () => useConnection.setState({ [kind]: 'live' }));
  socket.on('disconnect', () => useConnection.setState({ [kind]: 'reconnecting' }));
  socket.io.on('reconnect_attempt', () => useConnection.setState({ [kind]: 'reconnecting' }));
  socket.on('connect_error', () => useConnection.setState({ [kind]: socket.active ? 'reconnecting' : 'offline' }));
}

/** The anonymous socket used by public pages (one per tab). */
export function getPublicSocket(): LiveSocket {
  if (!publicSocket) {
    publicSocket = io({ transports: ['websocket', 'polling'], reconnectionDelayMax: reconnectDelayMax(), auth: { page: viewerPage } });
    track(publicSocket, 'public');
  }
  return publicSocket;
}

/**
 * The console's socket, signed in by the session cookie (`key` changes at every sign-in). The
 * server closes it when the session ends (sign-out elsewhere, role change): `onEnded` checks.
 */
export function getAdminSocket(key: string, onEnded: () => void): LiveSocket {
  if (adminSocket?.key === key) return adminSocket.socket;
  adminSocket?.socket.disconnect();
  const socket: LiveSocket = io({ transports: ['websocket', 'polling'], withCredentials: true });
  socket.on('connect_error', (e) => {
    const code = (e as Error & { data?: { code?: string } }).data?.code;
    if (code && SIGN_IN_AGAIN_CODES.includes(code)) onEnded();
  });
  socket.on('disconnect', (reason) => {
    if (reason === 'io server disconnect') onEnded();
  });
  track(socket, 'admin');
  adminSocket = { key, socket };
  return socket;
}

export function closeAdminSocket() {
  adminSocket?.socket.disconnect();
  adminSocket = null;
}
