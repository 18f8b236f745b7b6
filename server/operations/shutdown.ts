import type http from 'node:http';
import type { Logger } from '../core';

/** How long a stop may take before the process exits anyway (status 1, naming the step that hung). */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

/** One step of a stop, named for the log when it fails or hangs. */
export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

/**
 * The order a server stops in:
 * 1. Socket.IO closes its clients' connections (a clean close: browsers reconnect to the next
 *    process) — first, because the HTTP server's close waits for every upgraded socket;
 * 2. the HTTP server closes (io.close does it, else this step): no new connections, idle
 *    keep-alive ones end, requests under way get REQUESTS_GRACE_MS and are then cut;
 * 3. the services, last started first: their flushes (activity log, view counts) and then the
 *    database close.
 * A failing step is logged and the next one still runs. `onStep` follows progress (the timeout names it).
 */
export async function closeInOrder(
  parts: { realtime: { close(): Promise<void> } | null; server: http.Server | null; services: ShutdownStep[] },
  log: Logger,
  onStep: (name: string) => void = () => {},
): Promise<void> {
  const steps: ShutdownStep[] = [];
  const { realtime, server } = parts;
  if (realtime) steps.push({ name: 'Socket.IO', run: () => cutAfterGrace(server, () => realtime.close()) });
  if (server) steps.push({ name: 'HTTP server', run: () => cutAfterGrace(server, () => closeHttp(server)) });
  steps.push(...parts.services);
  for (const step of steps) {
    onStep(step.name);
    await step.run().catch((e) => log.error(`shutdown: ${step.name} failed`, e));
  }
}

/** How long requests under way may take to finish once the server stops listening. */
const REQUESTS_GRACE_MS = 1_000;

/** Runs a step that waits for the HTTP server to close; requests still under way after the grace are cut. */
async function cutAfterGrace(server: http.Server | null, step: () => Promise<void>): Promise<void> {
  const cut = server ? setTimeout(() => server.closeAllConnections(), REQUESTS_GRACE_MS) : null;
  try {
    await step();
  } finally {
    if (cut) clearTimeout(cut);
  }
}

/** Stops listening; keep-alive connections between requests end at once (Node closes idle ones). */
function closeHttp(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
  });
}

/**
 * SIGTERM / SIGINT: stop in order and exit 0; past SHUTDOWN_TIMEOUT_MS exit 1, saying which step
 * did not finish. A second signal during the stop changes nothing.
 */
export function stopOnSignals(app: { close(onStep?: (name: string) => void): Promise<void> }, log: Logger, timeoutMs = SHUTDOWN_TIMEOUT_MS): void {
  let stopping = false;
  let step = 'start';
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down`);
    const started = Date.now();
    const force = setTimeout(() => {
      log.error(`shutdown did not finish within ${timeoutMs} ms (stuck at: ${step}); exiting`);
      process.exit(1);
    }, timeoutMs);
    force.unref();
    await app.close((name) => (step = name));
    log.info(`stopped in ${Date.now() - started} ms`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
