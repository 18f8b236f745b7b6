import type { AlertWebhookBody } from '@common/schemas/alert';
import type { ChannelMessage } from '../core';

/*
 * How an alert's change reads on each channel type. Sending, signing, retrying and the outbound
 * rules are the core channels' (server/core/messaging/channels.ts), shared with reports.
 */

/** What a test message says on every channel, so no recipient takes it for a firing alert. */
export const TEST_NOTE = 'This is a test message, sent with "Send test" on the alert in LiveDash: the alert is not firing.';

const headline = (b: AlertWebhookBody) => (b.test ? `[Test] ${b.alert.name}: test message` : `${b.state === 'firing' ? '🔔 Firing' : '✅ Resolved'}: ${b.alert.name}`);
const valueText = (v: number | null) => (v === null ? 'no value' : String(Math.round(v * 1e6) / 1e6));
const detail = (b: AlertWebhookBody) =>
  `${b.test ? `${TEST_NOTE} ` : ''}${b.source.name}: ${valueText(b.value)} (${b.condition})${b.dashboard ? ` — ${b.dashboard.name}` : ''}`;

/** An email's subject: the rule's name and its state — or, for a test, that it is one. */
export const emailSubject = (b: AlertWebhookBody) => (b.test ? `[LiveDash] [Test] ${b.alert.name}: test message` : `[LiveDash] ${b.alert.name} is ${b.state}`);

/** Slack incoming webhook: `text` for notifications, Block Kit blocks for the message. */
export function slackBody(b: AlertWebhookBody): string {
  const link = b.dashboard ? ` <${b.dashboard.url}|${b.dashboard.name}>` : '';
  return JSON.stringify({
    text: `${headline(b)} — ${detail(b)}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: headline(b).slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: `*${b.source.name}*: ${valueText(b.value)}\n${b.condition}${link}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `${b.test ? `${TEST_NOTE} · ` : ''}LiveDash · ${b.at}` }] },
    ],
  });
}

/** Microsoft Teams incoming webhook (Workflows): a message carrying an Adaptive Card. */
export function teamsBody(b: AlertWebhookBody): string {
  const facts = [
    { title: 'Value', value: valueText(b.value) },
    { title: 'Condition', value: b.condition },
    { title: 'Data source', value: b.source.name },
    { title: 'At', value: b.at },
  ];
  return JSON.stringify({
    type: 'message',
    summary: headline(b),
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', size: 'Medium', weight: 'Bolder', text: headline(b), color: b.test ? 'Accent' : b.state === 'firing' ? 'Attention' : 'Good', wrap: true },
            ...(b.test ? [{ type: 'TextBlock', text: TEST_NOTE, wrap: true }] : []),
            { type: 'FactSet', facts },
          ],
          ...(b.dashboard ? { actions: [{ type: 'Action.OpenUrl', title: `Open ${b.dashboard.name}`, url: b.dashboard.url }] } : {}),
        },
      },
    ],
  });
}

/** An alert's message (the webhook body decided when the change happened) in the shape of each channel type. */
export function alertMessage(body: string): ChannelMessage {
  const parsed = JSON.parse(body) as AlertWebhookBody;
  return {
    test: Boolean(parsed.test),
    post: (type) => (type === 'slack' ? slackBody(parsed) : type === 'teams' ? teamsBody(parsed) : body),
    email: () => ({
      subject: emailSubject(parsed),
      text: `${headline(parsed)}\n\n${detail(parsed)}\nAt: ${parsed.at}\n${parsed.dashboard ? `Dashboard: ${parsed.dashboard.url}\n` : ''}`,
    }),
  };
}
