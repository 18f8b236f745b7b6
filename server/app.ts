import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import type Router from '@koa/router';
import mongoose from 'mongoose';
import crypto from 'node:crypto';
import type { Config, AppContext } from './core';
import { startDatabase, DomainEventBus, createLogger, type Logger, errorHandler, logKoaError, securityHeaders, createModels, repairInterruptedChanges, startHeartbeat, connectRedis, type RedisClient, serveWebApp, compressResponses, activityHandle, announceRouteActivity, clientAddressOf, keyedHash, keepData, dataKeeping, metricsOf, RedisHealth, redisHealthHandle, closeRedis } from './core';
import { createRateLimits, rateLimitsHandle, accountsHandle, createAccounts, createAccountModels } from './access';
import { attachRealtime } from './sockets';
import type { Realtime } from './realtime';
import { buildApiRouter, mountApi } from './routes';
import { seedDemo } from './demo';
import { removeOrphanUploads } from './imports';
import { publicViewFastPath } from './publicView';
import { startIntegrations } from './integrations';
import { startAlerts } from './alerts';
import { startReports } from './reports';
import { startActivityLog } from './activity';
import { startSettings } from './settings';
import { startRetentionSweep, writesSettled } from './records';
import { startFieldTypes, type FieldTypesService } from './dataSources';
import { embedFastRoute, embeddingHeaders, startSharingCascades } from './sharing';
import { startDashboardVersions } from './dashboards';
import { closeInOrder, startOperations, watchNewConnections, type Operations, type ShutdownStep } from './operations';

/** Connections the kernel queues for accept (capped by net.core.somaxconn, 4096 on current Linux). */
const LISTEN_BACKLOG = 4096;

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningApp {
  ctx: AppContext;
  url: string;
  port: number;
  seeded: boolean;
  realtime: Realtime;
  /** The /api router (tests enumerate its routes and their guards). */
  api: Router;
  /** The type model's inference (tests settle it before comparing views). */
  fieldTypes: FieldTypesService;
  /** Probes, request lines and metrics (server/operations); `drain()` turns /readyz to 503 before a stop. */
  operations: Operations;
  /** The METRICS_PORT listener's port, when configured. */
  metricsPort: number | null;
  /** Stops in order (server/operations/shutdown): sockets, HTTP and the requests under way, then the services' flushes and the database. */
  close(onStep?: (name: string) => void): Promise<void>;
}

