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
  /** Our words: what happened (the status, the refusal, the network error) — never the receiver's. */
  message: string;
  /** The first characters of what the receiver answered (its words: shown to admins only), or null. */
  answer: string | null;
}

/** How much of a receiver's answer is kept with an attempt. */
export const ANSWER_KEPT_CHARS = 200;

/** An HTTP answer's status in our words (what editors see of an attempt). */
export function statusWords(status: number): string {
  if (status >= 200 && status < 300) return `delivered (${status})`;
  if (status >= 300 && status < 400) return `the receiver answered with a redirect (${status}), which is not followed: give the final URL`;
  return `the receiver answered ${status}`;
}

/** A webhook channel's signing secret: shown once, when the rule is made. */
export const newChannelSecret = () => `whsec_${crypto.randomBytes(24).toString('base64url')}`;

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, so receivers can reject replays. */
export function signature(secret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return `t=${at},v1=${v1}`;
}

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

const describeError = (e: unknown) => {
  const code = (e as { code?: string }).code;
  return code ? `${code}${e instanceof Error && e.message && !e.message.includes(code) ? `: ${e.message}` : ''}` : e instanceof Error ? e.message : String(e);
};

/** Sends one delivery to its channel. Never throws; never logs the channel's address. */
export async function sendToChannel(app: AppContext, channel: StoredChannel, deliveryId: string, body: string): Promise<SendResult> {
  const parsed = JSON.parse(body) as AlertWebhookBody;
  if (channel.type === 'email') {
    if (!app.config.SMTP_URL) return { ok: false, retry: false, status: null, message: 'SMTP_URL is not set on the server: email cannot be sent', answer: null };
    const text = `${headline(parsed)}\n\n${detail(parsed)}\nAt: ${parsed.at}\n${parsed.dashboard ? `Dashboard: ${parsed.dashboard.url}\n` : ''}`;
    const sent = await sendMail(app, { to: (channel.to ?? []).join(', '), subject: emailSubject(parsed), text });
    return sent ? { ok: true, retry: false, status: null, message: 'sent', answer: null } : { ok: false, retry: true, status: null, message: 'the SMTP server did not accept the message', answer: null };
  }
  const payload = channel.type === 'slack' ? slackBody(parsed) : channel.type === 'teams' ? teamsBody(parsed) : body;
  const headers: Record<string, string> = { 'x-livedash-delivery': deliveryId };
  // A test says so in its header as well as in its body (`test: true`), for receivers that route on headers.
  if (parsed.test) headers['x-livedash-test'] = 'true';
  if (channel.type === 'webhook' && channel.secret) headers['x-livedash-signature'] = signature(channel.secret, payload);
  try {
    const got = await postOutbound(channel.url ?? '', payload, headers, outboundAllowedHosts(app));
    const answer = got.body.slice(0, ANSWER_KEPT_CHARS) || null;
    const { status } = got;
    const ok = status >= 200 && status < 300;
    const retry = status >= 500 || status === 408 || status === 429;
    return { ok, retry, status, message: statusWords(status), answer };
  } catch (e) {
    if (e instanceof OutboundRefused) return { ok: false, retry: false, status: null, message: `refused: the channel URL ${e.message}`, answer: null };
    return { ok: false, retry: true, status: null, message: describeError(e), answer: null };
  }
}
