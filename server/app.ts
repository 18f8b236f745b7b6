import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import mongoose from 'mongoose';
import crypto from 'node:crypto';
import { isAdminPath } from '@common/adminPaths';
import type { Config } from './config';
import type { AppContext } from './context';
import { startDatabase } from './db/startDatabase';
import { ApiError } from './errors';
import { DomainEventBus } from './events';
import { createLogger, type Logger } from './log';
import { requireAdmin } from './middleware/auth';
import { errorHandler } from './middleware/errors';
import { createModels } from './models';
import { attachRealtime, type Realtime } from './realtime';
import { dashboardsRouter } from './routes/dashboards';
import { dataSourcesRouter } from './routes/dataSources';
import { healthRouter } from './routes/health';
import { ingestRouter } from './routes/ingest';
import { publicDashboardsRouter } from './routes/publicDashboards';
import { seedDemo } from './services/seedDemo';
import { serveWebApp } from './static';
import { compressResponses } from './compression';
import { publicViewFastPath } from './viewCache/fastPath';
import { startZendeskIntegration } from './integrations/zendesk';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Paths under /api that hold `admin` or `integrations` but are reached without the bearer token. */
const ADMIN_EXEMPT = new Set<string>(['/api/integrations/zendesk/callback']);

export interface RunningApp {
  ctx: AppContext;
  url: string;
  port: number;
  seeded: boolean;
  realtime: Realtime;
  close(): Promise<void>;
}

const needsAdmin = (p: string) => !ADMIN_EXEMPT.has(p) && isAdminPath(p);

/** Starts the database, the HTTP server with REST, Socket.IO and the web app. Cleans up if any step fails. */
export async function startApp(config: Config, log: Logger = createLogger(config.LOG_LEVEL)): Promise<RunningApp> {
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((e) => log.error('shutdown step failed', e));
  };
  try {
    const db = await startDatabase(config, log);
    cleanups.push(() => db.stop());
    const conn = await mongoose.createConnection(db.uri, { autoCreate: false, autoIndex: false, serverSelectionTimeoutMS: 15_000 }).asPromise();
    cleanups.push(() => conn.close());
    const models = await createModels(conn);
    const adminToken = config.ADMIN_TOKEN ?? crypto.randomBytes(18).toString('base64url');
    const hello = (await conn.db!.admin().command({ hello: 1 })) as { setName?: string; msg?: string };
    const transactions = Boolean(hello.setName) || hello.msg === 'isdbgrid';
    const ctx: AppContext = { config, log, db, conn, models, events: new DomainEventBus(), adminToken, startedAt: Date.now(), transactions };

    const zendesk = await startZendeskIntegration(ctx);
    cleanups.push(() => zendesk.close());

    const seedWanted = config.SEED_DEMO ?? db.mode !== 'external';
    const seeded = seedWanted ? await seedDemo(ctx) : false;

    const koa = new Koa();
    koa.proxy = true;
    // A client that hangs up mid-response is not a server error.
    koa.on('error', (e: Error & { code?: string }) => {
      if (e.code === 'ERR_STREAM_PREMATURE_CLOSE' || e.code === 'ECONNRESET' || e.code === 'EPIPE') return;
      log.error('unhandled Koa error', e);
    });
    koa.use(errorHandler(log, config.INGEST_MAX_BYTES));
    koa.use(compressResponses());
    koa.use(serveWebApp(path.resolve(projectRoot, config.WEB_DIST)));
    koa.use(koaBody({ jsonLimit: config.INGEST_MAX_BYTES, jsonStrict: false, multipart: false, urlencoded: false, text: false }));

    const api = new Router({ prefix: '/api' });
    const admin = requireAdmin(adminToken);
    api.use(async (c, next) => (needsAdmin(c.path) ? admin(c, next) : next()));
    for (const r of [healthRouter(ctx), dataSourcesRouter(ctx), ingestRouter(ctx), dashboardsRouter(ctx), publicDashboardsRouter(ctx), zendesk.router]) {
      api.use(r.routes(), r.allowedMethods({ throw: true }));
    }
    api.all('/{*rest}', (c) => {
      throw new ApiError(404, 'not_found', `No API endpoint ${c.method} ${c.path}`);
    });
    koa.use(api.routes());
    koa.use(api.allowedMethods());

    // Known public views are answered from memory before the Koa stack (server/viewCache/fastPath).
    const server = http.createServer(publicViewFastPath(ctx, koa.callback()));
    const realtime = await attachRealtime(server, ctx);
    cleanups.push(() => realtime.close());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => resolve());
    });
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections?.();
          server.close(() => resolve());
        }),
    );
    const port = (server.address() as { port: number }).port;
    const url = config.PUBLIC_URL ?? `http://localhost:${port}`;
    return { ctx, url, port, seeded, realtime, close: cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
