import type Router from '@koa/router';
import { UpdateSettings } from '@common/schemas/settings';
import { about, validate, type AppContext } from '../core';
import { principalOf, resourceRouter } from '../access';
import { getSettings, updateSettings } from './settings';

/** /api/admin/settings: the runtime settings, admins only (they widen where the server may call out). */
export function settingsRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  router.get('/admin/settings', auth.admin(), about({ summary: 'The settings an admin changes while the product runs (outbound hosts), and what the environment sets', answer: 'Settings' }), async (ctx) => {
    ctx.body = await getSettings(app);
  });
  // Logged from the change itself (what was allowed or removed), not from the route.
  router.put('/admin/settings', auth.admin(), about({ summary: 'Replace the runtime settings; applied at once in every process', answer: 'Settings' }), adminJson(), validate({ body: UpdateSettings }, async (ctx, { body }) => {
    const who = principalOf(ctx);
    ctx.body = await updateSettings(app, body, who?.user ? who.user.name || who.user.email : 'admin token');
  }));
  return router;
}
