import { z } from 'zod';

/**
 * Where alerts and reports send their messages: a webhook (signed), Slack, Microsoft Teams or
 * email. A channel's URL or addresses are a secret once saved: answered masked.
 */
export const CHANNEL_TYPES = ['webhook', 'slack', 'teams', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const MAX_CHANNELS = 10;
export const MAX_EMAIL_RECIPIENTS = 20;

const url = z.string({ error: 'url must be text' }).trim().min(1, 'url is required').max(2000, 'url must be at most 2,000 characters');

/** A new channel: `{type: "webhook" | "slack" | "teams", url}` or `{type: "email", to: [...]}`. */
export const ChannelInput = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('webhook'), url }).strict(),
    z.object({ type: z.literal('slack'), url }).strict(),
    z.object({ type: z.literal('teams'), url }).strict(),
    z
      .object({
        type: z.literal('email'),
        to: z
          .array(z.email({ error: 'each recipient must be an email address' }).max(320))
          .min(1, 'Give at least one recipient')
          .max(MAX_EMAIL_RECIPIENTS, `At most ${MAX_EMAIL_RECIPIENTS} recipients`),
      })
      .strict(),
  ],
  { error: `A channel is {type: "webhook" | "slack" | "teams", url} or {type: "email", to: [...]}` },
);
export type ChannelInput = z.infer<typeof ChannelInput>;

/** A saved channel kept as it is when its owner is changed: named by its id (its URL stays the saved one). */
export const KeptChannel = z.object({ id: z.string().min(1).max(40), keep: z.literal(true) }).strict();
export type KeptChannel = z.infer<typeof KeptChannel>;

/** A channel as the console sees it: its address masked. */
export interface ChannelDto {
  id: string;
  type: ChannelType;
  /** e.g. "https://hooks.slack.com/…" or "a…@example.com". */
  target: string;
}
