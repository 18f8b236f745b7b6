import crypto from 'node:crypto';
import type { ChannelDto, ChannelInput, ChannelType, KeptChannel } from '@common/schemas/messaging/channel';
import type { AppContext } from '../context';
import { ValidationError } from '../errors';
import { sendMail, type MailFile } from './mail';
import { checkOutboundUrl, OutboundRefused, postOutbound } from '../outbound/outbound';
import { outboundAllowedHosts } from '../outbound/outboundHosts';

/**
 * The channels alerts and reports send to — a webhook (signed), Slack, Microsoft Teams, email — as
 * one mechanism: a channel checked and stored when saved, answered masked, and one attempt at
 * sending a message to it through the one way out (core/outbound.ts) or SMTP. Each room words its
 * own message for each channel type; how a message is sent, signed and judged is decided here.
 */

/** A channel as stored: its URL or addresses and (webhooks) its signing secret — secrets, never answered. */
export interface StoredChannel {
  id: string;
  type: ChannelType;
  url?: string;
  to?: string[];
  secret?: string;
}

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

/** A webhook channel's signing secret: shown once, when its owner is made. */
export const newChannelSecret = () => `whsec_${crypto.randomBytes(24).toString('base64url')}`;

const newChannelId = () => crypto.randomBytes(6).toString('hex');

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, so receivers can reject replays. */
export function signature(secret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return `t=${at},v1=${v1}`;
}

/** A new channel checked (400 naming `channels.<index>.url`) and stored, with a signing secret for a webhook. */
export function storeChannel(app: AppContext, c: ChannelInput, index: number): StoredChannel {
  if (c.type === 'email') return { id: newChannelId(), type: 'email', to: c.to };
  try {
    checkOutboundUrl(c.url, outboundAllowedHosts(app));
  } catch (e) {
    if (!(e instanceof OutboundRefused)) throw e;
    const path = `channels.${index}.url`;
    throw ValidationError(`${path}: the ${c.type} channel's URL ${e.message}`, [{ path, message: `The URL ${e.message}` }]);
  }
  return { id: newChannelId(), type: c.type, url: c.url, ...(c.type === 'webhook' ? { secret: newChannelSecret() } : {}) };
}

/** A changed list of channels: saved ones kept by id (400 naming an unknown one), new ones checked and stored. */
export function storeChannels(app: AppContext, saved: StoredChannel[], list: (ChannelInput | KeptChannel)[]): StoredChannel[] {
  return list.map((c, i) => {
    if ('keep' in c) {
      const held = saved.find((h) => h.id === c.id);
      if (!held) throw ValidationError(`channels.${i}.id: no saved channel ${c.id}`, [{ path: `channels.${i}.id`, message: 'No saved channel with this id' }]);
      return held;
    }
    return storeChannel(app, c, i);
  });
}

/** A channel's address as the console shows it once saved: enough to tell channels apart, never enough to use. */
export function maskChannel(c: StoredChannel): string {
  if (c.type === 'email') {
    return (c.to ?? []).map((a) => {
      const [user, domain] = a.split('@');
      return `${user.slice(0, 1)}…@${domain ?? ''}`;
    }).join(', ');
  }
  try {
    const u = new URL(c.url ?? '');
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return '…';
  }
}

export const presentChannel = (c: StoredChannel): ChannelDto => ({ id: c.id, type: c.type, target: maskChannel(c) });

/** An email as a room words it (the recipients are the channel's). */
export interface ChannelMail {
  subject: string;
  text: string;
  html?: string;
  files?: MailFile[];
}

/** One message in the shape of each channel type, made only for the type it is sent to. */
export interface ChannelMessage {
  /** A test message (an alert's "Send test"): says so in an `X-LiveDash-Test` header too, for receivers that route on headers. */
  test?: boolean;
  /** The JSON body posted to a webhook (signed), Slack (Block Kit) or Teams (an Adaptive Card). */
  post(type: Exclude<ChannelType, 'email'>): string | Promise<string>;
  email(): ChannelMail | Promise<ChannelMail>;
}

const describeError = (e: unknown) => {
  const code = (e as { code?: string }).code;
  return code ? `${code}${e instanceof Error && e.message && !e.message.includes(code) ? `: ${e.message}` : ''}` : e instanceof Error ? e.message : String(e);
};

/**
 * Sends one message to one channel, once: `X-LiveDash-Delivery` carries the delivery's id (the
 * same on every retry) and a webhook's body is signed. A 2xx is delivered; a 5xx, 408, 429, a
 * timeout or a refused connection is worth retrying; a redirect (never followed), another 4xx or a
 * refused address is not. Never throws; never logs the channel's address.
 */
export async function sendToChannel(app: AppContext, channel: StoredChannel, deliveryId: string, message: ChannelMessage, userAgent = 'LiveDash-Alerts/1'): Promise<SendResult> {
  if (channel.type === 'email') {
    if (!app.config.SMTP_URL) return { ok: false, retry: false, status: null, message: 'SMTP_URL is not set on the server: email cannot be sent', answer: null };
    const sent = await sendMail(app, { to: (channel.to ?? []).join(', '), ...(await message.email()) });
    return sent.ok ? { ok: true, retry: false, status: null, message: 'sent', answer: null } : { ok: false, retry: true, status: null, message: `the SMTP server did not accept the message (${sent.code})`, answer: null };
  }
  const payload = await message.post(channel.type);
  const headers: Record<string, string> = { 'x-livedash-delivery': deliveryId, 'user-agent': userAgent };
  if (message.test) headers['x-livedash-test'] = 'true';
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
