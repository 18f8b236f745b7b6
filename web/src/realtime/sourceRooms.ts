import type { JoinAck } from '@common/realtime';
import type { LiveSocket } from './socket';

/** Screens of the admin socket in each `datasource:<id>` room (a room is one per socket on the server). */
const holders = new WeakMap<LiveSocket, Map<string, number>>();

/**
 * Joins the admin socket to a data source's room for one screen; `leave` takes that screen out and
 * leaves the room only when no other screen still follows the source (two screens on one source
 * must not take each other's deltas away). Joining again after a reconnect is `rejoin`.
 */
export function followSource(socket: LiveSocket, dataSourceId: string, ack: (r: JoinAck) => void = () => {}): { rejoin(): void; leave(): void } {
  let counts = holders.get(socket);
  if (!counts) holders.set(socket, (counts = new Map()));
  const held = counts;
  held.set(dataSourceId, (held.get(dataSourceId) ?? 0) + 1);
  const join = () => socket.emit('datasource:join', dataSourceId, ack);
  if (socket.connected) join();
  let left = false;
  return {
    rejoin: join,
    leave() {
      if (left) return;
      left = true;
      const n = (held.get(dataSourceId) ?? 1) - 1;
      if (n > 0) return void held.set(dataSourceId, n);
      held.delete(dataSourceId);
      if (socket.connected) socket.emit('datasource:leave', dataSourceId);
    },
  };
}
