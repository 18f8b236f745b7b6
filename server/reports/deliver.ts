import type { ReportFormat, ReportWebhookBody } from '@common/schemas/report';
import { type AppContext, type Attempted, goneResult, Outbox, type OutboxStatus, sendToChannel, settledReason, settledVerb, signedLinksOf } from '../core';
import { readRunFiles } from './files';
import { asMailFile, reportMessage, type ReportMessageParts } from './messages';
import type { ReportDeliveryDoc, ReportDoc, ReportModels, ReportRunDoc, RunFile } from './models';
import type { ReportsRuntime } from './runtime';

/** The purpose report file links are signed for. */
export const FILE_LINK_PURPOSE = 'report-file';
const PICTURE_CID = 'report-picture@livedash';

/** A kept file's signed link: `/api/reports/files/<token>.<ext>`, valid until the file goes. */
export async function fileUrl(rt: ReportsRuntime, f: RunFile, expiresAt: Date): Promise<string> {
  const token = (await signedLinksOf(rt.app)).sign(FILE_LINK_PURPOSE, f.fileId, expiresAt, f.format);
  return `${rt.baseUrl}/api/reports/files/${token}.${f.format}`;
}

/** A run's time in the report's time zone, as people read it. */
const timeText = (at: Date, timezone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: timezone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(at);

/** What one run's message is made of, for any channel. */
async function messageParts(rt: ReportsRuntime, report: ReportDoc, run: ReportRunDoc): Promise<ReportMessageParts> {
  const files = await Promise.all(run.files.map(async (f) => ({ format: f.format as ReportFormat, url: await fileUrl(rt, f, run.expiresAt), bytes: f.bytes, sha256: f.sha256 })));
  const body: ReportWebhookBody = {
    report: { id: String(report._id), name: report.name },
    dashboard: { id: report.dashboardId, name: run.dashboardName, url: `${rt.baseUrl}/dashboards/${report.dashboardId}` },
    kpis: run.kpis,
    files,
    at: run.at.toISOString(),
  };
  return {
    body,
    atText: timeText(run.at, report.timezone),
    rangeText: run.rangeText,
    pictureUrl: run.picture ? await fileUrl(rt, run.picture, run.expiresAt) : null,
    async mailFiles() {
      const chosen = await readRunFiles(rt.models, run.files);
      const [picture] = run.picture ? await readRunFiles(rt.models, [run.picture]) : [];
      return { picture: picture ? asMailFile(picture.file, picture.bytes, PICTURE_CID) : null, attached: chosen.map((c) => asMailFile(c.file, c.bytes)) };
    },
  };
}

/**
 * The reports' outbox: the core outbox over `ReportDelivery`, each delivery one run's message to
 * one channel, retried with the alerts' backoff. A delivery whose report, channel or run is gone
 * is dropped. Every outcome is an activity entry.
 */
export function reportOutbox(rt: ReportsRuntime): Outbox<ReportDeliveryDoc> {
  const { Report, ReportRun } = rt.models;
  return new Outbox<ReportDeliveryDoc>(rt.app.log, {
    name: 'reports',
    model: rt.models.ReportDelivery,
    owner: rt.owner,
    async send(d) {
      const report = await Report.findById(d.reportId).lean<ReportDoc>();
      const channel = report?.channels.find((c) => c.id === d.channelId);
      const run = report && channel ? await ReportRun.findById(d.runId).lean<ReportRunDoc>() : null;
      if (!report || !channel || !run) return goneResult('the report, its channel or its run was removed');
      return sendToChannel(rt.app, channel, String(d._id), reportMessage(await messageParts(rt, report, run)), 'LiveDash-Reports/1');
    },
    settled: (d, status, result) => void logOutcome(rt.app, rt.models, d, status, result),
  });
}

/** A delivery's outcome in the activity log (never the channel's address). */
async function logOutcome(app: AppContext, models: ReportModels, d: ReportDeliveryDoc, status: OutboxStatus, result: Attempted): Promise<void> {
  const report = await models.Report.findById(d.reportId).lean<ReportDoc>().catch(() => null);
  const name = report?.name ?? d.reportId;
  app.events.emit('activity.happened', {
    kind: status === 'delivered' ? 'report.delivered' : 'report.deliveryFailed',
    category: 'report',
    objectType: 'report',
    objectId: d.reportId,
    objectName: name,
    actor: 'reports',
    summary: `Report "${name}": ${settledVerb(status)} to its ${d.channelType} channel${settledReason(status, result)}`,
    details: { deliveryId: String(d._id), runId: d.runId, channelType: d.channelType, attempts: d.attempts.length, status: result.status },
  });
}
