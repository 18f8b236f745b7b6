import { about } from '../core';
import type Router from '@koa/router';
import { ActivityQuery } from '@common/schemas/activity';
import type { AppContext } from '../core';
import { validate, attachmentHeader, activityHandle } from '../core';
import { activityCsv } from './presentActivity';
import { resourceRouter } from '../access';

/** The activity log for the admin: newest first, filtered by category, kind and object; or as CSV. */
export function activityRouter(app: AppContext): Router {
  const { router, auth } = resourceRouter(app);
  router.get('/admin/activity', auth.admin(), about({ summary: 'The activity log (admin actions, ingests, refused credentials, syncs), filtered and paged', answer: '{entries, total}' }), validate({ query: ActivityQuery }, async (ctx, { query }) => {
    ctx.body = await activityHandle.of(app).list(query);
  }));
  router.get('/admin/activity/export', auth.admin(), about({ summary: 'The activity log as CSV', answer: 'CSV file' }), validate({ query: ActivityQuery.extend({ limit: ActivityQuery.shape.limit.unwrap().max(100_000).default(10_000) }) }, async (ctx, { query }) => {
    const entries = await activityHandle.of(app).list(query);
    ctx.set('Content-Disposition', attachmentHeader(`activity-log-${new Date().toISOString().slice(0, 10)}.csv`));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = activityCsv(entries);
  }));
  return router;
}
