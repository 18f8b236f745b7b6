import crypto from 'node:crypto';
import type { IngestRejection, IngestSourceResult, IngestWarning } from '@common/schemas/records/ingest';
import type { UpdateMode } from '@common/schemas/dataSource';
import { AppHandle, type AppContext, NotFoundError, closeChange, openChange, type OpenChange, presentDataSource, keyRotatedError, Slicer } from '../../core';
import type { DataSourceDoc } from '../../core';
import { checkRecordsInSlices, type CheckedRecords, type Keying } from '../manage/recordRules';
import { planKeying, type KeyRequest } from './keying';
import { effectiveRetentionWhy, enforceRetention, evictionFor, exceedsMaxRecords, logEviction } from './retention';
import { withSourceLock } from './sourceLock';
import { metricsOf, secondsSince } from '../../core';
import { KeysAlreadyStored, planRecords, storeRecords, type RecordsPlan, type RecordWrite } from './writeRecords';

/**
 * Group commit: the writes of one source queue up and one writer drains them inside the source
 * lock, so a burst of concurrent requests costs one openChange / storeRecords / closeChange and
 * one `records.upserted` per flush, not per request. Each request is answered after its own
 * records are stored, with its own counts, rejections and warnings.
 */

export interface WriteJob extends KeyRequest {
  /** merge or replace; the source's updateMode when absent. */
  mode?: UpdateMode;
  /** The hash of the ingest key the request came with (absent for the admin): refused unless it is still the source's. */
  keyHash?: string | null;
  /** The request's Idempotency-Key scope: its append-only records get ids derived from it (a retry rewrites them, never copies). */
  idempotencyScope?: string;
}

export interface WriteOutcome {
  result: IngestSourceResult;
  rejections: IngestRejection[];
  warnings: IngestWarning[];
}

interface Queued {
  job: WriteJob;
  resolve: (o: WriteOutcome) => void;
  reject: (e: unknown) => void;
}

interface SourceQueue {
  pending: Queued[];
  draining: boolean;
}

/** Most records one flush takes (a request larger than this is a flush of its own). */
const FLUSH_RECORDS = 5000;
/** How long a flush that follows a flush of several requests waits for their senders' next requests. */
const REJOIN_MS = 3;

interface WriterState {
  queues: Map<string, SourceQueue>;
  /** Sources whose last flush here stored only new keys (guessesNew), oldest first. */
  newKeys: Map<string, true>;
  /** Flushes that wrote records, for tests and benchmarks (never timing). */
  flushes: number;
  /** Announcements of flushes already answered, still to go out (they follow the answers by one turn). */
  announcing: number;
  /** Called once no source's queue is draining and every answered write is announced (a stop waits for both). */
  settled: (() => void)[];
}
const writers = new AppHandle<WriterState>('the source writers', () => ({ queues: new Map(), newKeys: new Map(), flushes: 0, announcing: 0, settled: [] }));

/** Sources remembered by guessesNew at most (a map that cannot grow with the sources of a long day). */
const NEW_KEYS_REMEMBERED = 1000;

/**
 * Whether a flush plans its keys as new without reading them first. Reading a thousand keys that
 * turn out new is most of a keyed flush's cost besides the insert (on the offline engine a read
 * scans the collection); a wrong guess costs a failed insert, its undo and the read after all. So:
 * only for a source that holds nothing yet or whose last flush here stored only new keys (events,
 * readings, new tickets), and only where retention would remove nothing even if every key were
 * new — the removal is planned before the write from the count of new records.
 */
function guessesNew(ctx: AppContext, st: WriterState, ds: DataSourceDoc, writes: number): boolean {
  const held = ds.recordCount ?? 0;
  if (exceedsMaxRecords(ctx, ds, held + writes)) return false;
  return held === 0 || st.newKeys.has(String(ds._id));
}

function rememberNewKeys(st: WriterState, id: string, plan: RecordsPlan): void {
  st.newKeys.delete(id);
  if (plan.replacements.length || !plan.fresh.length) return;
  st.newKeys.set(id, true);
  if (st.newKeys.size > NEW_KEYS_REMEMBERED) st.newKeys.delete(st.newKeys.keys().next().value!);
}

