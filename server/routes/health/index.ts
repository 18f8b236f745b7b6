import type Router from '@koa/router';
import pkg from '../../../package.json' with { type: 'json' };
import type { AppContext } from '../../context';
import { resourceRouter } from '../router';

const { version } = pkg;

/** GET /api/health: status, database mode and readiness, version, uptime. */
export function healthRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  router.get('/health', auth.public(), async (ctx) => {
    const ready = await app.conn.db!.admin().ping().then(() => true, () => false);
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? 'ok' : 'degraded',
      database: { mode: app.db.mode, ready, persistent: app.db.persistent, reason: app.db.reason },
      realtime: { adapter: app.config.REDIS_URL ? 'redis' : 'memory' },
      version,
      uptimeSeconds: Math.round((Date.now() - app.startedAt) / 1000),
    };
  });
  return router;
}
