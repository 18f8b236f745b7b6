import type { AlertChangeDto, AlertDeliveryAttemptDto, AlertDeliveryDto, AlertDto, TileAlertState } from '@common/schemas/alert';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { presentChannel, statusWords } from '../core';
import type { AlertChangeDoc, AlertDeliveryDoc, AlertDoc, DeliveryAttempt } from './models';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A rule for editors and admins: channel addresses masked, no secret, no lease. */
export function presentAlert(d: AlertDoc): AlertDto {
  return {
    id: String(d._id),
    name: d.name,
    dataSourceId: d.dataSourceId,
    metric: d.metric,
    valueField: d.valueField ?? null,
    dateField: d.dateField ?? null,
    filters: d.filters ?? [],
    range: d.range ?? { kind: 'all' },
    condition: d.condition ?? null,
    noDataSeconds: d.noDataSeconds ?? null,
    forSeconds: d.forSeconds ?? 0,
    resolveAt: d.resolveAt ?? null,
    repeatMinutes: d.repeatMinutes ?? null,
    mutedUntil: iso(d.mutedUntil),
    widget: d.widget ?? null,
    channels: (d.channels ?? []).map(presentChannel),
    state: d.state,
    stateSince: iso(d.stateSince)!,
    lastValue: d.lastValue ?? null,
    lastEvaluatedAt: iso(d.lastEvaluatedAt),
    problem: d.problem ?? null,
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
  };
}

export const presentChange = (c: AlertChangeDoc): AlertChangeDto => ({ at: iso(c.at)!, from: c.from, to: c.to, value: c.value ?? null });

/**
 * An attempt for editors: the status code, our words and the timing — never the receiver's answer
 * (a receiver on an allowed host could be any page there). An attempt stored before the answer was
 * kept apart has the receiver's words in its message when an HTTP status came: its status in words then.
 */
const presentAttemptToEditor = (a: DeliveryAttempt): AlertDeliveryAttemptDto => ({
  at: iso(a.at)!,
  status: a.status ?? null,
  message: a.answer === undefined && a.status != null ? statusWords(a.status) : a.message,
  durationMs: a.ms ?? null,
});

/** An attempt for admins: what editors see, and the first 200 characters the receiver answered. */
const presentAttemptToAdmin = (a: DeliveryAttempt): AlertDeliveryAttemptDto => ({ ...presentAttemptToEditor(a), message: a.message, answer: a.answer ?? null });

/** A delivery with its attempts, for editors or (with `answers`) for admins, who also see what receivers answered. */
export const presentDelivery = (d: AlertDeliveryDoc, audience: 'editor' | 'admin'): AlertDeliveryDto => ({
  id: String(d._id),
  channelId: d.channelId,
  channelType: d.channelType,
  kind: d.kind,
  value: d.value ?? null,
  status: d.status,
  attempts: (d.attempts ?? []).map(audience === 'admin' ? presentAttemptToAdmin : presentAttemptToEditor),
  nextAttemptAt: iso(d.nextAttemptAt),
  createdAt: iso(d.createdAt)!,
});

/** What every viewer of a dashboard learns of a rule tied to one of its tiles: its state, nothing else. */
export const presentTileState = (d: AlertDoc): TileAlertState => ({
  dashboardId: d.widget!.dashboardId,
  widgetId: d.widget!.widgetId,
  state: d.state,
  since: d.state === 'firing' ? iso(d.stateSince) : null,
});

/** A filter as a key: the same field, operator and value(s) give the same key. */
const filterKey = (f: WidgetFilter) => JSON.stringify([f.field, f.operator ?? 'eq', f.operator === 'in' ? [...(f.values ?? [])].sort() : (f.value ?? '')]);

/**
 * Whether a share link locked to `locked` may see the state of a rule with `ruleFilters`: only when
 * the rule itself applies every locked filter, so its number is counted over records the link may
 * see. Otherwise the state (computed over records the link may not see) is not shown to it at all.
 */
export function stateVisibleThrough(ruleFilters: readonly WidgetFilter[] | undefined, locked: readonly WidgetFilter[]): boolean {
  if (!locked.length) return true;
  const applied = new Set((ruleFilters ?? []).map(filterKey));
  return locked.every((f) => applied.has(filterKey(f)));
}
