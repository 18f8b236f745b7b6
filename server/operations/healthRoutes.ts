import { about } from '../core';
import type Router from '@koa/router';
import type { Context } from 'koa';
import pkg from '../../package.json' with { type: 'json' };
import type { AppContext } from '../core';
import { engineStatus } from './engineStatus';
import { resourceRouter } from '../access';

const { version } = pkg;

/**
 * GET /api/health: status and database mode only (anyone may ask; no version or engine error to
 * help an attacker). GET /api/admin/health: the details for the operator.
 */
export function healthRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  const answer = async (ctx: Context, details: (ready: boolean) => object) => {
    const ready = await app.conn.db!.admin().ping().then(() => true, () => false);
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : 'degraded', ...details(ready) };
  };
  router.get('/health', auth.public(), about({ summary: 'Server status and database mode', answer: '{status, database: {mode}}; 503 while the database is not ready' }), (ctx) => answer(ctx, () => ({ database: { mode: app.db.mode } })));
  router.get('/admin/health', auth.admin(), about({ summary: 'Server details for the operator: database readiness and engine, realtime adapter, version, uptime', answer: '{status, database, realtime, version, uptimeSeconds}; 503 while the database is not ready' }), async (ctx) => {
    // The engine and how near its writes are to a second (also GET /api/admin/engine, the console's banner).
    const engine = await engineStatus(app).catch(() => null);
    return answer(ctx, (ready) => ({
      database: { mode: app.db.mode, ready, persistent: app.db.persistent, dataDir: app.db.dataDir, reason: app.db.reason },
      engine,
      realtime: { adapter: app.config.REDIS_URL ? 'redis' : 'memory' },
      version,
      uptimeSeconds: Math.round((Date.now() - app.startedAt) / 1000),
    }));
  });
  return router;
}
