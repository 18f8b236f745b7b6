import type { RealtimeServer } from './server';
import { RECOVERY_WINDOW_MS } from './server';

/**
 * Whether a push to some rooms can reach anyone. Socket.IO's connection-state recovery keeps every
 * broadcast packet for its window (two minutes and up to one more before its sweep), whether or not
 * a socket is in the room — so a source written at thousands of records a second with nobody
 * watching held every record it pushed (146 MB of heap over a 100,000-row pull in bench:pull).
 * A room is watched while it has a socket here, or for the recovery window after its last one
 * left (a viewer that drops and comes back within it is owed the packets it missed).
 * With the Redis adapter (clustered) every push is sent: other processes' rooms are not known here,
 * and that adapter keeps missed packets in Redis, not in this process.
 */
export function watchedRooms(io: RealtimeServer, clustered: boolean): (names: string[]) => boolean {
  if (clustered) return () => true;
  const adapter = io.of('/').adapter;
  const emptiedAt = new Map<string, number>();
  adapter.on('create-room', (room: string) => emptiedAt.delete(room));
  adapter.on('delete-room', (room: string) => emptiedAt.set(room, Date.now()));
  return (names) => {
    const now = Date.now();
    return names.some((room) => {
      if (adapter.rooms.has(room)) return true;
      const at = emptiedAt.get(room);
      if (at === undefined) return false;
      if (now - at <= RECOVERY_WINDOW_MS) return true;
      emptiedAt.delete(room);
      return false;
    });
  };
}