/** Calls the stop's waiters once nothing is written or left to announce. */
const settleIfIdle = (st: WriterState) => {
  if (!st.queues.size && !st.announcing) for (const done of st.settled.splice(0)) done();
};
const stateOf = (ctx: AppContext) => writers.of(ctx);

/** How many flushes have written records in this app (a test compares it with the request count). */
export const flushCount = (ctx: AppContext) => stateOf(ctx).flushes;

/** Resolves once every queued write of this app is stored and answered (a stop's last write lands whole). */
export function writesSettled(ctx: AppContext): Promise<void> {
  const st = stateOf(ctx);
  return st.queues.size || st.announcing ? new Promise((resolve) => st.settled.push(resolve)) : Promise.resolve();
}

/**
 * The record id an append-only record of a request with an Idempotency-Key gets: derived from the
 * key's scope and the record's place in the request, so the same request written twice (a retry
 * after a kill -9 between the records' write and the key's answer) replaces its own records instead
 * of adding copies. 24 hex characters, like the server ids of records sent without a key.
 */
export const stableRecordId = (scope: string, index: number) => crypto.createHash('sha256').update(`${scope}\n${index}`).digest('hex').slice(0, 24);

/** Queues one request's records for a source and answers once they are stored. */
export function writeToSource(ctx: AppContext, ds: DataSourceDoc, job: WriteJob): Promise<WriteOutcome> {
  const st = stateOf(ctx);
  const id = String(ds._id);
  let q = st.queues.get(id);
  if (!q) st.queues.set(id, (q = { pending: [], draining: false }));
  const queue = q;
  return new Promise<WriteOutcome>((resolve, reject) => {
    queue.pending.push({ job, resolve, reject });
    if (queue.draining) return;
    queue.draining = true;
    // One turn of the event loop lets the requests that arrived together join the first flush;
    // later ones gather while a flush writes.
    setImmediate(() => void drain(ctx, st, id, queue));
  });
}

async function drain(ctx: AppContext, st: WriterState, id: string, q: SourceQueue): Promise<void> {
  let answered = 0;
  for (;;) {
    // Senders the last flush answered send again at once (keep-alive webhooks, shippers): a few
    // milliseconds let them join this flush instead of the one after it (without this wait the
    // senders split into two halves that take turns, half as many requests a flush). A lone
    // sender (one request a flush) never waits.
    if (answered > 1) await new Promise((r) => setTimeout(r, REJOIN_MS));
    if (!q.pending.length) break;
    let n = 0;
    let records = 0;
    while (n < q.pending.length && (n === 0 || records + q.pending[n].job.items.length <= FLUSH_RECORDS)) records += q.pending[n++].job.items.length;
    const batch = q.pending.splice(0, n);
    answered = batch.length;
    const started = performance.now();
    try {
      await withSourceLock(ctx, id, () => flush(ctx, st, id, batch));
    } catch (e) {
      for (const b of batch) b.reject(e);
    }
    const metrics = metricsOf(ctx);
    metrics.flushDuration.observe(secondsSince(started));
    metrics.flushRequests.observe(batch.length);
  }
  q.draining = false;
  if (st.queues.get(id) === q) st.queues.delete(id);
  settleIfIdle(st);
}

interface Prepared {
  q: Queued;
  keying: Keying;
  checked: CheckedRecords;
  mode: UpdateMode;
  warnings: IngestWarning[];
}

