import { rooms } from '@common/realtime';
import type { AppContext } from '../core';
import type { RealtimeServer } from '../realtime';

/** Pushes each new activity log entry to the admin room (the Activity Log screen is live). */
export function attachActivityFeed(io: RealtimeServer, ctx: AppContext): () => void {
  return ctx.events.on('activity.recorded', ({ entry }) => {
    io.to(rooms.admin).emit('admin:activity', { entry });
  });
}
