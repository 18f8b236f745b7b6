import type Router from '@koa/router';
import { CreateDataSource, RawQuery, UpdateDataSource } from '@common/schemas/dataSource';
import { ExportQuery } from '@common/schemas/export';
import type { AppContext } from '../../context';
import { validate } from '../../middleware/validate';
import { canonicalParams } from '../../middleware/params';
import { DataSourceRefParam } from '@common/ids';
import {
  createDataSource, deleteDataSource, listDataSources, rawRecords, requireDataSource, rotateIngestKey, updateDataSource,
} from '../../services/dataSources';
import { attachmentHeader } from '../../services/exportCsv';
import { exportRecords } from '../../services/exportRecords';
import { resourceRouter } from '../router';

/** Data sources: reads for the console (/api/data/…) and admin writes (/api/admin/data-sources) — all admin-only. */
export function dataSourcesRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dataSourceId = canonicalParams({ id: DataSourceRefParam }, 'Data source');

  router.get('/data/sources', auth.admin(), async (ctx) => {
    ctx.body = await listDataSources(app);
  });

  router.get('/data/raw', auth.admin(), validate({ query: RawQuery }, async (ctx, { query }) => {
    ctx.body = await rawRecords(app, query.dataSourceId, query.limit, query.offset);
  }));

  router.post('/admin/data-sources', auth.admin(), adminJson(), validate({ body: CreateDataSource }, async (ctx, { body }) => {
    ctx.status = 201;
    ctx.body = await createDataSource(app, body);
  }));

  router.patch('/admin/data-sources/:id', auth.admin(), dataSourceId, adminJson(), validate({ body: UpdateDataSource }, async (ctx, { body }) => {
    ctx.body = await updateDataSource(app, ctx.params.id, body);
  }));

  router.post('/admin/data-sources/:id/ingest-key', auth.admin(), dataSourceId, async (ctx) => {
    ctx.body = await rotateIngestKey(app, ctx.params.id);
  });

  router.delete('/admin/data-sources/:id', auth.admin(), dataSourceId, async (ctx) => {
    await deleteDataSource(app, ctx.params.id);
    ctx.body = { success: true };
  });

  router.get('/admin/data-sources/:id/export', auth.admin(), validate({ query: ExportQuery }, async (ctx, { query }) => {
    const { fileName, contentType, stream } = exportRecords(app, await requireDataSource(app, ctx.params.id), query);
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = stream;
  }));

  return router;
}