/** Starts the database, the HTTP server with REST, Socket.IO and the web app. Cleans up if any step fails. */
export async function startApp(config: Config, log: Logger = createLogger(config.LOG_LEVEL, config.LOG_FORMAT)): Promise<RunningApp> {
  // The services, each with its stop; they stop last started first, after the sockets and HTTP.
  const cleanups: ShutdownStep[] = [];
  const stopServices = () => closeInOrder({ realtime: null, server: null, services: [...cleanups].reverse() }, log);
  try {
    if (config.TRUST_PROXY.mode === 'any') {
      log.warn('TRUST_PROXY=true trusts X-Forwarded-For from any peer: a client that reaches this process directly can set its own address and dodge sign-in limits and lock-outs. Set TRUST_PROXY to the proxies\' addresses instead (loopback for nginx on this machine, or their IPs and CIDRs, comma-separated).');
    }
    let redis: RedisClient | null = null;
    let health: RedisHealth | null = null;
    if (config.REDIS_URL) {
      redis = await connectRedis(config.REDIS_URL, log, 'rate limits', { offlineQueue: false });
      const client = redis;
      // No request waits on a dead Redis: its users fall back at once while the breaker says it is down.
      const breaker = new RedisHealth(client, log, config.REDIS_URL);
      health = breaker;
      cleanups.push({ name: 'Redis', run: () => closeRedis(client) });
      cleanups.push({ name: 'Redis breaker', run: async () => breaker.close() });
    }
    const db = await startDatabase(config, log);
    cleanups.push({ name: 'database engine', run: () => db.stop() });
    // The offline engine's snapshot follows the connection's write commands (core/db/dataKeeper).
    const monitorCommands = db.kept === 'snapshot';
    const conn = await mongoose.createConnection(db.uri, { autoCreate: false, autoIndex: false, serverSelectionTimeoutMS: 15_000, monitorCommands }).asPromise();
    cleanups.push({ name: 'database connection', run: () => conn.close() });
    // Restored before anything reads; its last snapshot is taken after every other step has written (it stops just before the connection).
    const keeper = await keepData(db, conn, log);
    cleanups.push({ name: 'data snapshot', run: () => keeper.close() });
    const models = await createModels(conn);
    // This run's heartbeat: a process starting beside this one leaves its changes under way alone.
    const heartbeat = await startHeartbeat(models.ServerProcess, models.owner, (e) => log.error('heartbeat: could not write it', e));
    cleanups.push({ name: 'heartbeat', run: () => heartbeat.close() });
    const repaired = await repairInterruptedChanges(models);
    if (repaired.length) {
      const which = repaired.map((ds) => `${ds.sourceId} ${JSON.stringify(ds.name)} (${ds.recordCount} records)`).join(', ');
      log.warn(`repaired ${repaired.length} data source(s) that a stopped process left in the middle of a change; count, fields and revision re-derived from their records: ${which}`);
    }
    const adminToken = config.ADMIN_TOKEN ?? crypto.randomBytes(18).toString('base64url');
    const hello = (await conn.db!.admin().command({ hello: 1 })) as { setName?: string; msg?: string };
    const transactions = Boolean(hello.setName) || hello.msg === 'isdbgrid';
    const events = new DomainEventBus();
    const ctx: AppContext = { config, log, db, conn, models, events, adminToken, startedAt: Date.now(), transactions, handles: new Map() };
    dataKeeping.set(ctx, keeper);
    if (health) {
      redisHealthHandle.set(ctx, health);
      health.observe(metricsOf(ctx));
    }
    const limits = createRateLimits(config, redis && health ? { client: redis, health } : null, keyedHash(config.SERVER_SECRET, adminToken));
    rateLimitsHandle.set(ctx, limits);
    const activity = await startActivityLog(ctx);
    activityHandle.set(ctx, activity);
    cleanups.push({ name: 'activity log flush', run: () => activity.close() });
    const accounts = createAccounts({ config, log, events, models: await createAccountModels(conn) });
    accountsHandle.set(ctx, accounts);
    cleanups.push({ name: 'accounts', run: async () => accounts.close() });

    // Before anything calls out: the outbound hosts an admin allowed (server/settings).
    await startSettings(ctx);
    const stopSharingCascades = startSharingCascades(ctx);
    cleanups.push({ name: 'sharing cascades', run: async () => stopSharingCascades() });
    const versions = await startDashboardVersions(ctx);
    cleanups.push({ name: 'dashboard versions', run: () => versions.close() });
    // The repaired sources are counted again on the sweep's first ticks: an insert the stopped process had sent may land after the repair.
    const retention = startRetentionSweep(ctx, { recount: repaired.map((ds) => ds.id) });
    cleanups.push({ name: 'retention sweep', run: () => retention.close() });
    // The type model follows the records as they arrive (server/dataSources/fieldTypes).
    const fieldTypes = startFieldTypes(ctx);
    cleanups.push({ name: 'field types', run: () => fieldTypes.close() });

    await removeOrphanUploads(ctx);

    const integrations = await startIntegrations(ctx);
    cleanups.push({ name: 'integrations', run: () => integrations.close() });

    const alerts = await startAlerts(ctx);
    cleanups.push({ name: 'alerts', run: () => alerts.close() });

    const reports = await startReports(ctx);
    cleanups.push({ name: 'reports', run: () => reports.close() });

    const seedWanted = config.SEED_DEMO ?? db.mode !== 'external';
    const seeded = seedWanted ? await seedDemo(ctx) : false;

    const operations = startOperations(ctx, redis);
    cleanups.push({ name: 'metrics listener', run: () => operations.close() });
    const metricsPort = await operations.listenMetrics();

    const koa = new Koa();
    // X-Forwarded-* reach Koa only from a trusted proxy (clientAddressOf removes them otherwise).
    koa.proxy = config.TRUST_PROXY.mode !== 'none';
    koa.maxIpsCount = config.TRUST_PROXY_HOPS;
    // A client that hangs up, sends malformed HTTP or aborts its upload is not a server error.
    koa.on('error', logKoaError(log));
    koa.use(operations.routeNames());
    koa.use(clientAddressOf(config));
    koa.use(errorHandler(log));
    koa.use(securityHeaders());
    koa.use(compressResponses());
    koa.use(serveWebApp(path.resolve(projectRoot, config.WEB_DIST), { indexHeaders: await embeddingHeaders(ctx) }));
    // No global body parser: each route reads its body after its guard, with its own size limit.
    // Who acts in each request, and what a route's about({ activity }) says its answer meant, announced on the event bus (the activity log writes it).
    koa.use(announceRouteActivity(ctx.events));
    const api = buildApiRouter(ctx, [...integrations.routers, alerts.router, reports.router]);
    for (const mw of mountApi(api)) koa.use(mw);

    // Known public views (and held signed-embedding views) are answered from memory before the Koa stack (server/publicView/viewCache/fastPath).
    const server = http.createServer(operations.observe(publicViewFastPath(ctx, koa.callback(), [embedFastRoute(ctx)])));
    const newConnections = watchNewConnections(server);
    const realtime = await attachRealtime(server, ctx);
    alerts.attachRealtime(realtime.io);
    operations.observeRealtime(realtime.io);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // A restarted process meets every viewer's reconnect at once: a short accept queue (node's
      // default 511) drops the surplus, and each dropped client waits out TCP's retry (1 s, 3 s, 7 s…).
      server.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG }, () => resolve());
    }).catch(async (e: unknown) => {
      await realtime.close();
      throw e;
    });
    const port = (server.address() as { port: number }).port;
    const url = config.PUBLIC_URL ?? `http://localhost:${port}`;
    reports.listening(url);
    const requestsGraceMs = Math.max(1_000, (config.SHUTDOWN_TIMEOUT_SECONDS - config.SHUTDOWN_GRACE_SECONDS) * 1000 - 2_000);
    const requests = { closeConnections: () => operations.closeConnections(), idle: () => operations.idle().then(() => writesSettled(ctx)), graceMs: requestsGraceMs };
    const close = (onStep?: (name: string) => void) => closeInOrder({ realtime, server, newConnections, requests, services: [...cleanups].reverse() }, log, onStep);
    return { ctx, url, port, seeded, realtime, api, fieldTypes, operations, metricsPort, close };
  } catch (e) {
    await stopServices();
    throw e;
  }
}
