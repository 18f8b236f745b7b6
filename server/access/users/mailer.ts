import { type AppContext, sendMail as sendThroughSmtp } from '../../core';

/**
 * Sends one plain-text email through SMTP_URL, from MAIL_FROM (core's mail transport). False when
 * SMTP is not configured or the server refused it (the caller then shows the link to copy). The
 * text carries a secret link: it is never logged, and neither is the SMTP conversation.
 */
export async function sendMail(app: AppContext, mail: { to: string; subject: string; text: string }): Promise<boolean> {
  const sent = await sendThroughSmtp(app, mail);
  if (sent.ok) return true;
  if (sent.configured) app.log.warn(`mail: could not send "${mail.subject}" to ${mail.to} through SMTP_URL (${sent.code}): the link is shown to copy instead`);
  return false;
}
