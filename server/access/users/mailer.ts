import nodemailer, { type Transporter } from 'nodemailer';
import { AppHandle, type AppContext } from '../../core';

/** How long one send may take (connect, greeting, each command) before the link is shown to copy instead. */
const SMTP_TIMEOUT_MS = 10_000;

const transports = new AppHandle<Transporter>('the mail transport', (app) =>
  nodemailer.createTransport({ url: app.config.SMTP_URL!, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS }, { from: app.config.MAIL_FROM }),
);

function transportOf(app: AppContext): Transporter | null {
  const url = app.config.SMTP_URL;
  if (!url) return null;
  return transports.of(app);
}

/**
 * Sends one plain-text email through SMTP_URL, from MAIL_FROM. False when SMTP is not configured
 * or the server refused it (the caller then shows the link to copy). The text carries a secret
 * link: it is never logged, and neither is the SMTP conversation.
 */
export async function sendMail(app: AppContext, mail: { to: string; subject: string; text: string }): Promise<boolean> {
  const transport = transportOf(app);
  if (!transport) return false;
  try {
    await transport.sendMail(mail);
    return true;
  } catch (e) {
    const code = (e as { code?: string; responseCode?: number }).responseCode ?? (e as { code?: string }).code ?? 'unknown';
    app.log.warn(`mail: could not send "${mail.subject}" to ${mail.to} through SMTP_URL (${code}): the link is shown to copy instead`);
    return false;
  }
}
