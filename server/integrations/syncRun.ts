import type { SyncCompletedEvent } from '@common/realtime';
import { ConflictError, keepLease } from '../core';
import { acquireLease, INTERRUPTED_MESSAGE, markInterrupted, syncLease } from './lease';
import type { IntegrationDoc, RunDoc, RunRejection } from './models';
import { presentSyncStatus, syncCounts } from './presenters';
import { addRejections, closeRun, newRun, openRun } from './runs';
import { updateIntegration, type IntegrationsRuntime } from './runtime';
import { scrubSecrets } from './secrets';

/**
 * A sync run of any provider, from lease to history: one run per integration across processes
 * (the core lease, renewed while the run lives), a run document for the history, progress persisted
 * and announced (`sync.progress`, then `sync.completed` or `sync.failed`), the outcome written back.
 * The provider's work only reads, writes records and reports.
 */

export const ALREADY_RUNNING = 'A sync is already running for this integration';
/** The abort reason of a run whose integration was deleted: nothing of it is kept. */
export const DELETED = 'Integration deleted';

export interface RunOptions {
  mode: RunDoc['mode'];
  trigger: RunDoc['trigger'];
  /** The first progress message ("Starting initial sync"). */
  message: string;
  /** More fields set with the lease (a provider's own counts reset). */
  set?: Record<string, unknown>;
  /** Secret values to scrub from every message the run keeps or announces. */
  secrets?: string[];
}

/** What a provider's work hands back. */
export interface RunOutcome {
  /** None: the run succeeded. */
  errors: string[];
  /** The last progress message (default: the counts, or the errors). */
  message?: string;
  /** More fields set on the integration at the end (Zendesk: its results, status). */
  set?: Record<string, unknown>;
  /** More fields of the sync:completed event (Zendesk's totals). */
  completed?: Partial<SyncCompletedEvent>;
}

