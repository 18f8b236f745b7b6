import { z } from 'zod';
import { ALL_TIME, TimeRange } from '../time/timeRanges';
import { Metric, WidgetFilter, MAX_WIDGET_FILTERS } from './widgets/widget';
import { ChannelInput, KeptChannel, MAX_CHANNELS, type ChannelDto, type ChannelType } from './messaging/channel';

// The channels are shared with reports (./messaging/channel.ts); their alert names stay.
export { CHANNEL_TYPES, MAX_CHANNELS, MAX_EMAIL_RECIPIENTS, type ChannelType } from './messaging/channel';
export const AlertChannelInput = ChannelInput;
export type AlertChannelInput = ChannelInput;
export type AlertChannelDto = ChannelDto;

/** The comparisons a rule makes against its value: above, at least, below, at most. */
export const ALERT_OPERATORS = ['gt', 'gte', 'lt', 'lte'] as const;
export type AlertOperator = (typeof ALERT_OPERATORS)[number];
export const ALERT_OPERATOR_WORDS: Record<AlertOperator, string> = { gt: 'above', gte: 'at least', lt: 'below', lte: 'at most' };

/** A rule's state as viewers and the console see it. */
export type AlertState = 'ok' | 'firing';

export const AlertCondition = z
  .object({
    operator: z.enum(ALERT_OPERATORS, { error: `condition.operator must be one of ${ALERT_OPERATORS.join(', ')}` }),
    value: z.number({ error: 'condition.value must be a number' }).finite(),
  })
  .strict();
export type AlertCondition = z.infer<typeof AlertCondition>;

const seconds = (max: number, what: string) =>
  z.number({ error: `${what} must be a number of seconds` }).int(`${what} must be a whole number of seconds`).min(1, `${what} must be at least 1`).max(max, `${what} must be at most ${max}`);

/** The fields a rule is made of; creation requires some, a change may give any. */
const ruleShape = {
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
  dataSourceId: z.string({ error: 'dataSourceId is required' }).trim().min(1, 'dataSourceId is required').max(100),
  metric: Metric,
  valueField: z.string().trim().max(200).optional(),
  dateField: z.string().trim().max(200).optional(),
  filters: z.array(WidgetFilter).max(MAX_WIDGET_FILTERS, `At most ${MAX_WIDGET_FILTERS} filters`),
  range: TimeRange,
  condition: AlertCondition.nullable(),
  noDataSeconds: seconds(7 * 86_400, 'noDataSeconds').nullable(),
  forSeconds: z.number({ error: 'forSeconds must be a number of seconds' }).int().min(0, 'forSeconds must be 0 or more').max(86_400, 'forSeconds must be at most 86400'),
  resolveAt: z.number({ error: 'resolveAt must be a number' }).finite().nullable(),
  repeatMinutes: z.number({ error: 'repeatMinutes must be a number of minutes' }).int().min(1, 'repeatMinutes must be at least 1').max(10_080, 'repeatMinutes must be at most 10080').nullable(),
  mutedUntil: z.iso.datetime({ offset: true, message: 'mutedUntil must be an ISO date-time' }).nullable(),
  widget: z.object({ dashboardId: z.string().trim().min(1).max(100), widgetId: z.string().trim().min(1).max(100) }).strict().nullable(),
};

type RuleFields = { metric?: string; valueField?: string | null; condition?: AlertCondition | null; noDataSeconds?: number | null; resolveAt?: number | null };

/**
 * What makes a whole rule (a new one, or a saved one with a change applied): either a condition on
 * the value or "no data for N seconds", a field for metrics other than count, and a resolve value
 * on the resolved side. Each problem with the field it is about.
 */
export function ruleProblems(r: RuleFields): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  const hasCondition = r.condition != null;
  const hasNoData = r.noDataSeconds != null;
  if (!hasCondition && !hasNoData) out.push({ path: 'condition', message: 'Give either condition {operator, value} or noDataSeconds' });
  if (hasCondition && hasNoData) out.push({ path: 'noDataSeconds', message: 'Give either condition or noDataSeconds, not both' });
  if (r.metric && r.metric !== 'count' && !r.valueField) out.push({ path: 'valueField', message: `The ${r.metric} metric needs valueField: the field it reads` });
  if (r.resolveAt != null && r.condition) {
    const above = r.condition.operator === 'gt' || r.condition.operator === 'gte';
    if (above ? r.resolveAt > r.condition.value : r.resolveAt < r.condition.value) {
      out.push({ path: 'resolveAt', message: `resolveAt must lie on the resolved side of the condition's value (${above ? 'at most' : 'at least'} ${r.condition.value})` });
    }
  }
  return out;
}

