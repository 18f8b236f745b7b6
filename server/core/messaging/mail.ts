import nodemailer, { type Transporter } from 'nodemailer';
import { AppHandle, type AppContext } from '../context';

/** How long one send may take (connect, greeting, each command) before it counts as failed. */
const SMTP_TIMEOUT_MS = 10_000;

const transports = new AppHandle<Transporter>('the mail transport', (app) =>
  nodemailer.createTransport({ url: app.config.SMTP_URL!, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS }, { from: app.config.MAIL_FROM }),
);

/** A file carried by an email: attached, or shown inline in its HTML when it has a `cid`. */
export interface MailFile {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Content-ID the HTML body refers to (`<img src="cid:…">`): the file is shown inline. */
  cid?: string;
}

/** One email: plain text always (readable anywhere), HTML and files when the sender has them. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  files?: MailFile[];
}

/** How a send went: sent, or why not — the SMTP reply code or the network error's code, never the message or the server's address. */
export type MailOutcome = { ok: true } | { ok: false; configured: boolean; code: string };

/**
 * Sends one email through SMTP_URL, from MAIL_FROM (invitations, alert and report channels). Never
 * throws; never logs (a mail may carry a secret link, the caller says what failed in its own
 * words). Unset SMTP_URL answers `{ok: false, configured: false}`.
 */
export async function sendMail(app: AppContext, mail: Mail): Promise<MailOutcome> {
  if (!app.config.SMTP_URL) return { ok: false, configured: false, code: 'SMTP_URL is not set' };
  try {
    await transports.of(app).sendMail({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      ...(mail.files?.length ? { attachments: mail.files.map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.content, ...(f.cid ? { cid: f.cid, contentDisposition: 'inline' as const } : {}) })) } : {}),
    });
    return { ok: true };
  } catch (e) {
    const code = (e as { responseCode?: number }).responseCode ?? (e as { code?: string }).code ?? 'unknown';
    return { ok: false, configured: true, code: String(code) };
  }
}
