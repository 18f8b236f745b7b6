import type Router from '@koa/router';
import { ImportPlan, PreviewImportRequest, UploadImportQuery } from '@common/schemas/imports';
import type { AppContext } from '../core';
import { principalOf, resourceRouter } from '../access';
import { validate, type RouteContext, attachmentHeader } from '../core';
import { discardJob, previewOf, progressOf, requireJob, uploadImport } from './importJobs';
import { cancelImport, dryRun, rejectionsCsv, startImport } from './runImport';

/**
 * Import Data (editors; creating a new data source by import needs the admin role, as creating one
 * does; a person limited to chosen dashboards imports only into the sources they show): upload a file once, preview it with other settings, dry-run a plan, import, follow, cancel.
 * The upload is the raw file as the body (any Content-Type), streamed to a temp file.
 */
export function importsRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const who = (ctx: RouteContext) => principalOf(ctx)!;
  const job = (ctx: RouteContext) => requireJob(app, who(ctx), ctx.params.id);

  router.post('/admin/imports', auth.editor(), validate({ query: UploadImportQuery }, async (ctx, { query }) => {
    ctx.status = 201;
    ctx.body = await uploadImport(app, ctx, who(ctx), query.fileName);
  }));

  router.get('/admin/imports/:id', auth.editor(), validate({}, (ctx) => {
    ctx.body = progressOf(job(ctx));
  }));

  router.post('/admin/imports/:id/preview', auth.editor(), adminJson(), validate({ body: PreviewImportRequest }, async (ctx, { body }) => {
    const j = job(ctx);
    j.settings = body.settings;
    ctx.body = await previewOf(j);
  }));

  router.post('/admin/imports/:id/dry-run', auth.editor(), adminJson(), validate({ body: ImportPlan }, async (ctx, { body }) => {
    ctx.body = await dryRun(app, who(ctx), job(ctx), body);
  }));

  router.get('/admin/imports/:id/rejections', auth.editor(), validate({}, (ctx) => {
    const j = job(ctx);
    ctx.set('Content-Disposition', attachmentHeader(`${j.fileName.replace(/\.[^.]*$/, '')} - rejected rows.csv`));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = rejectionsCsv(j);
  }));

  router.post('/admin/imports/:id/run', auth.editor(), adminJson(), validate({ body: ImportPlan }, async (ctx, { body }) => {
    const j = job(ctx);
    await startImport(app, who(ctx), j, body);
    ctx.status = 202;
    ctx.body = progressOf(j);
  }));

  router.post('/admin/imports/:id/cancel', auth.editor(), validate({}, (ctx) => {
    const j = job(ctx);
    cancelImport(j);
    ctx.body = progressOf(j);
  }));

  router.delete('/admin/imports/:id', auth.editor(), validate({}, (ctx) => {
    discardJob(app, job(ctx));
    ctx.body = { success: true };
  }));

  return router;
}
