/**
 * A process full of dashboard viewers for bench:realtime (one process cannot hold both the server's
 * and the clients' sockets past a few thousand: the open-file limit is per process). Driven over
 * IPC by scripts/bench/bench-realtime.ts; reports receipt times on the shared wall clock. Three kinds:
 * - `socketio`: socket.io-client instances (what a browser runs; decoding every frame);
 * - `minimal`: raw WebSockets speaking the Engine.IO / Socket.IO frames by hand (open, connect,
 *   `dashboard:join` with its ack, pong), noting a `records:upserted` frame by its first bytes
 *   without decoding it — so the figures are the server's, not the clients' CPU;
 * - `ws`: raw WebSockets to a bare `ws` server (the baseline broadcast), noting any frame.
 */
import WebSocket from 'ws';
import { join, openSocket, type TestSocket } from '../../server/test/sockets';

export type ViewerKind = 'socketio' | 'minimal' | 'ws';
type Command = { cmd: 'grow'; kind: ViewerKind; url: string; dashboardId: string; count: number } | { cmd: 'arm' } | { cmd: 'drop' } | { cmd: 'stop' };

/** A viewer whatever its kind: `onFrame` is set while armed. */
interface Viewer {
  onFrame: ((bytes: number) => void) | null;
  close(): void;
}

const viewers: Viewer[] = [];
const now = () => performance.timeOrigin + performance.now();
const send = (msg: unknown) => process.send!(msg);
const UPSERTED = '42["records:upserted"';

function socketioViewer(url: string, dashboardId: string): Promise<Viewer> {
  return openSocket(url).then(async (s: TestSocket) => {
    const ack = await join(s, 'dashboard:join', dashboardId);
    if (!ack.ok) throw new Error('viewer could not join');
    const v: Viewer = { onFrame: null, close: () => s.disconnect() };
    s.on('records:upserted', (e) => v.onFrame?.(Buffer.byteLength(JSON.stringify(['records:upserted', e]))));
    return v;
  });
}

/** Engine.IO v4 over a raw WebSocket: `0` open → `40` connect → `420[...]` join → `430[...]` its ack; `2` ping → `3` pong. */
function minimalViewer(url: string, dashboardId: string): Promise<Viewer> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, { perMessageDeflate: false });
  const v: Viewer = { onFrame: null, close: () => ws.terminate() };
  return new Promise((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (data: Buffer) => {
      const head = data.subarray(0, UPSERTED.length).toString('latin1');
      if (head.startsWith(UPSERTED)) v.onFrame?.(data.length);
      else if (head === '2') ws.send('3');
      else if (head.startsWith('0')) ws.send('40');
      else if (head.startsWith('40')) ws.send(`420${JSON.stringify(['dashboard:join', dashboardId])}`);
      else if (head.startsWith('430')) {
        if (!data.toString('utf8').includes('"ok":true')) reject(new Error(`join refused: ${data.toString('utf8')}`));
        else resolve(v);
      }
    });
  });
}

function wsViewer(url: string): Promise<Viewer> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  const v: Viewer = { onFrame: null, close: () => ws.terminate() };
  return new Promise((resolve, reject) => {
    ws.on('error', reject);
    ws.on('open', () => resolve(v));
    ws.on('message', (data: Buffer) => v.onFrame?.(data.length));
  });
}

const open = (m: Extract<Command, { cmd: 'grow' }>) =>
  m.kind === 'socketio' ? socketioViewer(m.url, m.dashboardId) : m.kind === 'minimal' ? minimalViewer(m.url, m.dashboardId) : wsViewer(m.url);

process.on('message', async (m: Command) => {
  if (m.cmd === 'grow') {
    while (viewers.length < m.count) viewers.push(...(await Promise.all(Array.from({ length: Math.min(100, m.count - viewers.length) }, () => open(m)))));
    send({ type: 'grown', count: viewers.length });
  } else if (m.cmd === 'arm') {
    const times: number[] = [];
    let bytes = 0;
    for (const v of viewers) {
      v.onFrame = (size) => {
        v.onFrame = null;
        times.push(now());
        bytes ||= size;
        if (times.length === viewers.length) send({ type: 'received', times, bytes });
      };
    }
    send({ type: 'armed' });
  } else if (m.cmd === 'drop') {
    viewers.splice(0).forEach((v) => v.close());
    send({ type: 'dropped' });
  } else if (m.cmd === 'stop') {
    viewers.forEach((v) => v.close());
    process.exit(0);
  }
});
send({ type: 'up' });
