/**
 * The soak's anonymous viewers, in a process of their own (scripts/soak.ts forks it) so their
 * sockets do not share an event loop with the senders. Each viewer holds the records pushed to it;
 * every second the process reports, for records seen for the first time, when the first viewer
 * held each (by its `seq`), the most records any viewer held, and how many viewers were lost.
 */
import { io as connect } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../common/realtime';
import type { Socket } from 'socket.io-client';

type Start = { url: string; dashboardId: string; count: number };
const now = () => performance.timeOrigin + performance.now();

process.once('message', async ({ url, dashboardId, count }: Start) => {
  const firsts: [number, number][] = [];
  const known = new Set<number>();
  let maxHeld = 0;
  let lost = 0;
  const sockets: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];
  for (let i = 0; i < count; i++) {
    const s: Socket<ServerToClientEvents, ClientToServerEvents> = connect(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    const held = new Set<string>();
    s.on('records:upserted', (e) => {
      const t = now();
      for (const r of e.records) {
        held.add(r.recordId);
        const seq = Number((r.data as { seq?: number }).seq);
        if (!known.has(seq)) {
          known.add(seq);
          firsts.push([seq, t]);
        }
      }
      maxHeld = Math.max(maxHeld, held.size);
    });
    s.on('records:removed', (e) => {
      if (e.all) held.clear();
      for (const id of e.recordIds) held.delete(id);
    });
    s.on('disconnect', () => lost++);
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => s.emit('dashboard:join', dashboardId, (ack) => (ack.ok ? resolve() : reject(new Error(ack.reason)))));
      s.once('connect_error', reject);
    });
    sockets.push(s);
  }
  process.send!({ type: 'ready' });
  setInterval(() => {
    process.send!({ type: 'tick', firsts: firsts.splice(0), maxHeld, lost });
    maxHeld = 0;
    // Only recent seqs can still be new.
    if (known.size > 20_000) for (const seq of [...known].slice(0, 10_000)) known.delete(seq);
  }, 1000);
});
process.on('disconnect', () => process.exit(0));
