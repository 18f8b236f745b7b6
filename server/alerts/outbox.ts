import { type AppContext, type Attempted, goneResult, Outbox, type OutboxStatus, sendToChannel, settledReason, settledVerb } from '../core';
import { alertMessage } from './channels';
import type { AlertDeliveryDoc, AlertDoc, AlertModels } from './models';

export type AlertOutbox = Outbox<AlertDeliveryDoc>;

/**
 * The alerts' outbox: the core outbox (server/core/messaging/outbox.ts) over `AlertDelivery`. Per rule and
 * channel only the earliest pending change goes, so "resolved" never overtakes "firing" (test
 * messages go at once). Every outcome is an activity entry.
 */
export function alertOutbox(app: AppContext, models: AlertModels, owner: string): AlertOutbox {
  const { Alert, AlertDelivery } = models;
  return new Outbox<AlertDeliveryDoc>(app.log, {
    name: 'alerts',
    model: AlertDelivery,
    owner,
    sort: { seq: 1, createdAt: 1 },
    async ready(due) {
      const alertIds = [...new Set(due.map((d) => d.alertId))];
      const pending = await AlertDelivery.find({ alertId: { $in: alertIds }, status: 'pending' }).lean<AlertDeliveryDoc[]>();
      const first = new Map<string, number>();
      for (const d of pending) {
        if (d.kind === 'test') continue;
        const key = `${d.alertId}/${d.channelId}`;
        first.set(key, Math.min(first.get(key) ?? Infinity, d.seq));
      }
      return due.filter((d) => d.kind === 'test' || first.get(`${d.alertId}/${d.channelId}`) === d.seq);
    },
    async send(d) {
      const alert = await Alert.findById(d.alertId).lean<AlertDoc>();
      const channel = alert?.channels.find((c) => c.id === d.channelId);
      if (!alert || !channel) return goneResult('the rule or its channel was removed');
      return sendToChannel(app, channel, String(d._id), alertMessage(d.body));
    },
    settled: (d, status, result) => logOutcome(app, d, status, result),
  });
}

/** Every delivery's outcome goes to the activity log (never the channel's address). */
function logOutcome(app: AppContext, d: AlertDeliveryDoc, status: OutboxStatus, result: Attempted): void {
  const name = (JSON.parse(d.body) as { alert?: { name?: string } }).alert?.name ?? d.alertId;
  const what = d.kind === 'test' ? 'test message' : `"${d.kind}" message`;
  app.events.emit('activity.happened', {
    kind: status === 'delivered' ? 'alert.delivered' : 'alert.deliveryFailed',
    category: 'alert',
    objectType: 'alert',
    objectId: d.alertId,
    objectName: name,
    actor: 'alerts',
    summary: `Alert "${name}": ${settledVerb(status)} the ${what} to its ${d.channelType} channel${settledReason(status, result)}`,
    details: { deliveryId: String(d._id), channelType: d.channelType, attempts: d.attempts.length, status: result.status },
  });
}
