/**
 * A process full of public viewers for bench:read's reconnect storm. Each behaves like the web
 * viewer: it fetches the view, joins the dashboard, and after a reconnect the server could not
 * recover, rejoins and refetches with If-None-Match once the join is acknowledged. Reports when every
 * viewer has the current view again and the bytes that cost. Driven over IPC. Two kinds:
 * - `socketio`: socket.io-client, what a browser runs (its decoding and reconnect logic cost CPU on
 *   the cores the server shares);
 * - `minimal`: a raw WebSocket speaking the Engine.IO/Socket.IO frames by hand, reconnecting with
 *   socket.io-client's backoff and the web viewer's cap — so the storm's time is the server's.
 */
import http from 'node:http';
import WebSocket from 'ws';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../common/realtime';
import { reconnectDelayMax } from '../../web/src/realtime/socket';

type Command = { cmd: 'grow'; kind: 'socketio' | 'minimal'; url: string; dashboardId: string; count: number } | { cmd: 'arm' } | { cmd: 'status' } | { cmd: 'stop' };
type Viewer = { socket: { connected: boolean; disconnect(): void }; etag: string };

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

/** A socket.io-client viewer; resolves once it has joined. */
async function socketioViewer(base: string, dashboardId: string, url: string, etag: string): Promise<Viewer> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(base, { transports: ['websocket'], forceNew: true, reconnectionDelayMax: reconnectDelayMax() });
  const v: Viewer = { socket, etag };
  let connectedBefore = false;
  socket.on('connect', () => {
    if (armed) armed.reconnects.push(now());
    if (socket.recovered) {
      if (armed) armed.recovered++;
      return done(v);
    }
    const reconnected = connectedBefore;
    socket.emit('dashboard:join', dashboardId, () => void (reconnected && converge(v, url)));
    connectedBefore = true;
  });
  await new Promise<void>((resolve) => socket.once('view:joined', () => resolve()));
  return v;
}

/**
 * A raw WebSocket viewer: `0` open → `40` connect → `420[...]` join → `430[...]` its ack; `2` ping →
 * `3` pong. Closed, it reconnects as socket.io-client does: 1 s doubling per failed attempt, ±50%
 * jitter, capped at its own draw of the web viewer's cap. (No recovery: the restarted server has none to give.)
 */
function minimalViewer(base: string, dashboardId: string, url: string, etag: string): Promise<Viewer> {
  const cap = reconnectDelayMax();
  let attempts = 0;
  let connectedBefore = false;
  let stopped = false;
  let ws: WebSocket | null = null;
  const v: Viewer = { socket: { connected: false, disconnect: () => ((stopped = true), ws?.terminate()) }, etag };
  const delay = () => {
    const ms = 1000 * 2 ** attempts++;
    const rand = Math.random();
    const deviation = Math.floor(rand * 0.5 * ms);
    return Math.min(Math.floor(rand * 10) % 2 === 0 ? ms - deviation : ms + deviation, cap);
  };
  return new Promise((resolve) => {
    const open = () => {
      const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, { perMessageDeflate: false });
      ws = socket;
      socket.on('error', () => {});
      socket.on('close', () => {
        v.socket.connected = false;
        if (!stopped) setTimeout(open, delay());
      });
      socket.on('message', (data: Buffer) => {
        const head = data.subarray(0, 3).toString('latin1');
        if (head === '2') socket.send('3');
        else if (head.startsWith('0')) socket.send('40');
        else if (head.startsWith('40')) {
          attempts = 0;
          v.socket.connected = true;
          if (armed) armed.reconnects.push(now());
          socket.send(`420${JSON.stringify(['dashboard:join', dashboardId])}`);
        } else if (head === '430') {
          if (connectedBefore) void converge(v, url);
          else resolve(v);
          connectedBefore = true;
        }
      });
    };
    open();
  });
}

process.on('message', async (m: Command) => {
  if (m.cmd === 'grow') {
    const url = `${m.url}/api/dashboards/${m.dashboardId}`;
    const viewer = m.kind === 'minimal' ? minimalViewer : socketioViewer;
    while (viewers.length < m.count) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, m.count - viewers.length) }, async () => viewer(m.url, m.dashboardId, url, (await get(url, '')).etag)),
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