async function flush(ctx: AppContext, st: WriterState, id: string, batch: Queued[]): Promise<void> {
  let ds = await ctx.models.DataSource.findById(id).lean<DataSourceDoc>();
  if (!ds) {
    for (const b of batch) b.reject(NotFoundError('Data source'));
    return;
  }
  const known = new Set(ds.fields ?? []);
  // The flush's work on this thread (checks, plan, payloads) gives the loop a turn every few milliseconds.
  const slicer = new Slicer();
  const prepared: Prepared[] = [];
  const rejected = () => prepared.reduce((n, p) => n + p.checked.rejections.length, 0);
  for (const q of batch) {
    try {
      // The guard's look-up may be cached (sourceCache): the key must still be the source's as read now.
      if (q.job.keyHash !== undefined && q.job.keyHash !== (ds.ingestKeyHash ?? null)) throw keyRotatedError();
      const planned = await planKeying(ctx, ds, q.job);
      ds = planned.ds;
      const checked = await checkRecordsInSlices(ds.sourceId, known, q.job.items, planned.keying, slicer);
      const mode = q.job.mode ?? (ds.updateMode === 'merge' ? 'merge' : 'replace');
      prepared.push({ q, keying: planned.keying, checked, mode, warnings: duplicateWarnings(checked, mode) });
    } catch (e) {
      q.reject(e);
    }
  }
  const writes: RecordWrite[] = prepared.flatMap((p, group) => {
    const scope = p.q.job.idempotencyScope;
    return p.checked.accepted.map((a) => {
      const stable = scope && a.recordId === null ? stableRecordId(scope, a.index) : null;
      return { recordId: a.recordId ?? stable, record: a.record, mode: p.mode, group, keepStored: stable !== null };
    });
  });
  let revision = ds.revision ?? 0;
  let counts = new Map<number, { inserted: number; updated: number }>();
  // Records retention removed right after this flush wrote (the request is told: retentionWarning).
  let evicted: { removed: number; recordIds: Set<string>; why: string } | null = null;
  let keysByGroup = new Map<number, Set<string>>();
  // The flush's events (viewers' deltas, caches, the console): sent once its requests are answered.
  let announce: (() => void) | null = null;
  if (writes.length) {
    // Keys that are probably new (see guessesNew) are planned without reading them first.
    const assumeNew = guessesNew(ctx, st, ds, writes.length);
    let plan = await planRecords(ctx, ds, writes, slicer, { assumeNew });
    counts = plan.counts;
    keysByGroup = plan.keysByGroup;
    // Retention as one change: what the source would hold above maxRecords goes BEFORE the write,
    // as a change of its own opened first (viewers apply the removal, then the records), and the
    // new records it would evict are never stored — so neither a read nor a viewer ever sees more
    // than the limit. Both close with one recount. Journalled: a process killed before the close
    // leaves the source to be repaired at start.
    const going = await evictionFor(ctx, ds, ds.recordCount ?? 0, plan.fresh);
    let removal: { change: OpenChange; recordIds: string[]; removed: number } | null = null;
    if (going?.storedIds.length) {
      const change = await openChange(ctx.models, ds._id);
      if (!change) throw NotFoundError(`Data source ${ds.sourceId}`);
      const res = await ctx.models.Record.deleteMany({ dataSourceId: ds._id, recordId: { $in: going.storedIds } });
      removal = { change, recordIds: going.storedIds, removed: res.deletedCount ?? 0 };
    }
    const change = await openChange(ctx.models, ds._id);
    if (!change) throw NotFoundError(`Data source ${ds.sourceId}`);
    revision = change.revision;
    let stored;
    try {
      stored = await storeRecords(ctx, ds, plan, revision, going?.freshIds, { assumedNew: assumeNew });
    } catch (e) {
      if (!(e instanceof KeysAlreadyStored)) throw e;
      // Within the limit even if every key were new (guessesNew), so nothing was evicted for the guess.
      plan = await planRecords(ctx, ds, writes, slicer);
      counts = plan.counts;
      keysByGroup = plan.keysByGroup;
      stored = await storeRecords(ctx, ds, plan, revision, going?.freshIds);
    }
    const { records } = stored;
    rememberNewKeys(st, id, plan);
    const { after, recordCount } = await closeChange(ctx.models, ds._id, removal ? [removal.change, change] : change, {
      added: stored.inserted - (removal?.removed ?? 0),
      newFields: prepared.flatMap((p) => p.checked.newFields),
    });
    st.flushes++;
    metricsOf(ctx).ingestRecords.inc({ outcome: 'accepted' }, writes.length);
    const removedNow = (removal?.removed ?? 0) + (going?.freshIds.size ?? 0);
    const source = ds;
    const freshCount = plan.fresh.length;
    announce = () => {
      if (removal) {
        const beforeWrite = recordCount - (freshCount - (going?.freshIds.size ?? 0));
        ctx.events.emit('records.removed', { dataSourceId: id, sourceId: source.sourceId, revision: removal.change.revision, total: beforeWrite, recordIds: removal.recordIds, all: false });
      }
      ctx.events.emit('records.upserted', { dataSourceId: id, sourceId: source.sourceId, revision, total: recordCount, records });
      if (going && removedNow) logEviction(ctx, source, removedNow, going.why, true);
      if (after) ctx.events.emit('datasource.changed', { dataSource: presentDataSource(after) });
    };
    // Whatever is still above the limit (a count another process changed): once the flush is
    // answered the source holds at most maxRecords. That removal is a later change: this flush's
    // announcements go before it.
    let more = 0;
    if (after && exceedsMaxRecords(ctx, after, after.recordCount ?? 0)) {
      announce();
      announce = null;
      more = await enforceRetention(ctx, after);
    }
    if (removedNow || more) {
      evicted = { removed: removedNow + more, recordIds: new Set([...(removal?.recordIds ?? []), ...(going?.freshIds ?? [])]), why: going?.why ?? effectiveRetentionWhy(ctx, ds) };
    }
  }
  if (rejected()) metricsOf(ctx).ingestRecords.inc({ outcome: 'rejected' }, rejected());
  prepared.forEach((p, group) => {
    const c = counts.get(group) ?? { inserted: 0, updated: 0 };
    const primaryKey = 'primaryKey' in p.keying ? p.keying.primaryKey : '';
    p.q.resolve({
      result: { sourceId: ds.sourceId, primaryKey, inserted: c.inserted, updated: c.updated, rejected: p.checked.rejections.length, revision: p.checked.accepted.length ? revision : (ds.revision ?? 0) },
      rejections: p.checked.rejections,
      warnings: evicted ? [retentionWarning(ds, evicted, keysByGroup.get(group)), ...p.warnings] : p.warnings,
    });
  });
  // The senders' answers do not wait for the fan-out to every viewer: the answers above are
  // written within this turn of the event loop (their promise chains), the announcements in the
  // next. Nothing of this source is written meanwhile (its next flush reads the database first),
  // so the order of changes is kept.
  // A stop waits for these too: the last writes' viewers (on every process) hear them before the sockets close.
  if (announce) {
    const run = announce;
    st.announcing++;
    setImmediate(() => {
      try {
        run();
      } finally {
        st.announcing--;
        settleIfIdle(st);
      }
    });
  }
}

