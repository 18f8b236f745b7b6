import type Router from '@koa/router';
import { CreateDataSource, RawQuery, UpdateDataSource } from '@common/schemas/dataSource';
import { ExportQuery } from '@common/schemas/export';
import type { AppContext } from '../core';
import { askerOfRequest, requireSourceUse, usableSourcesOf, resourceRouter } from '../access';
import type { Middleware } from 'koa';
import { validate, type RouteContext, canonicalParams, attachmentHeader } from '../core';
import { DataSourceRefParam } from '@common/ids';
import {
  createDataSource, deleteDataSource, listDataSources, rawRecords, rotateIngestKey, updateDataSource,
} from './dataSources';
import { exportRecords } from './exportRecords';

/** Data sources: reads for editors (/api/data/…), writes, key rotation and deletion for admins (/api/admin/data-sources). */
export function dataSourcesRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dataSourceId = canonicalParams({ id: DataSourceRefParam }, 'Data source');
  /** A change to a source in the path asks the access policy first (404, as for an unknown id). */
  const usableSource: Middleware = async (ctx, next) => {
    await requireSourceUse(app, askerOfRequest(ctx), (ctx as RouteContext).params.id);
    await next();
  };

  router.get('/data/sources', auth.editor(), async (ctx) => {
    ctx.body = await usableSourcesOf(app, askerOfRequest(ctx), await listDataSources(app));
  });

  router.get('/data/raw', auth.editor(), validate({ query: RawQuery }, async (ctx, { query }) => {
    const ds = await requireSourceUse(app, askerOfRequest(ctx), query.dataSourceId);
    ctx.body = await rawRecords(app, String(ds._id), query.limit, query.offset);
  }));

  router.post('/admin/data-sources', auth.admin(), adminJson(), validate({ body: CreateDataSource }, async (ctx, { body }) => {
    ctx.status = 201;
    ctx.body = await createDataSource(app, body);
  }));

  router.patch('/admin/data-sources/:id', auth.admin(), dataSourceId, usableSource, adminJson(), validate({ body: UpdateDataSource }, async (ctx, { body }) => {
    ctx.body = await updateDataSource(app, ctx.params.id, body);
  }));

  router.post('/admin/data-sources/:id/ingest-key', auth.admin(), dataSourceId, usableSource, async (ctx) => {
    ctx.body = await rotateIngestKey(app, ctx.params.id);
  });

  router.delete('/admin/data-sources/:id', auth.admin(), dataSourceId, usableSource, async (ctx) => {
    await deleteDataSource(app, ctx.params.id);
    ctx.body = { success: true };
  });

  // Editors read data sources and their raw records, so they may export them.
  router.get('/admin/data-sources/:id/export', auth.editor(), dataSourceId, validate({ query: ExportQuery }, async (ctx, { query }) => {
    const source = await requireSourceUse(app, askerOfRequest(ctx), ctx.params.id);
    const { fileName, contentType, stream } = exportRecords(app, source, query);
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = stream;
  }));

  return router;
}