/** What the work of one run gets. */
export interface SyncRun {
  rt: IntegrationsRuntime;
  id: string;
  /** The integration as the lease found it. */
  doc: IntegrationDoc;
  signal: AbortSignal;
  /** The run document: its counts, rejections and notes are the work's to update. */
  run: RunDoc;
  /** Only while this process holds the lease (a write past a lost lease is dropped). */
  leaseFilter: Record<string, unknown>;
  /** Persists and announces progress; `percent` null keeps the last one. `extra`: more `sync.*` counts (Zendesk's). */
  progress(percent: number | null, message: string, extra?: Record<string, number>): Promise<void>;
  reject(rejections: RunRejection[]): void;
  note(text: string): void;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Takes the lease and starts `work` in the background; 409 while a run holds the lease (in any
 * process). `done` settles when the run has finished and its outcome is written.
 */
export async function beginRun(
  rt: IntegrationsRuntime,
  id: string,
  opts: RunOptions,
  work: (run: SyncRun) => Promise<RunOutcome>,
): Promise<{ runId: string; done: Promise<void> }> {
  const run = newRun(id, opts.mode, opts.trigger);
  const leased = await acquireLease(rt, id, {
    'sync.message': opts.message, 'sync.progress': 0, 'sync.recordsProcessed': 0, 'sync.pagesProcessed': 0, 'sync.errors': [],
    'sync.interrupted': false, 'sync.startedAt': run.startedAt, 'sync.finishedAt': null, 'sync.runId': String(run._id), lastRun: run,
    ...opts.set,
  });
  if (!leased) throw ConflictError(ALREADY_RUNNING);
  await openRun(rt, run);
  rt.app.events.emit('sync.progress', presentSyncStatus(leased));
  const abort = new AbortController();
  const done = execute(rt, leased, run, opts, abort.signal, work)
    .catch((e) => rt.app.log.error(`integrations: sync of ${id} crashed`, e))
    .finally(() => rt.running.delete(id));
  rt.running.set(id, { abort, done });
  return { runId: String(run._id), done };
}

async function execute(rt: IntegrationsRuntime, doc: IntegrationDoc, run: RunDoc, opts: RunOptions, signal: AbortSignal, work: (run: SyncRun) => Promise<RunOutcome>): Promise<void> {
  const id = String(doc._id);
  const leaseFilter = { 'sync.leaseOwner': rt.owner };
  const scrub = (text: string) => scrubSecrets(text, opts.secrets ?? []);
  const stopRenewing = keepLease(syncLease(rt), { _id: id }, () => rt.running.get(id)?.abort.abort(new Error('Sync lease lost')));
  let lastPercent = 0;
  const ctx: SyncRun = {
    rt, id, doc, signal, run, leaseFilter,
    async progress(percent, text, extra = {}) {
      if (percent !== null) lastPercent = Math.max(lastPercent, Math.min(99, Math.round(percent)));
      const set: Record<string, unknown> = {
        'sync.progress': lastPercent, 'sync.message': scrub(text), 'sync.recordsProcessed': run.records, 'sync.pagesProcessed': run.pages,
        'lastRun.records': run.records, 'lastRun.pages': run.pages, 'lastRun.rejected': run.rejected,
      };
      for (const [k, v] of Object.entries(extra)) set[`sync.${k}`] = v;
      const after = await updateIntegration(rt, id, { $set: set }, leaseFilter);
      if (after) rt.app.events.emit('sync.progress', presentSyncStatus(after));
    },
    reject: (rejections) => addRejections(run, rejections.map((r) => ({ ...r, reason: scrub(r.reason) }))),
    note: (text) => void run.notes.push(scrub(text)),
  };
  try {
    let outcome: RunOutcome;
    try {
      outcome = await work(ctx);
    } catch (e) {
      if (signal.aborted) {
        if (message(signal.reason) === DELETED) return;
        await markInterrupted(rt, leaseFilter).catch(() => {});
        // A lease lost to another process leaves nothing for markInterrupted to match: the run still ends in its history.
        await rt.models.Run.updateOne(
          { _id: run._id, status: 'running' },
          { $set: { status: 'failed', finishedAt: new Date(), error: scrub(message(signal.reason)), records: run.records, pages: run.pages, rejected: run.rejected } },
        ).catch(() => {});
        return;
      }
      outcome = { errors: [message(e)] };
    }
    await finish(rt, ctx, { ...outcome, errors: outcome.errors.map(scrub), message: outcome.message && scrub(outcome.message) });
  } finally {
    stopRenewing();
  }
}

/** The counts in words: "120 records in 3 pages, 2 rejected". */
export function countsText(run: RunDoc, unit = 'page'): string {
  const n = (v: number, one: string) => `${v.toLocaleString('en-US')} ${v === 1 ? one : one === 'batch' ? 'batches' : `${one}s`}`;
  return `${n(run.records, 'record')} in ${n(run.pages, unit)}${run.rejected ? `, ${run.rejected.toLocaleString('en-US')} rejected` : ''}`;
}

async function finish(rt: IntegrationsRuntime, ctx: SyncRun, outcome: RunOutcome): Promise<void> {
  const { run, id } = ctx;
  const ok = outcome.errors.length === 0;
  const msg = outcome.message ?? (ok ? `Sync complete: ${countsText(run)}` : `Sync failed: ${outcome.errors.join('; ')}`);
  run.status = ok ? 'succeeded' : 'failed';
  run.finishedAt = new Date();
  run.error = ok ? null : outcome.errors.join('; ');
  const closed = { ...run, rejections: run.rejections };
  // The run is ours whatever became of the lease: its history entry says how it ended (before the
  // integration does, so whoever sees the sync end finds the run closed).
  await closeRun(rt, closed);
  const after = await updateIntegration(rt, id, {
    $set: {
      'sync.isRunning': false, 'sync.leaseOwner': null, 'sync.leaseExpiresAt': null, 'sync.progress': 100, 'sync.message': msg,
      'sync.recordsProcessed': run.records, 'sync.pagesProcessed': run.pages, 'sync.errors': outcome.errors, 'sync.finishedAt': run.finishedAt,
      'config.lastSyncErrors': outcome.errors, lastSync: run.finishedAt, lastRun: closed, ...outcome.set,
    },
  }, ctx.leaseFilter);
  // The lease went to another process meanwhile: its run is the one the integration shows.
  if (!after) return;
  rt.app.events.emit('sync.progress', presentSyncStatus(after));
  const counts = syncCounts(after);
  if (ok) rt.app.events.emit('sync.completed', { ...counts, rejected: run.rejected, errors: outcome.errors, ...outcome.completed });
  else rt.app.events.emit('sync.failed', { ...counts, message: msg });
  rt.app.log.info(`integrations: sync of ${id} (${ctx.doc.type}) ${ok ? 'completed' : 'failed'}: ${countsText(run)}`);
}

/** Stops this process's syncs (shutdown); they are marked interrupted and resume next time. */
export async function stopAllSyncs(rt: IntegrationsRuntime): Promise<void> {
  const runs = [...rt.running.values()];
  for (const r of runs) r.abort.abort(new Error(INTERRUPTED_MESSAGE));
  await Promise.all(runs.map((r) => r.done.catch(() => {})));
}

/** Stops this process's run of one integration (deleted, reconfigured) and waits for it. */
export async function stopRun(rt: IntegrationsRuntime, id: string, reason: string): Promise<void> {
  const r = rt.running.get(id);
  if (!r) return;
  r.abort.abort(new Error(reason));
  await r.done.catch(() => {});
}
