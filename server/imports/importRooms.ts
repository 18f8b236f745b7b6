import { rooms } from '@common/realtime';
import type { AppContext } from '../core';
import { mayFollow } from './importJobs';
import { hasRole } from '../access';
import type { RealtimeServer } from '../realtime';

/**
 * Import Data's progress: the person who started an import (or an admin) joins its room with
 * `import:join` and gets each `import:progress` (rows read, written, rejected; the end and what the
 * source holds then).
 */
export function attachImportRooms(io: RealtimeServer, ctx: AppContext): () => void {
  io.on('connection', (socket) => {
    socket.on('import:join', (id, ack) => {
      if (typeof ack !== 'function') return;
      const ok = typeof id === 'string' && hasRole(socket.data, 'editor') && mayFollow(ctx, id, socket.data);
      if (!ok) return ack({ ok: false, reason: 'No such import of yours' });
      void socket.join(rooms.importJob(id));
      ack({ ok: true });
    });
  });
  return ctx.events.on('import.progress', (e) => {
    io.to(rooms.importJob(e.id)).emit('import:progress', e);
  });
}
