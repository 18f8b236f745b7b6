import type { EngineStatusDto } from '@common/schemas/engine';
import { dataKeeping, type AppContext } from '../core';
import { appendOnlyDefaultMaxRecords } from '../records';

const ADVICE =
  'The offline database engine slows down on every write as the records grow (a write takes about a second past this size). Set MONGODB_URI to a MongoDB server, or give the machine network access once so the embedded mongod can be downloaded, then restart.';

/** The engine in use, the records collection's size and, on the offline engine, how near its writes are to a second. */
export async function engineStatus(ctx: AppContext): Promise<EngineStatusDto> {
  const offline = ctx.db.mode === 'embedded-jongodb';
  const recordsCount = await ctx.models.Record.countDocuments({});
  const slowWriteRecords = offline ? ctx.config.OFFLINE_ENGINE_WARN_RECORDS : null;
  return {
    engine: offline ? 'jongodb' : 'mongod',
    mode: ctx.db.mode,
    recordsCount,
    slowWriteRecords,
    nearSlowWrites: slowWriteRecords !== null && recordsCount >= slowWriteRecords,
    appendOnlyDefaultMaxRecords: appendOnlyDefaultMaxRecords(ctx),
    advice: offline ? ADVICE : null,
    dataKept: dataKeeping.of(ctx).status(),
  };
}
