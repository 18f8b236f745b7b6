import { rooms } from '@common/realtime';
import type { AppContext } from '../core/context';
import type { RealtimeServer } from '../realtime/server';

/** Pushes each new activity log entry to the admin room (the Activity Log screen is live). */
export function attachActivityFeed(io: RealtimeServer, ctx: AppContext): () => void {
  return ctx.events.on('activity.recorded', ({ entry }) => {
    io.to(rooms.admin).emit('admin:activity', { entry });
  });
}
