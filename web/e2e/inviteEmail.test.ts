import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHarness } from './browser';
import { sidebar, signIn, startAdminBrowser } from './adminHelpers';
import { startSmtpServer, type TestSmtpServer } from '../../server/test/smtp';

describe('invitations by email (SMTP configured)', () => {
  let smtp: TestSmtpServer;
  let h: BrowserHarness;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    h = await startAdminBrowser({ SMTP_URL: smtp.url, MAIL_FROM: 'LiveDash <dash@example.com>' });
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });

  it('says the invitation was emailed instead of showing the link', async () => {
    const { page } = h;
    await signIn(page);
    await sidebar(page, 'published-dashboards', 'users');
    const users = page.getByTestId('users-screen');
    await users.getByLabel('Email').fill('mailed@example.com');
    await users.getByRole('button', { name: 'Invite' }).click();
    await page.getByText('Email sent to mailed@example.com').waitFor();
    expect(await page.getByTestId('invite-link').count()).toBe(0);
    expect(smtp.mails.map((m) => m.to)).toEqual([['mailed@example.com']]);
    await h.shot('admin-users-emailed');
  }, 60_000);
});
