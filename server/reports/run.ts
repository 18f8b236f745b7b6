import mongoose from 'mongoose';
import { keepLease, releaseLeases, takeLease } from '../core';
import { drawReport, type DrawnReport } from './draw';
import { keepFiles, removeFiles } from './files';
import type { ReportRunReason } from '@common/schemas/report';
import type { ReportDeliveryDoc, ReportDoc } from './models';
import { reportLease, type ReportsRuntime } from './runtime';

/** Runs kept per report (a run has one delivery per channel, so the last 100 deliveries are always among them). */
const RUNS_KEPT = 100;
const DAY_MS = 86_400_000;
/**
 * A drawing that failed is tried again after these waits (then not until its next slot): most
 * failures pass (a database that was away, a process short of memory); one that does not — a tab
 * removed from the dashboard — is said in the delivery log each time, and stops being retried.
 */
export const DRAW_RETRY_MS = [60_000, 5 * 60_000, 30 * 60_000];

/**
 * One run of a report: drawn (the picture always, for the messages; the chosen files), its files
 * kept REPORT_FILES_DAYS, then one delivery per channel written to the outbox, which sends them
 * (and retries). A report is drawn by one process at a time: the holder of its lease; another
 * process asked to run it meanwhile answers `busy`. A run that could not be drawn is written
 * too, with a failed delivery per channel saying why, so the delivery log shows it, and the
 * drawing is tried again later (DRAW_RETRY_MS).
 */
export async function runReport(rt: ReportsRuntime, report: ReportDoc, reason: ReportRunReason): Promise<'ran' | 'busy'> {
  const lease = reportLease(rt);
  const id = String(report._id);
  const held = await takeLease<ReportDoc>(lease, { _id: report._id });
  if (!held) return 'busy';
  rt.running.add(id);
  let lost = false;
  // The run's outcome for the next ones, written as the lease is handed back: a failed drawing's retry, or none.
  let outcome: Record<string, unknown> = {};
  const stop = keepLease(lease, { _id: report._id }, () => (lost = true), (e) => rt.app.log.error(`reports: could not renew the lease of report ${id}`, e));
  try {
    const at = new Date();
    const expiresAt = new Date(at.getTime() + rt.app.config.REPORT_FILES_DAYS * DAY_MS);
    let drawn: DrawnReport | null = null;
    let error: string | null = null;
    try {
      const formats = held.formats.includes('png') ? held.formats : [...held.formats, 'png' as const];
      drawn = await drawReport(rt.app, { dashboardId: held.dashboardId, tabId: held.tabId, filters: held.filters, formats, width: held.width, theme: held.theme, paper: held.paper ?? 'A4', timezone: held.timezone });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      rt.app.log.warn(`reports: could not draw report ${id}: ${error}`);
    }
    // Another process took the report over after our lease ran out (we stalled): the run is its to make.
    if (lost) return 'busy';
    const failures = drawn ? 0 : (held.drawFailures ?? 0) + 1;
    const retryAt = !drawn && failures <= DRAW_RETRY_MS.length ? new Date(Date.now() + DRAW_RETRY_MS[failures - 1]) : null;
    outcome = { drawFailures: failures, drawRetryAt: retryAt };
    const runId = new mongoose.Types.ObjectId();
    const kept = drawn ? await keepFiles(rt.models, id, String(runId), drawn.files, expiresAt) : [];
    await rt.models.ReportRun.create({
      _id: runId, reportId: id, at, reason, drawnBy: rt.owner, status: drawn ? 'drawn' : 'failed', error,
      dashboardName: drawn?.dashboardName ?? '', rangeText: drawn?.rangeText ?? '', kpis: drawn?.kpis ?? [],
      files: kept.filter((f) => held.formats.includes(f.format)), picture: kept.find((f) => f.format === 'png') ?? null, expiresAt,
    });
    const deliveries: Omit<ReportDeliveryDoc, '_id'>[] = held.channels.map((c) => ({
      reportId: id, runId: String(runId), channelId: c.id, channelType: c.type,
      status: drawn ? 'pending' : 'failed',
      attempts: drawn ? [] : [{ at, status: null, message: `the report could not be drawn: ${error}`.slice(0, 500) }],
      nextAttemptAt: drawn ? at : null, claim: { owner: null, until: null }, createdAt: at,
    }));
    if (deliveries.length) await rt.models.ReportDelivery.insertMany(deliveries, { ordered: true });
    rt.app.events.emit('activity.happened', {
      kind: drawn ? 'report.drawn' : 'report.deliveryFailed', category: 'report', objectType: 'report', objectId: id, objectName: held.name, actor: 'reports',
      summary: drawn
        ? `Report "${held.name}": drawn ${REASON_WORDS[reason]} (${kept.map((f) => `${f.format.toUpperCase()} ${f.bytes} bytes`).join(', ')}), sending to ${held.channels.length} channel(s)`
        : `Report "${held.name}": could not be drawn (${(error ?? '').slice(0, 160)}); ${retryAt ? `tried again at ${retryAt.toISOString()}` : `not tried again before its next run, after ${failures} failures in a row`}`,
      details: { reason, runId: String(runId) },
    });
    rt.outbox.kick();
    await pruneRuns(rt, id);
    return 'ran';
  } finally {
    stop();
    rt.running.delete(id);
    await releaseLeases(lease, { _id: report._id }, outcome).catch((e: unknown) => rt.app.log.error(`reports: could not hand back the lease of report ${id}`, e));
  }
}

const REASON_WORDS: Record<ReportRunReason, string> = { schedule: 'on its schedule', send: 'on request', retry: 'again after a failed drawing' };

/** Keeps a report's newest runs (and their deliveries); older ones go, with their files. */
async function pruneRuns(rt: ReportsRuntime, reportId: string): Promise<void> {
  const old = await rt.models.ReportRun.find({ reportId }).sort({ at: -1 }).skip(RUNS_KEPT).lean();
  if (!old.length) return;
  const runIds = old.map((r) => String(r._id));
  await rt.models.ReportDelivery.deleteMany({ runId: { $in: runIds }, status: { $ne: 'pending' } });
  await rt.models.ReportRun.deleteMany({ _id: { $in: runIds } });
  await removeFiles(rt.models, { runId: { $in: runIds } });
}
