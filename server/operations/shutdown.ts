import type http from 'node:http';
import net from 'node:net';
import type { Logger } from '../core';

/** One step of a stop, named for the log when it fails or hangs. */
export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

/** The requests under way, as the server's request listener counts them (server/operations). */
export interface RequestsUnderWay {
  /** Answers from now on close their connection: keep-alive clients open their next one elsewhere. */
  closeConnections(): void;
  /** Resolves once no request is being handled and the writes they queued are stored. */
  idle(): Promise<void>;
  /** How long they may take once the server stops listening; then their connections are cut. */
  graceMs: number;
}

/**
 * The order a server stops in:
 * 1. the HTTP server stops listening (new connections are refused; a proxy tries the next process);
 * 2. the requests under way finish (their answers close their connection) within the requests'
 *    grace, and are then cut; then the writes under way (group commit) settle — so their changes
 *    still reach every viewer, here and through Redis on the other processes;
 * 3. Socket.IO emits what is queued and closes its clients' connections (a clean close: browsers
 *    reconnect to the next process), then the HTTP server's close completes (it waits for every
 *    upgraded socket);
 * 4. the services, last started first: their flushes (activity log, view counts) and then the
 *    database close.
 * A failing step is logged and the next one still runs. `onStep` follows progress (the timeout names it).
 */
export async function closeInOrder(
  parts: { realtime: { close(): Promise<void> } | null; server: http.Server | null; newConnections?: NewConnections; requests?: RequestsUnderWay; services: ShutdownStep[] },
  log: Logger,
  onStep: (name: string) => void = () => {},
): Promise<void> {
  const steps: ShutdownStep[] = [];
  const { realtime, server, requests } = parts;
  const graceMs = requests?.graceMs ?? REQUESTS_GRACE_MS;
  const { stopped, closed } = server ? closeHttp(server, parts.newConnections) : { stopped: Promise.resolve(), closed: Promise.resolve() };
  if (requests) {
    requests.closeConnections();
    // Counted once no connection can arrive any more: one accepted just before is waited for too.
    steps.push({ name: 'requests under way', run: () => cutAfterGrace(server, graceMs, () => stopped.then(() => requests.idle())) });
  }
  if (realtime) steps.push({ name: 'Socket.IO', run: () => realtime.close() });
  if (server) steps.push({ name: 'HTTP server', run: () => cutAfterGrace(server, REQUESTS_GRACE_MS, () => closed) });
  steps.push(...parts.services);
  for (const step of steps) {
    onStep(step.name);
    await step.run().catch((e) => log.error(`shutdown: ${step.name} failed`, e));
  }
}

/** How long requests under way may take to finish once the server stops listening (when not told), and the last connections after Socket.IO closed. */
const REQUESTS_GRACE_MS = 1_000;

/** Runs a step that waits for the HTTP server to close; requests still under way after the grace are cut. */
async function cutAfterGrace(server: http.Server | null, graceMs: number, step: () => Promise<void>): Promise<void> {
  const cut = server ? setTimeout(() => server.closeAllConnections(), graceMs) : null;
  try {
    await step();
  } finally {
    if (cut) clearTimeout(cut);
  }
}

/** How long a connection accepted just before the listener closed has to begin its request before it counts as idle. */
const LAST_REQUESTS_MS = 250;

/** The server's connections that have not begun a request (nor an upgrade) yet. */
export interface NewConnections {
  /** Resolves once each connection accepted until now has begun its request, closed, or been silent LAST_REQUESTS_MS. */
  spoken(): Promise<void>;
}

/** Follows the connections a server accepts until each begins its first request. */
export function watchNewConnections(server: http.Server): NewConnections {
  const silent = new Map<net.Socket, number>();
  server.on('connection', (socket: net.Socket) => {
    silent.set(socket, Date.now());
    socket.once('close', () => silent.delete(socket));
  });
  const spoke = (req: http.IncomingMessage) => void silent.delete(req.socket);
  server.prependListener('request', spoke);
  server.prependListener('upgrade', spoke);
  return {
    async spoken() {
      for (;;) {
        const youngest = Math.max(-Infinity, ...silent.values());
        const left = youngest + LAST_REQUESTS_MS - Date.now();
        if (left <= 0) return;
        await new Promise((r) => setTimeout(r, Math.min(left, 10)));
      }
    },
  };
}

/**
 * Stops listening, then lets the last connections speak (`stopped`, once their requests count as
 * under way), and `closed` once every connection has ended. A proxy that already sent a request
 * on a connection we close answers 502 for it (nginx never sends an unkeyed POST twice), so:
 * - the listener closes in the check phase, right after a poll phase accepted every connection
 *   queued until then (closing a listener resets the connections still in its accept queue);
 * - it closes as net.Server does, not http.Server: the latter also ends every connection without a
 *   request under way at once — the ones just accepted, whose request is in flight, among them.
 *   Those (followed by watchNewConnections) get up to LAST_REQUESTS_MS for their request to
 *   arrive; then the idle ones (keep-alive between requests, or silent) are closed.
 */
function closeHttp(server: http.Server, newConnections?: NewConnections): { stopped: Promise<void>; closed: Promise<void> } {
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const closed = new Promise<void>((resolve) => {
    setImmediate(() => {
      if (!server.listening) {
        stop();
        return resolve();
      }
      net.Server.prototype.close.call(server, () => resolve());
      void (newConnections?.spoken() ?? Promise.resolve()).then(() => {
        server.closeIdleConnections();
        stop();
      });
    });
  });
  return { stopped, closed };
}

/** What a signal stops: the app's readiness and its ordered close. */
export interface Stoppable {
  operations: { drain(): void };
  close(onStep?: (name: string) => void): Promise<void>;
}

/** The first signal again this soon after it is one press of Ctrl-C delivered twice, not a second one. */
const SAME_PRESS_MS = 500;

/**
 * SIGTERM / SIGINT: /readyz answers 503 at once and the process keeps serving for `graceMs` (a
 * load balancer sees it and stops sending), then it stops in order and exits 0. Past `timeoutMs`
 * from the signal it exits 1, saying which step did not finish. A second signal (another one, or
 * the same SAME_PRESS_MS or more after the first) exits at once.
 */
export function stopOnSignals(app: Stoppable, log: Logger, opts: { graceMs: number; timeoutMs: number }): void {
  let stopping = false;
  let first: { signal: NodeJS.Signals; at: number } | null = null;
  let step = 'grace';
  const stop = async (signal: NodeJS.Signals) => {
    // A Ctrl-C under `npm start` arrives twice at once (the terminal's, and npm's forwarded copy): the same press.
    if (first && first.signal === signal && Date.now() - first.at < SAME_PRESS_MS) return;
    if (stopping) {
      log.warn(`second signal (${signal}): exiting now, without finishing the stop (it was at: ${step})`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    stopping = true;
    first = { signal, at: Date.now() };
    app.operations.drain();
    log.info(`${signal}: shutting down (not ready; serving ${opts.graceMs / 1000} s more while load balancers notice)`);
    const started = Date.now();
    const force = setTimeout(() => {
      log.error(`shutdown did not finish within ${opts.timeoutMs} ms (stuck at: ${step}); exiting`);
      process.exit(1);
    }, opts.timeoutMs);
    force.unref();
    if (opts.graceMs > 0) await new Promise((r) => setTimeout(r, opts.graceMs));
    await app.close((name) => (step = name));
    log.info(`stopped in ${Date.now() - started} ms`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
