import mongoose from 'mongoose';
import { REPORT_DELIVERIES_SHOWN, type CreateReport, type CreatedReportDto, type PreviewReport, type ReportDeliveryDto, type ReportDto, type UpdateReport } from '@common/schemas/report';
import { canonicalObjectId } from '@common/ids';
import { type DashboardDoc, NotFoundError, presentChannel, presentDashboard, storeChannel, storeChannels, ValidationError } from '../core';
import { type Asker, mayUseDashboard } from '../access';
import { drawReport } from './draw';
import { removeFiles } from './files';
import type { ReportDeliveryDoc, ReportDoc, ReportRunDoc } from './models';
import { presentDelivery, presentReport } from './presenters';
import type { ReportsRuntime } from './runtime';
import { checkSchedule, nextRunAfter } from './schedule';

/**
 * The dashboard a report draws, as the policy allows it to the asker (a person limited to chosen
 * dashboards: only those; another answers 404 exactly as an unknown id), and its tab.
 */
async function dashboardFor(rt: ReportsRuntime, who: Asker, ref: string, tabId: string | null): Promise<DashboardDoc> {
  const id = canonicalObjectId(ref);
  if (!id || !mayUseDashboard(who, id)) throw NotFoundError(`Dashboard ${ref}`);
  const doc = await rt.app.models.Dashboard.findById(id).lean<DashboardDoc>();
  if (!doc) throw NotFoundError(`Dashboard ${ref}`);
  const tabs = presentDashboard(doc, null).configuration.tabs ?? [];
  if (tabId !== null && !tabs.some((t) => t.id === tabId)) {
    throw ValidationError(`tabId: dashboard "${doc.name}" has no tab ${tabId} (its tabs: ${tabs.map((t) => t.id).join(', ') || 'none'})`, [{ path: 'tabId', message: 'Pick one of the dashboard\'s tabs' }]);
  }
  return doc;
}

/** A report the asker may see (its dashboard is one the asker may use); 404 alike for others and unknown ids. */
async function findReport(rt: ReportsRuntime, who: Asker, id: string): Promise<ReportDoc> {
  const doc = mongoose.isObjectIdOrHexString(id) ? await rt.models.Report.findById(id).lean<ReportDoc>() : null;
  if (!doc || !mayUseDashboard(who, doc.dashboardId)) throw NotFoundError(`Report ${id}`);
  return doc;
}

/** Reports as answered: each with its dashboard's name and its latest delivery. */
async function present(rt: ReportsRuntime, docs: ReportDoc[]): Promise<ReportDto[]> {
  const dashboardIds = [...new Set(docs.map((d) => d.dashboardId))];
  const dashboards = await rt.app.models.Dashboard.find({ _id: { $in: dashboardIds } }).lean<DashboardDoc[]>();
  const names = new Map(dashboards.map((d) => [String(d._id), d.name]));
  const last = await Promise.all(docs.map((d) => rt.models.ReportDelivery.findOne({ reportId: String(d._id) }).sort({ createdAt: -1 }).lean<ReportDeliveryDoc>()));
  return docs.map((d, i) => presentReport(d, names.get(d.dashboardId) ?? null, last[i]));
}

const nextRun = (d: Pick<ReportDoc, 'schedule' | 'timezone' | 'paused'>) => (d.paused ? null : nextRunAfter(d.schedule, d.timezone, new Date()));

/** POST /api/admin/reports: the report with its next run, and each webhook channel's signing secret this once. */
export async function createReport(rt: ReportsRuntime, who: Asker, body: CreateReport, createdBy: string | null): Promise<CreatedReportDto> {
  const dashboard = await dashboardFor(rt, who, body.dashboardId, body.tabId);
  checkSchedule(body.schedule, body.timezone);
  const channels = body.channels.map((c, i) => storeChannel(rt.app, c, i));
  const created = await rt.models.Report.create({
    name: body.name, dashboardId: String(dashboard._id), tabId: body.tabId, schedule: body.schedule, formats: body.formats, width: body.width,
    theme: body.theme, paper: body.paper, timezone: body.timezone, filters: body.filters, channels, paused: body.paused, nextRunAt: nextRun(body), createdBy,
  });
  const [dto] = await present(rt, [created.toObject() as ReportDoc]);
  return { ...dto, secrets: channels.filter((c) => c.secret).map((c) => ({ channelId: c.id, secret: c.secret! })) };
}

/** GET /api/admin/reports: the reports of dashboards the asker may use. */
export async function listReports(rt: ReportsRuntime, who: Asker): Promise<ReportDto[]> {
  const filter = who.dashboardIds ? { dashboardId: { $in: who.dashboardIds } } : {};
  return present(rt, await rt.models.Report.find(filter).sort({ createdAt: 1 }).lean<ReportDoc[]>());
}

