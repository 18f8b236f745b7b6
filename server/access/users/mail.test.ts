import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config';
import type { Logger } from '../../core/log';
import { startTestServer, type TestServer } from '../../test/harness';
import { addPerson } from '../../test/people';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';

const MAIL_FROM = 'LiveDash <dash@example.com>';
const tokenOf = (url: string) => url.split('/invite/')[1];

/** Every line the server logs, to prove no link token is ever in them. */
const lines: string[] = [];
const log: Logger = {
  debug: (m) => lines.push(m),
  info: (m) => lines.push(m),
  warn: (m) => lines.push(m),
  error: (m, e) => lines.push(`${m} ${e instanceof Error ? e.stack : String(e ?? '')}`),
};

describe('invitation and reset emails through SMTP_URL', () => {
  let smtp: TestSmtpServer;
  let s: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    s = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM, PUBLIC_URL: 'https://dash.example.com' }, log);
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it('emails the invitation and the reset link, says so in the answer, and never logs the link', async () => {
    const invited = await s.http('POST', '/api/admin/users', { body: { email: 'mailed@example.com', role: 'editor' } });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ emailed: true, user: { email: 'mailed@example.com' } });
    const mail = smtp.mails.at(-1)!;
    expect(mail.from).toBe('dash@example.com');
    expect(mail.to).toEqual(['mailed@example.com']);
    expect(mail.data).toMatch(/^Subject: You are invited to LiveDash$/m);
    expect(mail.data.replace(/=\r\n/g, '')).toContain(invited.body.url);
    expect(invited.body.url).toMatch(/^https:\/\/dash\.example\.com\/invite\//);

    const p = await addPerson(s, 'viewer');
    const reset = await s.http('POST', `/api/admin/users/${p.id}/reset-link`);
    expect(reset.body.emailed).toBe(true);
    expect(smtp.mails.at(-1)!.data).toMatch(/^Subject: Reset your LiveDash password$/m);
    expect(smtp.mails.at(-1)!.data.replace(/=\r\n/g, '')).toContain(reset.body.url);

    for (const url of [invited.body.url, reset.body.url]) expect(lines.join('\n')).not.toContain(tokenOf(url));
  });

  it('shows the link to copy when the SMTP server cannot be reached', async () => {
    await smtp.close();
    const invited = await s.http('POST', '/api/admin/users', { body: { email: 'unreached@example.com', role: 'viewer' } });
    expect(invited.status).toBe(201);
    expect(invited.body.emailed).toBe(false);
    expect(invited.body.url).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(lines.some((l) => l.includes('could not send') && l.includes('unreached@example.com'))).toBe(true);
    expect(lines.join('\n')).not.toContain(tokenOf(invited.body.url));
  });

  it('needs MAIL_FROM with SMTP_URL', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrow(/MAIL_FROM/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com', MAIL_FROM })).toThrow(/SMTP_URL/);
    expect(loadConfig({ SMTP_URL: 'smtps://user:pass@mail.example.com:465', MAIL_FROM }).SMTP_URL).toContain('smtps://');
  });
});
