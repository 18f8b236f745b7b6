import { io, type Socket } from 'socket.io-client';
import { create } from 'zustand';
import type { ClientToServerEvents, ServerToClientEvents } from '@common/realtime';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline';

/** Connection state per socket kind, for the "Live" indicators. */
export const useConnection = create<{ public: ConnectionState; admin: ConnectionState }>(() => ({ public: 'connecting', admin: 'connecting' }));

/** Longest wait between two reconnection attempts of the public socket. */
export const RECONNECT_DELAY_MAX_MS = 3_000;

let publicSocket: LiveSocket | null = null;
let adminSocket: { token: string; socket: LiveSocket } | null = null;

function track(socket: LiveSocket, kind: 'public' | 'admin') {
  socket.on('connect', () => useConnection.setState({ [kind]: 'live' }));
  socket.on('disconnect', () => useConnection.setState({ [kind]: 'reconnecting' }));
  socket.io.on('reconnect_attempt', () => useConnection.setState({ [kind]: 'reconnecting' }));
  socket.on('connect_error', () => useConnection.setState({ [kind]: socket.active ? 'reconnecting' : 'offline' }));
}

/** The anonymous socket used by public pages (one per tab). */
export function getPublicSocket(): LiveSocket {
  if (!publicSocket) {
    // Retries at most every 3 s (Socket.IO's default is 5 s): back sooner after a server restart.
    publicSocket = io({ transports: ['websocket', 'polling'], reconnectionDelayMax: RECONNECT_DELAY_MAX_MS });
    track(publicSocket, 'public');
  }
  return publicSocket;
}

/** The admin socket, authenticated with the admin token in the handshake. */
export function getAdminSocket(token: string, onUnauthorized: () => void): LiveSocket {
  if (adminSocket?.token === token) return adminSocket.socket;
  adminSocket?.socket.disconnect();
  const socket: LiveSocket = io({ transports: ['websocket', 'polling'], auth: { token } });
  socket.on('connect_error', (e) => {
    if (e.message === 'Invalid admin token') onUnauthorized();
  });
  track(socket, 'admin');
  adminSocket = { token, socket };
  return socket;
}

export function closeAdminSocket() {
  adminSocket?.socket.disconnect();
  adminSocket = null;
}
