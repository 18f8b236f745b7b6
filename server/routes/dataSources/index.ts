import type Router from '@koa/router';
import { CreateDataSource, RawQuery, UpdateDataSource } from '@common/schemas/dataSource';
import { ExportQuery } from '@common/schemas/export';
import type { AppContext } from '../../context';
import type { Context } from 'koa';
import { dashboardLimit } from '../../middleware/guards';
import { validate } from '../../middleware/validate';
import { canonicalParams } from '../../middleware/params';
import { DataSourceRefParam } from '@common/ids';
import { NotFoundError } from '../../errors';
import {
  createDataSource, deleteDataSource, findDataSource, listDataSources, rawRecords, requireDataSource, rotateIngestKey, updateDataSource,
} from '../../services/dataSources';
import { attachmentHeader } from '../../services/exportCsv';
import { exportRecords } from '../../services/exportRecords';
import { resourceRouter } from '../router';

/** The data sources a person limited to chosen dashboards may read (those dashboards' sources), or null for all. */
async function readableSources(app: AppContext, ctx: Context): Promise<Set<string> | null> {
  const limit = dashboardLimit(ctx);
  if (!limit) return null;
  const docs = await app.models.Dashboard.find({ _id: { $in: [...limit] } }).lean();
  return new Set(docs.map((d) => d.dataSourceId).filter((id): id is string => Boolean(id)));
}

/** Data sources: reads for editors (/api/data/…), writes, key rotation and deletion for admins (/api/admin/data-sources). */
export function dataSourcesRouter(app: AppContext): Router {
  const { router, auth, adminJson } = resourceRouter(app);
  const dataSourceId = canonicalParams({ id: DataSourceRefParam }, 'Data source');

  router.get('/data/sources', auth.editor(), async (ctx) => {
    const readable = await readableSources(app, ctx);
    ctx.body = (await listDataSources(app)).filter((d) => !readable || readable.has(d.id));
  });

  router.get('/data/raw', auth.editor(), validate({ query: RawQuery }, async (ctx, { query }) => {
    const readable = await readableSources(app, ctx);
    if (readable) {
      const ds = await findDataSource(app, query.dataSourceId);
      if (!ds || !readable.has(String(ds._id))) throw NotFoundError(`Data source ${query.dataSourceId}`);
    }
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

  // Editors read data sources and their raw records, so they may export them (issue 21's roles).
  router.get('/admin/data-sources/:id/export', auth.editor(), validate({ query: ExportQuery }, async (ctx, { query }) => {
    const source = await requireDataSource(app, ctx.params.id);
    const readable = await readableSources(app, ctx);
    if (readable && !readable.has(String(source._id))) throw NotFoundError(`Data source ${ctx.params.id}`);
    const { fileName, contentType, stream } = exportRecords(app, source, query);
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = stream;
  }));

  return router;
}
