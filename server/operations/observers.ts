import { Gauge } from 'prom-client';
import type { AppContext, Metrics } from '../core';
import type { RealtimeServer } from '../realtime';

/** The kinds of Socket.IO room (the part of a room's name before its id); anything else counts as `other`. */
const ROOM_KINDS = new Set(['dashboard', 'source', 'dashboards', 'admin', 'datasource', 'integration', 'share', 'sharelink', 'team', 'draft', 'import']);

/**
 * Socket.IO connections of this process, and how many sockets sit in rooms of each kind (a socket
 * in two dashboards counts twice) — read from the adapter at each scrape, nothing kept in between.
 */
export function observeSockets(metrics: Metrics, io: RealtimeServer): void {
  const registers = [metrics.registry];
  new Gauge({
    name: 'livedash_socketio_connections',
    help: 'Socket.IO connections to this process',
    registers,
    collect() {
      this.set(io.of('/').sockets.size);
    },
  });
  new Gauge({
    name: 'livedash_socketio_room_members',
    help: 'Sockets of this process in rooms, by kind of room (dashboard, source, share, admin, ...)',
    labelNames: ['kind'],
    registers,
    collect() {
      const counts = new Map<string, number>([...ROOM_KINDS].map((k) => [k, 0]));
      const sockets = io.of('/').sockets;
      for (const [room, members] of io.of('/').adapter.rooms) {
        if (sockets.has(room)) continue; // each socket's own room
        const prefix = room.split(':', 1)[0];
        const kind = ROOM_KINDS.has(prefix) ? prefix : 'other';
        counts.set(kind, (counts.get(kind) ?? 0) + members.size);
      }
      this.reset();
      for (const [kind, n] of counts) this.set({ kind }, n);
    },
  });
}

/** Import Data rows as imports report their progress (cumulative per import: the counter takes the increase). */
export function observeImports(app: AppContext, metrics: Metrics): void {
  const seen = new Map<string, { read: number; written: number; rejected: number }>();
  app.events.on('import.progress', (p) => {
    const last = seen.get(p.id) ?? { read: 0, written: 0, rejected: 0 };
    for (const outcome of ['read', 'written', 'rejected'] as const) {
      const more = p[outcome] - last[outcome];
      if (more > 0) metrics.importRows.inc({ outcome }, more);
    }
    if (p.state === 'done' || p.state === 'cancelled' || p.state === 'failed') seen.delete(p.id);
    else seen.set(p.id, { read: p.read, written: p.written, rejected: p.rejected });
  });
}
