import { recordTimeReader } from '@common/time/recordTime';
import mongoose from 'mongoose';
import type { AppContext, DataSourceDoc, RecordDoc } from '../../core';
import { decodeKeys, reconcileCount } from '../../core';
import { removeRecordsInLock } from './removeRecords';
import { withSourceLock } from './sourceLock';
import { replaceRecords } from './writeRecords';

/** What a source keeps; `defaulted` when maxRecords is the append-only default. */
export interface EffectiveRetention {
  maxRecords: number | null;
  maxAgeSeconds: number | null;
  defaulted: boolean;
}

/**
 * Records an append-only source keeps when it sets no maxRecords: 100,000, or 5,000 on the offline
 * engine — a typical file (a few thousand rows) lands whole, and a write there stays well under a second.
 */
export function appendOnlyDefaultMaxRecords(ctx: AppContext): number {
  return ctx.config.APPEND_ONLY_MAX_RECORDS ?? (ctx.db.mode === 'embedded-jongodb' ? 5_000 : 100_000);
}

export function effectiveRetention(ctx: AppContext, ds: DataSourceDoc): EffectiveRetention {
  const r = (ds.retention ?? {}) as { maxRecords?: number | null; maxAgeSeconds?: number | null };
  const own = r.maxRecords ?? null;
  const defaulted = own === null && Boolean(ds.appendOnly);
  return { maxRecords: defaulted ? appendOnlyDefaultMaxRecords(ctx) : own, maxAgeSeconds: r.maxAgeSeconds ?? null, defaulted };
}

/**
 * The activity entry of records removed by retention: the count and why, never the records. After
 * writes (`perMinute`) they add up in one entry per source and minute, as the ingest that causes them.
 */
export function logEviction(ctx: AppContext, ds: DataSourceDoc, removed: number, why: string, perMinute = false): void {
  if (!removed) return;
  if (perMinute) {
    const head = { kind: 'records.evicted', category: 'ingest', objectType: 'dataSource', objectId: String(ds._id), objectName: ds.name, details: { reason: why } } as const;
    return ctx.events.emit('activity.counted', { head, counts: { removed } });
  }
  ctx.events.emit('activity.happened', {
    kind: 'records.evicted', category: 'ingest', objectType: 'dataSource', objectId: String(ds._id), objectName: ds.name,
    summary: `Retention removed ${removed} record${removed === 1 ? '' : 's'} from data source "${ds.name}" (${why})`,
    details: { removed, reason: why },
  });
}

/** Removes records by retention (under the source's lock), announces them and logs the count. */
async function evict(ctx: AppContext, ds: DataSourceDoc, recordIds: string[], why: string): Promise<number> {
  if (!recordIds.length) return 0;
  const removed = await removeRecordsInLock(ctx, ds, recordIds);
  logEviction(ctx, ds, removed, why);
  return removed;
}

/** Whether a source holding `count` records holds more than its maxRecords (enforceRetention then removes some). */
export function exceedsMaxRecords(ctx: AppContext, ds: DataSourceDoc, count: number): boolean {
  const { maxRecords } = effectiveRetention(ctx, ds);
  return Boolean(maxRecords) && count > maxRecords!;
}

/**
 * The oldest records (by time field, then by insertion) above the source's maxRecords once it holds
 * `count` records, and why they go; null within the limit (no database call then).
 */
async function excessRecords(ctx: AppContext, ds: DataSourceDoc, count: number): Promise<{ recordIds: string[]; why: string } | null> {
  const { maxRecords, defaulted } = effectiveRetention(ctx, ds);
  if (!maxRecords || !exceedsMaxRecords(ctx, ds, count)) return null;
  const oldest = await ctx.models.Record.find({ dataSourceId: ds._id }).sort({ recordedAt: 1, _id: 1 }).limit(count - maxRecords).lean<RecordDoc[]>();
  return { recordIds: oldest.map((r) => r.recordId), why: maxRecordsWhy(maxRecords, defaulted) };
}

/**
 * What a write must evict to stay within maxRecords once its `fresh` records land on the source's
 * `stored` ones: the oldest of both together (by time, stored first on a tie). Stored ones are
 * removed before the write; fresh ones are never stored. Null within the limit (no database call).
 */
