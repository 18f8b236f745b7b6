import mongoose, { Schema, type Connection, type Model } from 'mongoose';
import type { AlertRuleFields, AlertState, ChannelType, DeliveryStatus } from '@common/schemas/alert';
import { markLiveness, type DeliveryAttempt, type StoredChannel } from '../core';

/** A channel as stored (the core channels'): its URL or addresses and (webhooks) its signing secret — secrets, never answered. */
export type { StoredChannel } from '../core';

/** An alert rule, its state, and which process evaluates it (the lease). */
export interface AlertDoc extends AlertRuleFields {
  _id: mongoose.Types.ObjectId;
  mutedUntil: Date | null;
  channels: StoredChannel[];
  state: AlertState;
  stateSince: Date;
  lastValue: number | null;
  lastEvaluatedAt: Date | null;
  /** When the last "firing" message went out (for repeats). */
  lastNotifiedAt: Date | null;
  /** Why the rule is not evaluated now (too many records to evaluate live), or null. */
  problem: string | null;
  /** State changes so far: a delivery carries the one it announces, so they go out in order. */
  seq: number;
  /** Bumped by every change of the rule: the evaluating process reloads it. */
  configVersion: number;
  lease: { owner: string | null; until: Date | null };
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const alertSchema = new Schema(
  {
    name: { type: String, required: true },
    dataSourceId: { type: String, required: true },
    metric: { type: String, required: true },
    valueField: { type: String, default: null },
    dateField: { type: String, default: null },
    filters: { type: [Schema.Types.Mixed], default: [] },
    range: { type: Schema.Types.Mixed, default: { kind: 'all' } },
    condition: { type: Schema.Types.Mixed, default: null },
    noDataSeconds: { type: Number, default: null },
    forSeconds: { type: Number, default: 0 },
    resolveAt: { type: Number, default: null },
    repeatMinutes: { type: Number, default: null },
    mutedUntil: { type: Date, default: null },
    widget: { type: Schema.Types.Mixed, default: null },
    channels: { type: [Schema.Types.Mixed], default: [] },
    state: { type: String, default: 'ok' },
    stateSince: { type: Date, default: () => new Date() },
    lastValue: { type: Number, default: null },
    lastEvaluatedAt: { type: Date, default: null },
    lastNotifiedAt: { type: Date, default: null },
    problem: { type: String, default: null },
    seq: { type: Number, default: 0 },
    configVersion: { type: Number, default: 0 },
    lease: { owner: { type: String, default: null }, until: { type: Date, default: null } },
    createdBy: { type: String, default: null },
  },
  { minimize: false, versionKey: false, timestamps: true },
);
alertSchema.index({ dataSourceId: 1 });
alertSchema.index({ 'lease.until': 1 });

/** A state change of a rule (its history). */
export interface AlertChangeDoc {
  _id: mongoose.Types.ObjectId;
  alertId: string;
  at: Date;
  from: AlertState;
  to: AlertState;
  value: number | null;
}

const changeSchema = new Schema(
  {
    alertId: { type: String, required: true },
    at: { type: Date, required: true },
    from: { type: String, required: true },
    to: { type: String, required: true },
    value: { type: Number, default: null },
  },
  { versionKey: false },
);
changeSchema.index({ alertId: 1, at: -1 });

export type { DeliveryAttempt } from '../core';

/** One message of the outbox: written with the state change it announces, then sent (and retried) until answered. */
export interface AlertDeliveryDoc {
  _id: mongoose.Types.ObjectId;
  alertId: string;
  seq: number;
  channelId: string;
  channelType: ChannelType;
  kind: 'firing' | 'resolved' | 'test';
  value: number | null;
  /** The message as decided when the change happened (the webhook body; other channels are rendered from it). */
  body: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: Date | null;
  /** The process sending it now, until when. */
  claim: { owner: string | null; until: Date | null };
  createdAt: Date;
}

const deliverySchema = new Schema(
  {
    alertId: { type: String, required: true },
    seq: { type: Number, required: true },
    channelId: { type: String, required: true },
    channelType: { type: String, required: true },
    kind: { type: String, required: true },
    value: { type: Number, default: null },
    body: { type: String, required: true },
    status: { type: String, default: 'pending' },
    attempts: { type: [Schema.Types.Mixed], default: [] },
    nextAttemptAt: { type: Date, default: null },
    claim: { owner: { type: String, default: null }, until: { type: Date, default: null } },
    createdAt: { type: Date, default: () => new Date() },
  },
  { minimize: false, versionKey: false },
);
deliverySchema.index({ status: 1, nextAttemptAt: 1 });
deliverySchema.index({ alertId: 1, createdAt: -1 });

/** A process evaluating alerts, while it lives (its lease on being counted): rules are shared out among them. */
export interface AlertWorkerDoc {
  _id: string;
  until: Date;
}

const workerSchema = new Schema({ _id: { type: String, required: true }, until: { type: Date, required: true } }, { versionKey: false });
// Worker beats and lease renewals say only who is alive: no reason on their own for a snapshot of the offline engine's data.
markLiveness(workerSchema);
markLiveness(alertSchema, ['lease.until']);

export interface AlertModels {
  Alert: Model<AlertDoc>;
  AlertWorker: Model<AlertWorkerDoc>;
  AlertChange: Model<AlertChangeDoc>;
  AlertDelivery: Model<AlertDeliveryDoc>;
}

/** The alerts' collections (indexes made here: the offline engine has no `create`). */
export async function createAlertModels(conn: Connection): Promise<AlertModels> {
  const models: AlertModels = {
    Alert: conn.model<AlertDoc>('Alert', alertSchema as unknown as Schema<AlertDoc>),
    AlertChange: conn.model<AlertChangeDoc>('AlertChange', changeSchema as unknown as Schema<AlertChangeDoc>),
    AlertDelivery: conn.model<AlertDeliveryDoc>('AlertDelivery', deliverySchema as unknown as Schema<AlertDeliveryDoc>),
    AlertWorker: conn.model<AlertWorkerDoc>('AlertWorker', workerSchema as unknown as Schema<AlertWorkerDoc>),
  };
  await Promise.all(Object.values(models).map((m: Model<unknown>) => m.createIndexes()));
  return models;
}
