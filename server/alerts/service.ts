import mongoose from 'mongoose';
import {
  ruleProblems, type AlertHistoryDto, type CreateAlert, type CreatedAlertDto, type AlertDto, type TileAlertState, type UpdateAlert,
} from '@common/schemas/alert';
import { canonicalObjectId } from '@common/ids';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { ApiError, type AppContext, type DashboardDoc, findDataSource, NotFoundError, presentDashboard, storeChannel, storeChannels, ValidationError } from '../core';
import { ErrorCode } from '@common/schemas/errors';
import { type Asker, checkSourceInBody, mayUseDashboard, rateLimitsHandle, readsReceiverAnswers, requireAlertUse, usableAlerts } from '../access';
import type { AlertEngine } from './engine';
import type { AlertLeases } from './lease';
import type { AlertDoc, AlertModels } from './models';
import { presentAlert, presentChange, presentDelivery, presentTileState, stateVisibleThrough } from './presenters';

/** What the alerts' services share: the app, the collections, this process's engine and leases. */
export interface AlertsRuntime {
  app: AppContext;
  models: AlertModels;
  engine: AlertEngine;
  leases: AlertLeases;
}

/** The data source of a rule, as the policy allows it to the asker (a limited editor: only its dashboards' sources). */
async function sourceFor(rt: AlertsRuntime, who: Asker, ref: string): Promise<string> {
  await checkSourceInBody(rt.app, who, ref);
  const ds = await findDataSource(rt.app, ref);
  if (!ds) throw NotFoundError(`Data source ${ref}`);
  return String(ds._id);
}

/** The tile a rule is tied to: a KPI widget of a dashboard on the rule's source that the asker may use. */
async function checkTile(rt: AlertsRuntime, who: Asker, widget: { dashboardId: string; widgetId: string }, dataSourceId: string): Promise<{ dashboardId: string; widgetId: string }> {
  const id = canonicalObjectId(widget.dashboardId);
  if (!id || !mayUseDashboard(who, id)) throw NotFoundError(`Dashboard ${widget.dashboardId}`);
  const doc = await rt.app.models.Dashboard.findById(id).lean<DashboardDoc>();
  if (!doc) throw NotFoundError(`Dashboard ${widget.dashboardId}`);
  const tabs = presentDashboard(doc, null).configuration.tabs ?? [];
  const w = tabs.flatMap((t) => t.widgets ?? []).find((x) => x.id === widget.widgetId);
  if (!w) throw NotFoundError(`Widget ${widget.widgetId} of dashboard ${id}`);
  if (w.type !== 'kpi') throw ValidationError(`widget: only a KPI widget can show an alert (widget ${widget.widgetId} is a ${w.type})`, [{ path: 'widget.widgetId', message: 'Pick a KPI widget' }]);
  if (doc.dataSourceId !== dataSourceId) {
    throw ValidationError('widget: the dashboard shows another data source than the alert watches', [{ path: 'widget.dashboardId', message: 'Pick a dashboard on the alert\'s data source' }]);
  }
  return { dashboardId: id, widgetId: widget.widgetId };
}

