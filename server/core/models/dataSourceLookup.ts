import crypto from 'node:crypto';
import mongoose from 'mongoose';
import type { AppContext } from '../context';
import { NotFoundError } from '../errors';
import type { DataSourceDoc } from '.';
import { cachedSource } from './sourceCache';

/**
 * Finding a data source by what a caller names it with — its id, its sourceId, its ingest key.
 * Every feature looks sources up (access for ingest keys and limits, records for the write path),
 * so the look-ups sit in core beside the models; the dataSources feature owns changing them.
 */

/** SHA-256 of an ingest key: only the hash is stored. */
export const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex');

export async function findDataSource(ctx: AppContext, idOrSourceId: string): Promise<DataSourceDoc | null> {
  const { DataSource } = ctx.models;
  if (mongoose.isObjectIdOrHexString(idOrSourceId)) {
    const byId = await DataSource.findById(idOrSourceId).lean<DataSourceDoc>();
    if (byId) return byId;
  }
  return DataSource.findOne({ sourceId: idOrSourceId }).lean<DataSourceDoc>();
}

export async function requireDataSource(ctx: AppContext, idOrSourceId: string): Promise<DataSourceDoc> {
  const ds = await findDataSource(ctx, idOrSourceId);
  if (!ds) throw NotFoundError(`Data source ${idOrSourceId}`);
  return ds;
}

export async function findSourceByIngestKey(ctx: AppContext, credential: string): Promise<DataSourceDoc | null> {
  const hash = hashKey(credential);
  return cachedSource(ctx, 'key', hash, () => ctx.models.DataSource.findOne({ ingestKeyHash: hash }).lean<DataSourceDoc>());
}
