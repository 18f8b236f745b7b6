import type Router from '@koa/router';
import { ImportPlan, PreviewImportRequest, UploadImportQuery } from '@common/schemas/imports';
import type { AppContext } from '../core';
import { principalOf, resourceRouter } from '../access';
import { about, validate, type RouteContext, attachmentHeader } from '../core';
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

  router.post('/admin/imports', auth.editor(), about({ summary: 'Upload a file to import (the raw file as the body, any Content-Type) and preview it with guessed settings', answer: 'ImportPreview', status: 201 }), validate({ query: UploadImportQuery }, async (ctx, { query }) => {
    ctx.status = 201;
    ctx.body = await uploadImport(app, ctx, who(ctx), query.fileName);
  }));

  router.get('/admin/imports/:id', auth.editor(), about({ summary: 'An import\'s state and counts', answer: 'ImportProgress' }), validate({}, (ctx) => {
    ctx.body = progressOf(job(ctx));
  }));

  router.post('/admin/imports/:id/preview', auth.editor(), about({ summary: 'Preview the uploaded file again with other settings (format, encoding, delimiter, header)', answer: 'ImportPreview' }), adminJson(), validate({ body: PreviewImportRequest }, async (ctx, { body }) => {
    const j = job(ctx);
    j.settings = body.settings;
    ctx.body = await previewOf(j);
  }));

  router.post('/admin/imports/:id/dry-run', auth.editor(), about({ summary: 'Check a plan against the whole file without writing: rows that would land, be rejected or duplicate', answer: 'DryRun' }), adminJson(), validate({ body: ImportPlan }, async (ctx, { body }) => {
    ctx.body = await dryRun(app, who(ctx), job(ctx), body);
  }));

  router.get('/admin/imports/:id/rejections', auth.editor(), about({ summary: 'The rejected rows of the last dry run or import, with their reasons, as CSV', answer: 'CSV file' }), validate({}, (ctx) => {
    const j = job(ctx);
    ctx.set('Content-Disposition', attachmentHeader(`${j.fileName.replace(/\.[^.]*$/, '')} - rejected rows.csv`));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = rejectionsCsv(j);
  }));

  router.post('/admin/imports/:id/run', auth.editor(), about({ summary: 'Start the import with a plan (target source, columns, mode); follow it by GET or the import.progress event', answer: 'ImportProgress', status: 202 }), adminJson(), validate({ body: ImportPlan }, async (ctx, { body }) => {
    const j = job(ctx);
    await startImport(app, who(ctx), j, body);
    ctx.status = 202;
    ctx.body = progressOf(j);
  }));

  router.post('/admin/imports/:id/cancel', auth.editor(), about({ summary: 'Cancel a running import (records already written stay)', answer: 'ImportProgress' }), validate({}, (ctx) => {
    const j = job(ctx);
    cancelImport(j);
    ctx.body = progressOf(j);
  }));

  router.delete('/admin/imports/:id', auth.editor(), about({ summary: 'Discard an upload and its temp file (a running import stops first)', answer: '{success: true}' }), validate({}, (ctx) => {
    discardJob(app, job(ctx));
    ctx.body = { success: true };
  }));

  return router;
}
