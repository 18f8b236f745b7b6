/**
 * A process full of dashboard viewers for bench:realtime (one process cannot hold both the server's
 * and the clients' sockets past a few thousand: the open-file limit is per process). Driven over
 * IPC by scripts/bench/bench-realtime.ts; reports receipt times on the shared wall clock.
 */
import { join, openSocket, type TestSocket } from '../../server/test/sockets';

type Command = { cmd: 'grow'; url: string; dashboardId: string; count: number } | { cmd: 'arm' } | { cmd: 'stop' };

const sockets: TestSocket[] = [];
const now = () => performance.timeOrigin + performance.now();
const send = (msg: unknown) => process.send!(msg);

process.on('message', async (m: Command) => {
  if (m.cmd === 'grow') {
    while (sockets.length < m.count) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, m.count - sockets.length) }, () => openSocket(m.url)));
      await Promise.all(batch.map((s) => join(s, 'dashboard:join', m.dashboardId)));
      sockets.push(...batch);
    }
    send({ type: 'grown', count: sockets.length });
  } else if (m.cmd === 'arm') {
    const times: number[] = [];
    let bytes = 0;
    for (const s of sockets) {
      s.once('records:upserted', (e) => {
        times.push(now());
        if (!bytes) bytes = Buffer.byteLength(JSON.stringify(['records:upserted', e]));
        if (times.length === sockets.length) send({ type: 'received', times, bytes });
      });
    }
    send({ type: 'armed' });
  } else if (m.cmd === 'stop') {
    sockets.forEach((s) => s.disconnect());
    process.exit(0);
  }
});
send({ type: 'up' });