export async function evictionFor(
  ctx: AppContext,
  ds: DataSourceDoc,
  stored: number,
  fresh: { recordId: string; recordedAt?: Date | null }[],
): Promise<{ storedIds: string[]; freshIds: Set<string>; why: string } | null> {
  const { maxRecords, defaulted } = effectiveRetention(ctx, ds);
  const over = stored + fresh.length - (maxRecords ?? Infinity);
  if (!maxRecords || over <= 0) return null;
  const oldest = stored > 0 ? await ctx.models.Record.find({ dataSourceId: ds._id }).sort({ recordedAt: 1, _id: 1 }).limit(over).lean<RecordDoc[]>() : [];
  const time = (d: { recordedAt?: Date | null }) => (d.recordedAt ? new Date(d.recordedAt).getTime() : 0);
  const candidates = [...oldest.map((r) => ({ r, fresh: false })), ...fresh.map((r) => ({ r, fresh: true }))];
  // A stable sort: on equal times the stored records (listed first) go first, fresh ones in arrival order.
  const going = candidates.sort((a, b) => time(a.r) - time(b.r)).slice(0, over);
  return {
    storedIds: going.filter((c) => !c.fresh).map((c) => c.r.recordId),
    freshIds: new Set(going.filter((c) => c.fresh).map((c) => c.r.recordId)),
    why: maxRecordsWhy(maxRecords, defaulted),
  };
}

const maxRecordsWhy = (maxRecords: number, defaulted: boolean) => `keeps at most ${maxRecords.toLocaleString('en-US')} records${defaulted ? ', the append-only default' : ''}`;

/** Why retention removes records above a source's limit, in words ("keeps at most 1,000 records, …"). */
export function effectiveRetentionWhy(ctx: AppContext, ds: DataSourceDoc): string {
  const { maxRecords, defaulted } = effectiveRetention(ctx, ds);
  return maxRecords ? maxRecordsWhy(maxRecords, defaulted) : 'keeps records within its limit';
}

/**
 * Keeps at most the source's maxRecords: the oldest by time field (then by insertion) go. Call it
 * under the source's lock right after a write, so a write's answer finds the source within its limit.
 * (The group-commit writer removes a flush's excess before the flush's write, evictionFor; this
 * catches the rest: a lowered limit, the sweep, record management.)
 */
export async function enforceRetention(ctx: AppContext, ds: DataSourceDoc): Promise<number> {
  // recordCount is derived from the records by every journalled change (models/ingestJournal): no second count per write.
  const excess = await excessRecords(ctx, ds, ds.recordCount ?? 0);
  return excess ? evict(ctx, ds, excess.recordIds, excess.why) : 0;
}

/** Removes up to `limit` records older than the source's maxAgeSeconds (by time field). */
async function sweepAge(ctx: AppContext, ds: DataSourceDoc, limit: number): Promise<number> {
  const { maxAgeSeconds } = effectiveRetention(ctx, ds);
  if (!maxAgeSeconds) return 0;
  const cutoff = new Date(Date.now() - maxAgeSeconds * 1000);
  const old = await ctx.models.Record.find({ dataSourceId: ds._id, recordedAt: { $lt: cutoff } }).sort({ recordedAt: 1, _id: 1 }).limit(limit).lean<RecordDoc[]>();
  return evict(ctx, ds, old.map((r) => r.recordId), `keeps records younger than ${maxAgeSeconds.toLocaleString('en-US')} seconds`);
}

const RECOMPUTE_BATCH = 1000;

/**
 * Re-reads every record's time after the source's time field changed (or for records written
 * before times were stored): batches of 1,000, one write command per batch (writeRecords' replaceRecords).
 */
export async function recomputeRecordTimes(ctx: AppContext, ds: DataSourceDoc): Promise<number> {
  return withSourceLock(ctx, String(ds._id), async () => {
    const timeOf = recordTimeReader(ds.timeField, ds.dateOrder === 'dmy' ? 'dmy' : 'mdy');
    let changed = 0;
    let batch: RecordDoc[] = [];
    const flush = async () => {
      if (batch.length) await replaceRecords(ctx, batch);
      changed += batch.length;
      batch = [];
    };
    const cursor = ctx.models.Record.find({ dataSourceId: ds._id }).sort({ _id: 1 }).lean<RecordDoc[]>().cursor({ batchSize: RECOMPUTE_BATCH });
    for await (const r of cursor as AsyncIterable<RecordDoc>) {
      const t = timeOf(decodeKeys((r.data ?? {}) as Record<string, unknown>), new Date(r.lastUpdated).getTime());
      if (r.recordedAt && new Date(r.recordedAt).getTime() === t) continue;
      batch.push({ ...r, recordedAt: new Date(t) });
      if (batch.length >= RECOMPUTE_BATCH) await flush();
    }
    await flush();
    return changed;
  });
}