/**
 * Tells a request that the source's retention removed records right after its write — an answer
 * of `inserted: 6000` on a source that keeps 5,000 must not read as 6,000 records kept.
 */
function retentionWarning(ds: DataSourceDoc, evicted: { removed: number; recordIds: Set<string>; why: string }, ownKeys: Set<string> | undefined): IngestWarning {
  let own = 0;
  for (const key of ownKeys ?? []) if (evicted.recordIds.has(key)) own++;
  const n = (x: number) => x.toLocaleString('en-US');
  const order = ds.timeField ? `the oldest by "${ds.timeField}"` : 'the oldest first';
  const mine = own ? `; ${n(own)} of them ${own === 1 ? 'was' : 'were'} sent in this request` : '';
  return {
    index: -1,
    message:
      `retention removed ${n(evicted.removed)} record${evicted.removed === 1 ? '' : 's'} of data source ${ds.sourceId}, ${order} (it ${evicted.why})${mine}. ` +
      `To keep more, raise its limit: PATCH /api/admin/data-sources/${String(ds._id)} with {"retention": {"maxRecords": <n>}}`,
  };
}

/** Records of one request that share a key: each earlier one is named with the record that replaced it. */
function duplicateWarnings(checked: CheckedRecords, mode: UpdateMode): IngestWarning[] {
  const last = new Map<string, number>();
  const warnings: IngestWarning[] = [];
  for (const a of checked.accepted) {
    if (a.recordId === null) continue;
    const before = last.get(a.recordId);
    if (before !== undefined) {
      warnings.push({ index: before, key: a.recordId, message: mode === 'merge' ? `merged with record #${a.index} (same key)` : `replaced by record #${a.index}` });
    }
    last.set(a.recordId, a.index);
  }
  return warnings.sort((a, b) => a.index - b.index);
}
