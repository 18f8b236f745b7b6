import { about, activity } from '../core';
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

  router.get('/data/sources', auth.editor(), about({ summary: 'List data sources (ingest keys only as hints)', answer: 'DataSource[]' }), async (ctx) => {
    ctx.body = await usableSourcesOf(app, askerOfRequest(ctx), await listDataSources(app));
  });

  router.get('/data/raw', auth.editor(), about({ summary: 'A page of a source\'s records with their total and the source revision they reflect', answer: '{dataSource, records, total, limit, offset, revision}' }), validate({ query: RawQuery }, async (ctx, { query }) => {
    const ds = await requireSourceUse(app, askerOfRequest(ctx), query.dataSourceId);
    ctx.body = await rawRecords(app, String(ds._id), query.limit, query.offset);
  }));

  router.post('/admin/data-sources', auth.admin(), about({ summary: 'Create a custom data source; the answer holds its ingest key (shown only here)', answer: 'DataSource with ingestKey', status: 201, activity: activity('dataSource.created', 'dataSource', 'created data source', 'answer') }), adminJson(), validate({ body: CreateDataSource }, async (ctx, { body }) => {
    ctx.status = 201;
    ctx.body = await createDataSource(app, body);
  }));

  router.patch('/admin/data-sources/:id', auth.admin(), about({ summary: 'Update a data source\'s name, description, primary key or field labels', answer: 'DataSource', activity: activity('dataSource.updated', 'dataSource', 'updated data source', 'param:id') }), dataSourceId, usableSource, adminJson(), validate({ body: UpdateDataSource }, async (ctx, { body }) => {
    ctx.body = await updateDataSource(app, ctx.params.id, body);
  }));

  router.post('/admin/data-sources/:id/ingest-key', auth.admin(), about({ summary: 'Rotate the ingest key (the old one stops working at once)', answer: 'DataSource with the new ingestKey', activity: activity('dataSource.keyRotated', 'dataSource', 'rotated the ingest key of data source', 'param:id') }), dataSourceId, usableSource, async (ctx) => {
    ctx.body = await rotateIngestKey(app, ctx.params.id);
  });

  router.delete('/admin/data-sources/:id', auth.admin(), about({ summary: 'Delete a data source and its records', answer: '{success: true}', activity: activity('dataSource.deleted', 'dataSource', 'deleted data source', 'param:id') }), dataSourceId, usableSource, async (ctx) => {
    await deleteDataSource(app, ctx.params.id);
    ctx.body = { success: true };
  });

  // Editors read data sources and their raw records, so they may export them.
  router.get('/admin/data-sources/:id/export', auth.editor(), about({ summary: 'Download a source\'s records as CSV, a JSON array or NDJSON, streamed; optional fields and time range', answer: 'The file (Content-Disposition names it after the source)' }), dataSourceId, validate({ query: ExportQuery }, async (ctx, { query }) => {
    const source = await requireSourceUse(app, askerOfRequest(ctx), ctx.params.id);
    const { fileName, contentType, stream } = exportRecords(app, source, query);
    ctx.set('Content-Disposition', attachmentHeader(fileName));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = stream;
  }));

  return router;
}
