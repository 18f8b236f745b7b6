import Router from '@koa/router';
import { CreateDataSource, RawQuery, UpdateDataSource } from '@common/schemas/dataSource';
import type { AppContext } from '../../context';
import { parse } from '../../middleware/validate';
import {
  createDataSource, deleteDataSource, listDataSources, rawRecords, rotateIngestKey, updateDataSource,
} from '../../services/dataSources';

/** Data source reads (/api/data/...) and admin writes (/api/admin/data-sources). */
export function dataSourcesRouter(app: AppContext): Router {
  const router = new Router();

  router.get('/data/sources', async (ctx) => {
    ctx.body = await listDataSources(app);
  });

  router.get('/data/raw', async (ctx) => {
    const q = parse(RawQuery, ctx.query);
    ctx.body = await rawRecords(app, q.dataSourceId, q.limit, q.offset);
  });

  router.post('/admin/data-sources', async (ctx) => {
    const input = parse(CreateDataSource, ctx.request.body);
    ctx.status = 201;
    ctx.body = await createDataSource(app, input);
  });

  router.patch('/admin/data-sources/:id', async (ctx) => {
    const patch = parse(UpdateDataSource, ctx.request.body);
    ctx.body = await updateDataSource(app, ctx.params.id, patch);
  });

  router.post('/admin/data-sources/:id/ingest-key', async (ctx) => {
    ctx.body = await rotateIngestKey(app, ctx.params.id);
  });

  router.delete('/admin/data-sources/:id', async (ctx) => {
    await deleteDataSource(app, ctx.params.id);
    ctx.body = { success: true };
  });

  return router;
}
