import http from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import { collectProcessMetrics, currentRequest, metricsOf, requestIdFrom, runInRequest, type AppContext, type IngestState, type PrincipalState, type RedisClient, type RequestInfo } from '../core';
import { safeEqual } from '../access';
import type { RealtimeServer } from '../realtime';
import { readiness } from './probes';
import { observeImports, observeSockets } from './observers';

/** Paths answered here, before the web app and the API (probes and scrapes: logged at debug only). */
const PROBES = new Set(['/livez', '/readyz', '/metrics']);

export interface Operations {
  /** Wraps the server's request listener: request ids, the request line, metrics, the probes. */
  observe(next: http.RequestListener): http.RequestListener;
  /** The first Koa middleware: names the route template and the caller once the request is routed. */
  routeNames(): Middleware;
  /** Counts sockets by kind of room, at each scrape. */
  observeRealtime(io: RealtimeServer): void;
  /** Stopping: /readyz answers 503 from now on (the process still serves). */
  drain(): void;
  readonly draining: boolean;
  /** Answers from now on close their connection (keep-alive clients reconnect elsewhere). */
  closeConnections(): void;
  /** Resolves once no request is being handled. */
  idle(): Promise<void>;
  /** Starts the METRICS_PORT listener, if configured; resolves to its port. */
  listenMetrics(): Promise<number | null>;
  close(): Promise<void>;
}

const pathOf = (url: string | undefined) => {
  const q = (url ?? '/').indexOf('?');
  return q < 0 ? (url ?? '/') : (url ?? '/').slice(0, q);
};

const json = (res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
};

/** The caller of a routed request as the guards left it: kind and a non-secret id (a person's id, a source's sourceId). */
function callerOf(ctx: Context): RequestInfo['caller'] {
  const state = ctx.state as Partial<PrincipalState & IngestState>;
  const p = state.principal;
  if (p) return { kind: p.via, ...(p.user ? { id: p.user.id } : {}) };
  const ingest = state.ingestCredential;
  if (ingest) return ingest.admin ? { kind: 'adminToken' } : { kind: 'ingestKey', id: ingest.source.sourceId };
  return { kind: 'anonymous' };
}

export function startOperations(app: AppContext, redis: RedisClient | null): Operations {
  const { config, log } = app;
  const metrics = metricsOf(app);
  // The process metrics run monitors of their own (event-loop delay, GC): only where someone reads them.
  if (config.METRICS_TOKEN || config.METRICS_PORT !== undefined) collectProcessMetrics(metrics);
  observeImports(app, metrics);
  let draining = false;
  let closing = false;
  /** The requests being handled: those not yet answered are told to close their connection when the stop begins. */
  const underWay = new Set<http.ServerResponse>();
  let waiters: (() => void)[] = [];
  let metricsServer: http.Server | null = null;

  const scrape = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (config.METRICS_TOKEN) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      if (!m || !safeEqual(m[1], config.METRICS_TOKEN)) {
        return json(res, 401, { error: { code: 'metrics_token_required', message: 'Send Authorization: Bearer <METRICS_TOKEN> to read the metrics' } }, { 'www-authenticate': 'Bearer' });
      }
    }
    const text = await metrics.registry.metrics();
    res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
    res.end(text);
  };

  /** The probes and the scrape; false when the path is none of them. */
  const probe = async (path: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (path === '/livez') return json(res, 200, { status: 'live' });
    if (path === '/readyz') {
      const r = await readiness(app, redis, draining);
      const degraded = r.degraded.length ? { degraded: r.degraded } : {};
      return json(res, r.ready ? 200 : 503, r.ready ? { status: 'ready', ...degraded, checks: r.checks } : { status: 'not ready', notReady: r.notReady, ...degraded, checks: r.checks });
    }
    // On the main port only with a token; with METRICS_PORT alone, only there.
    if (!config.METRICS_TOKEN) return json(res, 404, { error: { code: 'not_found', message: 'Metrics are not served on this port: set METRICS_TOKEN, or METRICS_PORT for a listener of their own' } });
    return scrape(req, res);
  };

  const finished = (info: RequestInfo, req: http.IncomingMessage, res: http.ServerResponse, started: number) => {
    const seconds = (performance.now() - started) / 1000;
    const route = info.route ?? 'unmatched';
    const status = res.writableFinished ? res.statusCode : 499;
    metrics.httpDuration.observe({ method: req.method ?? 'GET', route, status: String(status) }, seconds);
    const fields = {
      method: req.method, route, status, durationMs: Math.round(seconds * 10_000) / 10,
      callerKind: info.caller?.kind ?? 'anonymous', ...(info.caller?.id ? { callerId: info.caller.id } : {}),
      address: info.address ?? req.socket.remoteAddress,
    };
    runInRequest(info, () => (PROBES.has(route) ? log.debug('request', fields) : log.info('request', fields)));
  };

  return {
    observe(next) {
      return (req, res) => {
        const info: RequestInfo = { id: requestIdFrom(req.headers['x-request-id']) };
        const started = performance.now();
        res.setHeader('x-request-id', info.id);
        if (closing) res.setHeader('connection', 'close');
        underWay.add(res);
        metrics.httpInFlight.inc();
        // A request counts until its handler is done, even when the client hung up before (its write still lands).
        const done = () => {
          underWay.delete(res);
          metrics.httpInFlight.dec();
          finished(info, req, res, started);
          if (!underWay.size) for (const w of waiters.splice(0)) w();
        };
        res.once('close', () => void (info.handling ? info.handling.then(done) : done()));
        runInRequest(info, () => {
          const path = pathOf(req.url);
          if (PROBES.has(path)) {
            info.route = path;
            void probe(path, req, res).catch((e) => {
              log.error(`${path} failed`, e);
              if (!res.headersSent) json(res, 500, { error: { code: 'internal_error', message: 'The probe failed; see the server log' } });
            });
            return;
          }
          next(req, res);
        });
      };
    },
    routeNames() {
      return async (ctx: Context, next: Next) => {
        const info = currentRequest();
        let handled = () => {};
        if (info) info.handling = new Promise<void>((resolve) => (handled = resolve));
        try {
          await next();
        } finally {
          handled();
          if (info) {
            const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
            info.route = typeof matched === 'string' ? matched : ctx.path === '/api' || ctx.path.startsWith('/api/') ? 'unmatched' : 'web app';
            info.caller = callerOf(ctx);
            info.address = ctx.ip;
          }
        }
      };
    },
    observeRealtime(io) {
      observeSockets(metrics, io);
    },
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    closeConnections() {
      closing = true;
      // Node keeps a connection alive after the server's close when its answer says so: say otherwise.
      for (const res of underWay) if (!res.headersSent) res.setHeader('connection', 'close');
    },
    idle() {
      return !underWay.size ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));
    },
    async listenMetrics() {
      if (config.METRICS_PORT === undefined) return null;
      const server = http.createServer((req, res) => {
        if (pathOf(req.url) !== '/metrics') return json(res, 404, { error: { code: 'not_found', message: 'Only /metrics is served on this port' } });
        void scrape(req, res).catch((e) => {
          log.error('/metrics failed', e);
          if (!res.headersSent) json(res, 500, { error: { code: 'internal_error', message: 'The scrape failed; see the server log' } });
        });
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.METRICS_PORT, config.METRICS_HOST, () => resolve());
      });
      metricsServer = server;
      return (server.address() as { port: number }).port;
    },
    async close() {
      waiters = [];
      const server = metricsServer;
      metricsServer = null;
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections());
    },
  };
}
