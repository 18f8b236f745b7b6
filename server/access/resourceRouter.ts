import Router from '@koa/router';
import type { AppContext } from '../core';
import { jsonBody } from '../core';
import { createGuards } from './guards';

/**
 * A resource router: paths match case-sensitively and strictly (no trailing-slash or other
 * spelling variants), so `/api/ADMIN/…` or `/api/admin/dashboards/` is a 404, never a handler.
 */
export function resourceRouter(app: AppContext) {
  return {
    router: new Router({ sensitive: true, strict: true }),
    auth: createGuards(app),
    /** JSON body of an admin call (ADMIN_JSON_MAX_BYTES, about 1 MB). */
    adminJson: () => jsonBody({ limit: app.config.ADMIN_JSON_MAX_BYTES }),
  };
}