/** After a PATCH of a source's settings: times re-read when the time field changed, limits applied at once. */
export async function applySourceSettings(ctx: AppContext, before: DataSourceDoc, after: DataSourceDoc): Promise<void> {
  if ((before.timeField ?? null) !== (after.timeField ?? null)) await recomputeRecordTimes(ctx, after);
  if (JSON.stringify(before.retention ?? {}) !== JSON.stringify(after.retention ?? {})) {
    await withSourceLock(ctx, String(after._id), async () => {
      await enforceRetention(ctx, after);
      await sweepAge(ctx, after, ctx.config.RETENTION_SWEEP_MAX_RECORDS);
    });
  }
}

/** Whether a source has anything for the sweep to do (a limit, or the append-only default). */
const hasRetention = (d: { retention?: unknown; appendOnly?: boolean | null }) => {
  const r = (d.retention ?? {}) as { maxRecords?: number | null; maxAgeSeconds?: number | null };
  return Boolean(r.maxAgeSeconds || r.maxRecords || d.appendOnly);
};

/** Ticks a repaired source's count is checked on: at start, and once more a tick later (an insert the stopped process sent lands within it). */
const RECOUNT_TICKS = 2;

/**
 * The one retention loop of the process: every RETENTION_SWEEP_MS it removes records past their
 * source's maxAgeSeconds (and above maxRecords, after a limit was lowered), at most
 * RETENTION_SWEEP_MAX_RECORDS per tick; the rest waits for the next tick. The sources it watches
 * are read once at start and then followed through `datasource.changed`, so a tick with nothing to
 * do costs no database call. `close()` stops it and waits for a tick under way. Sources named in
 * `recount` (repaired at start) get their count checked against their records on the first
 * RECOUNT_TICKS ticks where no change of theirs is under way.
 */
export function startRetentionSweep(ctx: AppContext, opts: { recount?: string[] } = {}): { close(): Promise<void>; tick(): Promise<number> } {
  let running: Promise<number> | null = null;
  let closed = false;
  let started = false;
  const watched = new Set<string>();
  // Sources whose count is checked against their records (reconcileCount) on this many more ticks.
  const recount = new Map((opts.recount ?? []).map((id) => [id, RECOUNT_TICKS]));
  const off = [
    ctx.events.on('datasource.changed', ({ dataSource }) => void (hasRetention(dataSource) ? watched.add(dataSource.id) : watched.delete(dataSource.id))),
    ctx.events.on('datasource.removed', ({ dataSourceId }) => void watched.delete(dataSourceId)),
  ];

  const sweep = async (): Promise<number> => {
    const { DataSource, Record } = ctx.models;
    if (!started) {
      // Records written before times were stored get theirs once; the watched sources are read once.
      const ids = await Record.distinct('dataSourceId', { recordedAt: null });
      for (const ds of await DataSource.find({ _id: { $in: ids } }).lean<DataSourceDoc[]>()) if (!closed) await recomputeRecordTimes(ctx, ds);
      for (const ds of await DataSource.find().lean<DataSourceDoc[]>()) if (hasRetention(ds)) watched.add(String(ds._id));
      started = true;
    }
    for (const [id, left] of recount) {
      if (closed) break;
      const result = await withSourceLock(ctx, id, () => reconcileCount(ctx.models, new mongoose.Types.ObjectId(id)));
      if (result.status === 'stored') ctx.log.warn(`data source ${id}: its record count said ${result.was}, its records are ${result.now}; stored ${result.now}`);
      // A change under way leaves the tick to a later one; a count done counts.
      if (result.status === 'busy') continue;
      if (left <= 1) recount.delete(id);
      else recount.set(id, left - 1);
    }
    if (!watched.size) return 0;
    let budget = ctx.config.RETENTION_SWEEP_MAX_RECORDS;
    for (const id of [...watched]) {
      if (closed || budget <= 0) break;
      budget -= await withSourceLock(ctx, id, async () => {
        const fresh = await DataSource.findById(id).lean<DataSourceDoc>();
        if (!fresh) return 0;
        return (await sweepAge(ctx, fresh, budget)) + (await enforceRetention(ctx, fresh));
      });
    }
    return ctx.config.RETENTION_SWEEP_MAX_RECORDS - budget;
  };

  const tick = () => {
    running ??= sweep()
      .catch((e) => {
        ctx.log.error('retention sweep failed', e);
        return 0;
      })
      .finally(() => (running = null));
    return running;
  };
  void tick();
  const timer = setInterval(() => void tick(), ctx.config.RETENTION_SWEEP_MS);
  timer.unref();
  return {
    tick,
    async close() {
      closed = true;
      clearInterval(timer);
      off.forEach((fn) => fn());
      await running;
    },
  };
}
