import crypto from 'node:crypto';
import type { AlertWebhookBody } from '@common/schemas/alert';
import { type AppContext, OutboundRefused, outboundAllowedHosts, postOutbound } from '../core';
import { sendMail } from '../access';
import type { StoredChannel } from './models';

/** What one attempt came to: delivered, or failed and worth trying again (or not). */
export interface SendResult {
  ok: boolean;
  retry: boolean;
  status: number | null;
  message: string;
}

/** A webhook channel's signing secret: shown once, when the rule is made. */
export const newChannelSecret = () => `whsec_${crypto.randomBytes(24).toString('base64url')}`;

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, so receivers can reject replays. */
export function signature(secret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return `t=${at},v1=${v1}`;
}

const headline = (b: AlertWebhookBody) => `${b.test ? '[Test] ' : ''}${b.state === 'firing' ? '🔔 Firing' : '✅ Resolved'}: ${b.alert.name}`;
const valueText = (v: number | null) => (v === null ? 'no value' : String(Math.round(v * 1e6) / 1e6));
const detail = (b: AlertWebhookBody) =>
  `${b.source.name}: ${valueText(b.value)} (${b.condition})${b.dashboard ? ` — ${b.dashboard.name}` : ''}`;

/** Slack incoming webhook: `text` for notifications, Block Kit blocks for the message. */
export function slackBody(b: AlertWebhookBody): string {
  const link = b.dashboard ? ` <${b.dashboard.url}|${b.dashboard.name}>` : '';
  return JSON.stringify({
    text: `${headline(b)} — ${detail(b)}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: headline(b).slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: `*${b.source.name}*: ${valueText(b.value)}\n${b.condition}${link}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `LiveDash · ${b.at}` }] },
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
            { type: 'TextBlock', size: 'Medium', weight: 'Bolder', text: headline(b), color: b.state === 'firing' ? 'Attention' : 'Good', wrap: true },
            { type: 'FactSet', facts },
          ],
          ...(b.dashboard ? { actions: [{ type: 'Action.OpenUrl', title: `Open ${b.dashboard.name}`, url: b.dashboard.url }] } : {}),
        },
      },
    ],
  });
}

const describeError = (e: unknown) => {
  const code = (e as { code?: string }).code;
  return code ? `${code}${e instanceof Error && e.message && !e.message.includes(code) ? `: ${e.message}` : ''}` : e instanceof Error ? e.message : String(e);
};

/** Sends one delivery to its channel. Never throws; never logs the channel's address. */
export async function sendToChannel(app: AppContext, channel: StoredChannel, deliveryId: string, body: string): Promise<SendResult> {
  const parsed = JSON.parse(body) as AlertWebhookBody;
  if (channel.type === 'email') {
    if (!app.config.SMTP_URL) return { ok: false, retry: false, status: null, message: 'SMTP_URL is not set on the server: email cannot be sent' };
    const text = `${headline(parsed)}\n\n${detail(parsed)}\nAt: ${parsed.at}\n${parsed.dashboard ? `Dashboard: ${parsed.dashboard.url}\n` : ''}`;
    const subject = `[LiveDash] ${parsed.alert.name} is ${parsed.state}${parsed.test ? ' (test)' : ''}`;
    const sent = await sendMail(app, { to: (channel.to ?? []).join(', '), subject, text });
    return sent ? { ok: true, retry: false, status: null, message: 'sent' } : { ok: false, retry: true, status: null, message: 'the SMTP server did not accept the message' };
  }
  const payload = channel.type === 'slack' ? slackBody(parsed) : channel.type === 'teams' ? teamsBody(parsed) : body;
  const headers: Record<string, string> = { 'x-livedash-delivery': deliveryId };
  if (channel.type === 'webhook' && channel.secret) headers['x-livedash-signature'] = signature(channel.secret, payload);
  try {
    const answer = await postOutbound(channel.url ?? '', payload, headers, outboundAllowedHosts(app));
    const snippet = answer.body.slice(0, 200);
    if (answer.status >= 200 && answer.status < 300) return { ok: true, retry: false, status: answer.status, message: snippet || 'ok' };
    if (answer.status >= 300 && answer.status < 400) return { ok: false, retry: false, status: answer.status, message: 'the receiver answered with a redirect, which is not followed: give the final URL' };
    const retry = answer.status >= 500 || answer.status === 408 || answer.status === 429;
    return { ok: false, retry, status: answer.status, message: snippet || `status ${answer.status}` };
  } catch (e) {
    if (e instanceof OutboundRefused) return { ok: false, retry: false, status: null, message: `refused: the channel URL ${e.message}` };
    return { ok: false, retry: true, status: null, message: describeError(e) };
  }
}
