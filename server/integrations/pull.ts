import { RECORD_MAX_BYTES } from '@common/constants';
import type { IngestRejection } from '@common/schemas/records/ingest';
import { ErrorCode } from '@common/schemas/errors';
import { ApiError, BadRequestError, ValidationError, findDataSource, tooLargeReason, type DataSourceDoc } from '../core';
import { ensureIntegrationDataSource } from '../dataSources';
import { upsertRecordsIntoSource } from '../records';
import type { IntegrationDoc } from './models';
import type { Cursor, Page, ProviderMemory, PullConfigBase, PullContext, PullProvider } from './provider';
import { allowedHosts, providerMemory, pullLimits, updateIntegration, type IntegrationsRuntime } from './runtime';
import { beginRun, countsText, type RunOutcome, type SyncRun } from './syncRun';

/**
 * The sync of a pull provider: pages read one at a time from the stored cursor, each written
 * through the ingest writer (so views, alerts, share links and exports follow), then its cursor
 * stored — a failed or stopped run keeps what it stored and the next one goes on from there.
 */

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The stored config, read again by the provider's schema (a 400 naming the field when it no longer passes). */
export function storedConfig(provider: PullProvider, doc: IntegrationDoc): PullConfigBase {
  const parsed = provider.config.safeParse(doc.connection ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = ['config', ...issue.path.map(String)].join('.');
  throw ValidationError(`${path}: ${issue.message} (edit the integration's config)`, [{ path, message: issue.message }]);
}

/** The one way out's rule on every place the config reaches; checked at save and again before each read (the list may have changed). */
export function requireReachable(rt: IntegrationsRuntime, provider: PullProvider, config: PullConfigBase): void {
  const problem = provider.checkTarget(config, allowedHosts(rt));
  if (!problem) return;
  const path = `config.${problem.path}`;
  throw ValidationError(`${path}: ${problem.message}`, [{ path, message: problem.message }]);
}

/** What a provider gets while it reads, for a run or a test. */
export function pullContext(rt: IntegrationsRuntime, memory: ProviderMemory, signal: AbortSignal, purpose: PullContext['purpose'], say: (m: string) => void): PullContext {
  return { signal, allowedHosts: allowedHosts(rt), log: rt.app.log, say, limits: pullLimits(rt), purpose, memory };
}

/** Starts a sync of an API or a database integration: from its stored cursor, or from the beginning (`full`). */
export async function beginPull(
  rt: IntegrationsRuntime, provider: PullProvider, doc: IntegrationDoc, opts: { full: boolean; trigger: 'manual' | 'auto' },
): Promise<{ runId: string; mode: 'full' | 'incremental'; done: Promise<void> }> {
  if (doc.status !== 'active') throw BadRequestError('not_connected', 'This integration is not active: save a working config first');
  const config = storedConfig(provider, doc);
  requireReachable(rt, provider, config);
  const cursor: Cursor = opts.full ? null : (doc.cursor ?? null);
  const mode = cursor === null ? 'full' : 'incremental';
  const { runId, done } = await beginRun(rt, String(doc._id), {
    mode,
    trigger: opts.trigger,
    message: mode === 'full' ? 'Starting a full sync' : 'Starting an incremental sync',
    secrets: provider.secrets.values(config),
  }, (run) => pullPages(run, provider, config, cursor));
  return { runId, mode, done };
}

/** The run's share of the way: the provider's when it knows, the share of maxPages, or a curve that never reaches the end. */
const percentOf = (page: Page, pages: number, maxPages: number) =>
  page.share !== undefined ? 100 * page.share : Number.isFinite(maxPages) && maxPages < 1e6 ? (100 * pages) / maxPages : 100 * (1 - 1 / (1 + pages / 5));

async function pullPages(run: SyncRun, provider: PullProvider, config: PullConfigBase, from: Cursor): Promise<RunOutcome> {
  const { rt, id, doc, signal } = run;
  const ds = await integrationSource(rt, doc, provider, config);
  const maxPages = Math.min(config.maxPages ?? Infinity, rt.app.config.INTEGRATION_MAX_PAGES);
  const deadline = Date.now() + rt.app.config.INTEGRATION_RUN_MAX_SECONDS * 1000;
  let lastPercent = 0;
  const ctx = pullContext(rt, providerMemory(rt, id), signal, 'sync', (m) => void run.progress(null, m).catch(() => {}));
  const pages = provider.pages(config, from, ctx)[Symbol.asyncIterator]();
  let lastLabel: string | null = null;
  let ended = false;
  try {
    for (;;) {
      if (ended) break;
      if (run.run.pages >= maxPages) {
        run.note(`Stopped at maxPages (${maxPages}): the next sync goes on after ${lastLabel ?? 'the last stored page'}`);
        break;
      }
      if (Date.now() > deadline) {
        run.note(`Stopped at the run time limit (${rt.app.config.INTEGRATION_RUN_MAX_SECONDS} s): the next sync goes on after ${lastLabel ?? 'the last stored page'}`);
        break;
      }
      let next: IteratorResult<Page>;
      try {
        next = await pages.next();
      } catch (e) {
        if (signal.aborted) throw e;
        return { errors: [`${provider.unit} ${run.run.pages + 1}: ${message(e)}`] };
      }
      if (next.done) break;
      const page = next.value;
      try {
        await storePage(run, ds, page, config.primaryKey);
      } catch (e) {
        if (signal.aborted) throw e;
        return { errors: [`${page.label}: ${storeProblem(e, config.primaryKey)}`] };
      }
      // Only now, with the page's records stored, may the next sync start after it.
      await rt.models.Integration.updateOne({ _id: id, ...run.leaseFilter }, { $set: { cursor: page.cursor } });
      run.run.pages++;
      lastLabel = page.label;
      ended = page.last === true;
      lastPercent = Math.max(lastPercent, percentOf(page, run.run.pages, maxPages));
      await run.progress(lastPercent, `Read ${page.label}: ${countsText(run.run, provider.unit)} so far`);
    }
  } finally {
    // Closes the provider's connection (its `finally`), whether it ended, failed or was stopped.
    await pages.return?.(undefined).catch(() => {});
  }
  return { errors: [] };
}

/** Why a page could not be stored, in the integration's words. */
function storeProblem(e: unknown, primaryKey: string | undefined): string {
  if (e instanceof ApiError && e.code === ErrorCode.primaryKeyAmbiguous) {
    return `no primaryKey in the config and ${e.fields?.[0]?.message ?? 'the first field does not identify a record'}: set config.primaryKey to the field that identifies a record`;
  }
  if (e instanceof ApiError && e.code === ErrorCode.primaryKeyConflict && primaryKey) {
    return `${e.message.split(':')[0]}: the data source keeps its key; set config.primaryKey back, or delete and recreate the integration`;
  }
  return message(e);
}

/** Writes one page through the ingest writer; records too large or without the key are rejected with their reason, the rest land. */
async function storePage(run: SyncRun, ds: DataSourceDoc, page: Page, primaryKey: string | undefined): Promise<void> {
  const items: { index: number; record: unknown }[] = [];
  const rejected = [...(page.rejected ?? [])];
  page.records.forEach((record, index) => {
    const size = JSON.stringify(record)?.length ?? 0;
    if (size > RECORD_MAX_BYTES) rejected.push({ index, reason: tooLargeReason(size) });
    else items.push({ index, record });
  });
  const fresh = (await findDataSource(run.rt.app, ds.sourceId)) ?? null;
  if (!fresh) throw new Error('The integration data source was removed during the sync');
  const writerRejections: IngestRejection[] = [];
  const result = items.length ? await upsertRecordsIntoSource(run.rt.app, fresh, items, primaryKey, writerRejections) : { inserted: 0, updated: 0 };
  run.run.records += result.inserted + result.updated;
  run.reject([...rejected, ...writerRejections].map((r) => ({ page: page.label, index: r.index, reason: r.reason })));
}

/** The integration's own data source, `INT_<id>`, made on its first sync. */
async function integrationSource(rt: IntegrationsRuntime, doc: IntegrationDoc, provider: PullProvider, config: PullConfigBase): Promise<DataSourceDoc> {
  const id = String(doc._id);
  const sourceId = doc.sourceId ?? `INT_${id}`;
  const ds = await ensureIntegrationDataSource(rt.app, {
    sourceId, name: doc.name, description: `Pulled from ${provider.label}: ${provider.describe(config)}`, integrationId: id, primaryKey: config.primaryKey ?? null,
  });
  if (!doc.sourceId) await updateIntegration(rt, id, { $set: { sourceId, dataSourceId: String(ds._id) } });
  return ds;
}