/** POST /api/admin/alerts */
export const CreateAlert = z
  .object({
    ...ruleShape,
    metric: Metric.default('count'),
    filters: ruleShape.filters.default([]),
    range: TimeRange.default(ALL_TIME),
    condition: ruleShape.condition.default(null),
    noDataSeconds: ruleShape.noDataSeconds.default(null),
    forSeconds: ruleShape.forSeconds.default(0),
    resolveAt: ruleShape.resolveAt.default(null),
    repeatMinutes: ruleShape.repeatMinutes.default(null),
    mutedUntil: ruleShape.mutedUntil.default(null),
    widget: ruleShape.widget.default(null),
    channels: z.array(AlertChannelInput).max(MAX_CHANNELS, `At most ${MAX_CHANNELS} channels`).default([]),
  })
  .strict()
  .superRefine((r, ctx) => {
    for (const p of ruleProblems(r)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
  });
export type CreateAlert = z.infer<typeof CreateAlert>;

/** PATCH /api/admin/alerts/:id: any field; `channels` replaces the list (a saved one kept as {id, keep: true}). */
export const UpdateAlert = z
  .object({
    ...Object.fromEntries(Object.entries(ruleShape).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof ruleShape]: z.ZodOptional<(typeof ruleShape)[K]> },
    channels: z.array(z.union([KeptChannel, AlertChannelInput], { error: 'A channel is a new one {type, url | to} or a saved one {id, keep: true}' })).max(MAX_CHANNELS, `At most ${MAX_CHANNELS} channels`).optional(),
  })
  .strict();
export type UpdateAlert = z.infer<typeof UpdateAlert>;

/** What a rule watches and when it fires: the same in the database and in the answers. */
export interface AlertRuleFields {
  name: string;
  dataSourceId: string;
  metric: Metric;
  valueField: string | null;
  dateField: string | null;
  filters: WidgetFilter[];
  range: TimeRange;
  condition: AlertCondition | null;
  noDataSeconds: number | null;
  forSeconds: number;
  resolveAt: number | null;
  repeatMinutes: number | null;
  widget: { dashboardId: string; widgetId: string } | null;
}

/** A rule as editors and admins see it (never a channel's URL, address or secret). */
export interface AlertDto extends AlertRuleFields {
  id: string;
  mutedUntil: string | null;
  channels: AlertChannelDto[];
  state: AlertState;
  /** When the state last changed. */
  stateSince: string;
  lastValue: number | null;
  lastEvaluatedAt: string | null;
  /** Why the rule is not evaluated now (its source holds too many records to evaluate live), or null. */
  problem: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The answer of a creation: each webhook channel's signing secret, this once. */
export interface CreatedAlertDto extends AlertDto {
  secrets: { channelId: string; secret: string }[];
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One attempt of a delivery: the receiver's status code, what happened in our words, how long it took. */
export interface AlertDeliveryAttemptDto {
  at: string;
  status: number | null;
  message: string;
  /** Milliseconds the attempt took (null for attempts made before it was kept). */
  durationMs: number | null;
  /** Admins only: the first 200 characters the receiver answered (null: none). */
  answer?: string | null;
}

/** One message of a rule to one channel, with each attempt. */
export interface AlertDeliveryDto {
  id: string;
  channelId: string;
  channelType: ChannelType;
  kind: 'firing' | 'resolved' | 'test';
  value: number | null;
  status: DeliveryStatus;
  attempts: AlertDeliveryAttemptDto[];
  nextAttemptAt: string | null;
  createdAt: string;
}

/** A state change of a rule. */
export interface AlertChangeDto {
  at: string;
  from: AlertState;
  to: AlertState;
  value: number | null;
}

/** GET /api/admin/alerts/:id/history */
export interface AlertHistoryDto {
  changes: AlertChangeDto[];
  deliveries: AlertDeliveryDto[];
}

/** A tile's alert state as every viewer of its dashboard gets it: no recipient, no rule detail. */
export interface TileAlertState {
  dashboardId: string;
  widgetId: string;
  state: AlertState;
  /** When it began firing (null when ok). */
  since: string | null;
}

/** The webhook body of a state change (also what a test message carries, with state "firing" and `test: true`). */
export interface AlertWebhookBody {
  alert: { id: string; name: string };
  state: 'firing' | 'resolved';
  value: number | null;
  condition: string;
  at: string;
  source: { id: string; name: string };
  dashboard?: { id: string; name: string; url: string };
  test?: true;
}
