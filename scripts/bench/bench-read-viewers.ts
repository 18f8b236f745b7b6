/**
 * A process full of public viewers for bench:read's reconnect storm. Each behaves like the web
 * viewer: it fetches the view, joins the dashboard, and after a reconnect the server could not
 * recover, rejoins and refetches with If-None-Match once the join is acknowledged. Reports when every
 * viewer has the current view again and the bytes that cost. Driven over IPC.
 */
import http from 'node:http';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../common/realtime';
import { reconnectDelayMax } from '../../web/src/realtime/socket';

type Command = { cmd: 'grow'; url: string; dashboardId: string; count: number } | { cmd: 'arm' } | { cmd: 'status' } | { cmd: 'stop' };
type Viewer = { socket: Socket<ServerToClientEvents, ClientToServerEvents>; etag: string };

const viewers: Viewer[] = [];
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const send = (msg: unknown) => process.send!(msg);
const now = () => performance.timeOrigin + performance.now();
let armed: { waiting: Set<Viewer>; bytes: number; refetches: number; notModified: number; recovered: number; errors: number; reconnects: number[] } | null = null;

/** A viewer has the view again: report when it was the last one. */
function done(v: Viewer) {
  if (!armed || !armed.waiting.delete(v) || armed.waiting.size) return;
  const { waiting: _, ...counts } = armed;
  send({ type: 'converged', at: now(), ...counts });
}

function get(url: string, etag: string): Promise<{ status: number; etag: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { 'accept-encoding': 'br, gzip', ...(etag ? { 'if-none-match': etag } : {}) } }, (res) => {
      let bytes = 0;
      const head = Object.entries(res.headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 20);
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode!, etag: String(res.headers.etag ?? etag), bytes: bytes + head }));
    });
    req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
  });
}

async function converge(v: Viewer, url: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const res = await get(url, v.etag);
      if (!armed) return;
      armed.bytes += res.bytes;
      armed.refetches++;
      if (res.status === 304) armed.notModified++;
      v.etag = res.etag;
      done(v);
      return;
    } catch {
      if (armed) armed.errors++;
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 300));
    }
  }
}

process.on('message', async (m: Command) => {
  if (m.cmd === 'grow') {
    const url = `${m.url}/api/dashboards/${m.dashboardId}`;
    while (viewers.length < m.count) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, m.count - viewers.length) }, async () => {
          const first = await get(url, '');
          const socket: Viewer['socket'] = connect(m.url, { transports: ['websocket'], forceNew: true, reconnectionDelayMax: reconnectDelayMax() });
          const v: Viewer = { socket, etag: first.etag };
          let connectedBefore = false;
          socket.on('connect', () => {
            if (armed) armed.reconnects.push(now());
            if (socket.recovered) {
              if (armed) armed.recovered++;
              return done(v);
            }
            const reconnected = connectedBefore;
            socket.emit('dashboard:join', m.dashboardId, () => void (reconnected && converge(v, url)));
            connectedBefore = true;
          });
          await new Promise<void>((resolve) => socket.once('view:joined', () => resolve()));
          return v;
        }),
      );
      viewers.push(...batch);
    }
    send({ type: 'grown', count: viewers.length });
  } else if (m.cmd === 'arm') {
    armed = { waiting: new Set(viewers), bytes: 0, refetches: 0, notModified: 0, recovered: 0, errors: 0, reconnects: [] };
    send({ type: 'armed' });
  } else if (m.cmd === 'status') {
    send({ type: 'status', total: viewers.length, connected: viewers.filter((v) => v.socket.connected).length, pending: armed?.waiting.size ?? 0, errors: armed?.errors ?? 0 });
  } else if (m.cmd === 'stop') {
    viewers.forEach((v) => v.socket.disconnect());
    process.exit(0);
  }
});
send({ type: 'up' });
