import type Router from '@koa/router';
import { about, type AppContext } from '../core';
import { engineStatus } from './engineStatus';
import { resourceRouter } from '../access';

/** GET /api/admin/engine: the database engine and, on the offline engine, whether writes near a second (the console's banner). */
export function engineRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  router.get('/admin/engine', auth.admin(), about({ summary: 'The database engine and, on the offline engine, whether writes near a second', answer: 'EngineStatus' }), async (ctx) => {
    ctx.body = await engineStatus(app);
  });
  return router;
}