export const getReport = async (rt: ReportsRuntime, who: Asker, id: string): Promise<ReportDto> => (await present(rt, [await findReport(rt, who, id)]))[0];

/** PATCH /api/admin/reports/:id: any field; a changed schedule, time zone or pause counts its next run again. */
export async function updateReport(rt: ReportsRuntime, who: Asker, id: string, body: UpdateReport): Promise<ReportDto> {
  const doc = await findReport(rt, who, id);
  const set: Record<string, unknown> = {};
  for (const k of ['name', 'schedule', 'formats', 'filters', 'width', 'theme', 'paper', 'timezone', 'paused'] as const) if (body[k] !== undefined) set[k] = body[k];
  if (body.dashboardId !== undefined || body.tabId !== undefined) {
    const dashboard = await dashboardFor(rt, who, body.dashboardId ?? doc.dashboardId, body.tabId !== undefined ? body.tabId : doc.tabId);
    set.dashboardId = String(dashboard._id);
    if (body.tabId !== undefined) set.tabId = body.tabId;
  }
  const after = { ...doc, ...set } as ReportDoc;
  if (body.schedule !== undefined || body.timezone !== undefined) checkSchedule(after.schedule, after.timezone);
  if (body.channels) set.channels = storeChannels(rt.app, doc.channels, body.channels);
  if (body.schedule !== undefined || body.timezone !== undefined || body.paused !== undefined) set.nextRunAt = nextRun(after);
  const saved = await rt.models.Report.findOneAndUpdate({ _id: doc._id }, { $set: set }, { returnDocument: 'after' }).lean<ReportDoc>();
  if (!saved) throw NotFoundError(`Report ${id}`);
  return (await present(rt, [saved]))[0];
}

/** DELETE /api/admin/reports/:id: the report goes, with its unsent deliveries, runs and files. */
export async function deleteReport(rt: ReportsRuntime, who: Asker, id: string): Promise<void> {
  const doc = await findReport(rt, who, id);
  await removeReports(rt, [String(doc._id)]);
}

/** Removes reports with everything they left (a report deleted, its dashboard gone): their links answer 404 at once. */
export async function removeReports(rt: ReportsRuntime, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await rt.models.Report.deleteMany({ _id: { $in: ids } });
  await removeFiles(rt.models, { reportId: { $in: ids } });
  await rt.models.ReportDelivery.deleteMany({ reportId: { $in: ids } });
  await rt.models.ReportRun.deleteMany({ reportId: { $in: ids } });
}

/**
 * POST /api/admin/reports/:id/send: asks for a run now, outside the schedule, and answers at once.
 * The request is kept in the report (any process takes it, once) and this process looks for it now.
 */
export async function sendReportNow(rt: ReportsRuntime, who: Asker, id: string): Promise<{ id: string; requestedAt: string }> {
  const doc = await findReport(rt, who, id);
  const requestedAt = new Date();
  await rt.models.Report.updateOne({ _id: doc._id, sendRequestedAt: null }, { $set: { sendRequestedAt: requestedAt } });
  void rt.schedules?.requested.tick().catch((e: unknown) => rt.app.log.error('reports: could not take a "Send now"', e));
  return { id: String(doc._id), requestedAt: requestedAt.toISOString() };
}

/** GET /api/admin/reports/:id/deliveries: per run and channel, newest first, the last 100. */
export async function reportDeliveries(rt: ReportsRuntime, who: Asker, id: string): Promise<ReportDeliveryDto[]> {
  const doc = await findReport(rt, who, id);
  const deliveries = await rt.models.ReportDelivery.find({ reportId: String(doc._id) }).sort({ createdAt: -1 }).limit(REPORT_DELIVERIES_SHOWN).lean<ReportDeliveryDoc[]>();
  const runs = await rt.models.ReportRun.find({ _id: { $in: [...new Set(deliveries.map((d) => d.runId))] } }).lean<ReportRunDoc[]>();
  const byId = new Map(runs.map((r) => [String(r._id), r]));
  const channels = new Map(doc.channels.map((c) => [c.id, presentChannel(c)]));
  return deliveries.map((d) => presentDelivery(d, byId.get(d.runId), channels.get(d.channelId)));
}

/** POST /api/admin/reports/preview: the picture a report of these settings would carry now (nothing kept, nothing sent). */
export async function previewReport(rt: ReportsRuntime, who: Asker, body: PreviewReport): Promise<Buffer> {
  const dashboard = await dashboardFor(rt, who, body.dashboardId, body.tabId);
  const drawn = await drawReport(rt.app, { ...body, dashboardId: String(dashboard._id), formats: ['png'] });
  const png = drawn.files.find((f) => f.format === 'png');
  if (!png) throw new Error('the renderer drew no picture');
  return png.bytes;
}