function checkWhole(rule: Parameters<typeof ruleProblems>[0]): void {
  const problems = ruleProblems(rule);
  if (problems.length) throw ValidationError(problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
}

/** A rule the asker may use (the access policy decides: its source, and its tile's dashboard); 404 alike for others and unknown ids. */
async function findRule(rt: AlertsRuntime, who: Asker, id: string): Promise<AlertDoc> {
  const doc = mongoose.isObjectIdOrHexString(id) ? await rt.models.Alert.findById(id).lean<AlertDoc>() : null;
  return requireAlertUse(rt.app, who, id, doc);
}

/**
 * Refuses a rule past the caps (ALERT_MAX_RULES_PER_SOURCE on its source, ALERT_MAX_RULES in all):
 * each rule on a source is counted again and kept current on every write to it. `movedFrom`: a
 * saved rule moving to this source (it does not count against the team twice).
 */
async function checkRoom(rt: AlertsRuntime, dataSourceId: string, movedFrom?: string): Promise<void> {
  const { ALERT_MAX_RULES_PER_SOURCE: perSource, ALERT_MAX_RULES: all } = rt.app.config;
  if ((await rt.models.Alert.countDocuments({ dataSourceId })) >= perSource) {
    throw new ApiError(409, ErrorCode.alertLimit, `This data source has ${perSource} alerts, the most one data source may have (ALERT_MAX_RULES_PER_SOURCE): delete or move one of its alerts first, or ask the operator to raise the limit.`);
  }
  if (!movedFrom && (await rt.models.Alert.countDocuments({})) >= all) {
    throw new ApiError(409, ErrorCode.alertLimit, `The team has ${all} alerts, the most it may have (ALERT_MAX_RULES): delete alerts that are no longer needed first, or ask the operator to raise the limit.`);
  }
}

/** POST /api/admin/alerts: the rule, held (evaluated) by this process from now on, with each webhook's secret this once. */
export async function createAlert(rt: AlertsRuntime, who: Asker, body: CreateAlert, createdBy: string | null): Promise<CreatedAlertDto> {
  const dataSourceId = await sourceFor(rt, who, body.dataSourceId);
  await checkRoom(rt, dataSourceId);
  const widget = body.widget ? await checkTile(rt, who, body.widget, dataSourceId) : null;
  const channels = body.channels.map((c, i) => storeChannel(rt.app, c, i));
  const now = new Date();
  const created = await rt.models.Alert.create({
    name: body.name, dataSourceId, metric: body.metric, valueField: body.valueField || null, dateField: body.dateField || null, filters: body.filters, range: body.range,
    condition: body.condition, noDataSeconds: body.noDataSeconds, forSeconds: body.forSeconds, resolveAt: body.resolveAt, repeatMinutes: body.repeatMinutes,
    mutedUntil: body.mutedUntil ? new Date(body.mutedUntil) : null, widget, channels, state: 'ok', stateSince: now, lease: rt.leases.fresh(), createdBy,
  });
  const doc = created.toObject() as AlertDoc;
  await rt.engine.hold(doc);
  return { ...presentAlert(doc), secrets: channels.filter((c) => c.secret).map((c) => ({ channelId: c.id, secret: c.secret! })) };
}

/** GET /api/admin/alerts: the rules the asker may use (the access policy decides, as for one rule). */
export async function listAlerts(rt: AlertsRuntime, who: Asker): Promise<AlertDto[]> {
  const docs = await rt.models.Alert.find().sort({ createdAt: 1 }).lean<AlertDoc[]>();
  return (await usableAlerts(rt.app, who, docs)).map((d) => withLiveValue(rt, d));
}

/** A rule as saved, with the last value as this process knows it when it evaluates the rule (saved only every few seconds). */
function withLiveValue(rt: AlertsRuntime, doc: AlertDoc): AlertDto {
  const dto = presentAlert(doc);
  const run = rt.engine.rules.get(dto.id);
  if (run && run.lastEvalAt) Object.assign(dto, { lastValue: run.lastValue, lastEvaluatedAt: new Date(run.lastEvalAt).toISOString() });
  return dto;
}

export const getAlert = async (rt: AlertsRuntime, who: Asker, id: string): Promise<AlertDto> => withLiveValue(rt, await findRule(rt, who, id));

/** PATCH /api/admin/alerts/:id: any field; the holding process evaluates the rule as changed. */
export async function updateAlert(rt: AlertsRuntime, who: Asker, id: string, body: UpdateAlert): Promise<AlertDto> {
  const doc = await findRule(rt, who, id);
  const dataSourceId = body.dataSourceId !== undefined ? await sourceFor(rt, who, body.dataSourceId) : doc.dataSourceId;
  if (dataSourceId !== doc.dataSourceId) await checkRoom(rt, dataSourceId, doc.dataSourceId);
  const widgetInput = body.widget !== undefined ? body.widget : doc.widget;
  const widget = widgetInput ? await checkTile(rt, who, widgetInput, dataSourceId) : null;
  const set: Record<string, unknown> = {};
  for (const k of ['name', 'metric', 'filters', 'range', 'condition', 'noDataSeconds', 'forSeconds', 'resolveAt', 'repeatMinutes'] as const) if (body[k] !== undefined) set[k] = body[k];
  if (body.valueField !== undefined) set.valueField = body.valueField || null;
  if (body.dateField !== undefined) set.dateField = body.dateField || null;
  if (body.mutedUntil !== undefined) set.mutedUntil = body.mutedUntil ? new Date(body.mutedUntil) : null;
  checkWhole({ ...doc, ...set } as Parameters<typeof ruleProblems>[0]);
  if (body.channels) set.channels = storeChannels(rt.app, doc.channels, body.channels);
  set.dataSourceId = dataSourceId;
  set.widget = widget;
  const after = await rt.models.Alert.findOneAndUpdate({ _id: doc._id }, { $set: set, $inc: { configVersion: 1 } }, { returnDocument: 'after' }).lean<AlertDoc>();
  if (!after) throw NotFoundError(`Alert ${id}`);
  if (after.lease.owner === rt.leases.owner) await rt.engine.hold(after);
  return presentAlert(after);
}

/** DELETE /api/admin/alerts/:id: the rule goes, with the messages it had not sent yet. */
export async function deleteAlert(rt: AlertsRuntime, who: Asker, id: string): Promise<void> {
  const doc = await findRule(rt, who, id);
  await removeRules(rt, [String(doc._id)]);
}

/** Removes rules and their unsent messages (a rule deleted, its source or dashboard gone). */
export async function removeRules(rt: AlertsRuntime, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await rt.models.Alert.deleteMany({ _id: { $in: ids } });
  await rt.models.AlertDelivery.updateMany({ alertId: { $in: ids }, status: 'pending' }, { $set: { status: 'cancelled', nextAttemptAt: null } });
  for (const id of ids) rt.engine.drop(id);
}

/**
 * POST /api/admin/alerts/:id/test: a test message to every channel of the rule, through the outbox.
 * Each person (`tester`: a person's id, or the admin token) sends a few per window (RATE_LIMIT_ALERT_TESTS):
 * one test reaches up to 10 channels of 20 recipients, with words the person chose.
 */
export async function testAlert(rt: AlertsRuntime, who: Asker, id: string, tester: string): Promise<{ deliveries: string[] }> {
  const doc = await findRule(rt, who, id);
  if (!doc.channels.length) throw ValidationError('channels: this alert has no channel to send a test message to', [{ path: 'channels', message: 'Add a channel first' }]);
  await rateLimitsHandle.of(rt.app).alertTests.take(tester);
  const ids = await rt.engine.enqueue({ doc }, 'test', doc.lastValue ?? null, 0, Date.now());
  rt.engine.kickOutbox();
  return { deliveries: ids.map(String) };
}

/** GET /api/admin/alerts/:id/history: state changes and deliveries, newest first (receivers' answers for admins only). */
export async function alertHistory(rt: AlertsRuntime, who: Asker, id: string): Promise<AlertHistoryDto> {
  const doc = await findRule(rt, who, id);
  const alertId = String(doc._id);
  const [changes, deliveries] = await Promise.all([
    rt.models.AlertChange.find({ alertId }).sort({ at: -1 }).limit(200).lean(),
    rt.models.AlertDelivery.find({ alertId }).sort({ createdAt: -1 }).limit(200).lean(),
  ]);
  const audience = readsReceiverAnswers(who) ? 'admin' : 'editor';
  return { changes: changes.map(presentChange), deliveries: deliveries.map((d) => presentDelivery(d, audience)) };
}

/**
 * The states of a dashboard's tied tiles, for its viewers (no rule detail, no recipient). Through a
 * share link with locked filters: only the rules that apply those filters themselves.
 */
export async function tileStates(rt: AlertsRuntime, dashboardId: string, locked: WidgetFilter[] = []): Promise<TileAlertState[]> {
  const docs = await rt.models.Alert.find({ 'widget.dashboardId': dashboardId }).lean<AlertDoc[]>();
  return docs.filter((d) => d.widget && stateVisibleThrough(d.filters, locked)).map(presentTileState);
}
