import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReceiver, type TestReceiver } from '../../server/test/receiver';
import { startSmtpServer, type TestSmtpServer } from '../../server/test/smtp';
import { sidebar, signIn, startAdminBrowser, toast } from './adminHelpers';
import type { BrowserHarness } from './browser';

/*
 * Published Dashboards › Reports as a person uses it: "Schedule a report" on a dashboard's card
 * opens the form with that dashboard and a live preview of its picture; a schedule under 5 minutes
 * is refused in the form; the saved report is listed with its schedule in words and next run;
 * "Send now" fills the delivery log (an email to a real SMTP server, a Slack-shaped receiver); a
 * report whose drawing failed says so, and when it is tried again.
 */

let h: BrowserHarness;
let rx: TestReceiver;
let smtp: TestSmtpServer;

beforeAll(async () => {
  rx = await startReceiver();
  smtp = await startSmtpServer();
  h = await startAdminBrowser({ OUTBOUND_ALLOWED_HOSTS: rx.hostPort, SMTP_URL: smtp.url, MAIL_FROM: 'LiveDash <dash@example.com>', REPORTS_TICK_MS: '200' });
  const ds = (await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Orders', primaryKey: 'id' } })).body;
  const records = [{ id: 1, team: 'red', amount: 120 }, { id: 2, team: 'blue', amount: 80 }, { id: 3, team: 'red', amount: 45 }, { id: 4, team: 'green', amount: 60 }];
  expect((await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records } })).status).toBe(200);
  const tabs = [{
    id: 'main', name: 'Main',
    widgets: [
      { id: 'n', name: 'Orders', type: 'kpi', configuration: { metric: 'count' }, layout: { x: 0, y: 0, w: 3, h: 2 } },
      { id: 'rev', name: 'Revenue', type: 'kpi', configuration: { metric: 'sum', valueField: 'amount' }, layout: { x: 3, y: 0, w: 3, h: 2 } },
      { id: 'teams', name: 'By team', type: 'bar', configuration: { groupField: 'team', topN: 5 }, layout: { x: 6, y: 0, w: 6, h: 4 } },
    ],
  }];
  const made = await h.server.http('POST', '/api/admin/dashboards', { body: { name: 'Sales', dataSourceId: ds.id, isPublished: true, configuration: { tabs } } });
  expect(made.status).toBe(201);
  // A report whose tab was removed after it was made: its drawing fails, and the list says when it is tried again.
  const old = await h.server.http('POST', '/api/admin/dashboards', { body: { name: 'Old layout', dataSourceId: ds.id, configuration: { tabs: [{ ...tabs[0], id: 'q1' }] } } });
  const broken = await h.server.http('POST', '/api/admin/reports', { body: { name: 'Quarterly', dashboardId: old.body.id, tabId: 'q1', schedule: { everyMinutes: 1440 }, formats: ['pdf'], channels: [{ type: 'slack', url: `${rx.url}/quarterly` }] } });
  expect(broken.status, JSON.stringify(broken.body)).toBe(201);
  expect((await h.server.http('PATCH', `/api/admin/dashboards/${old.body.id}`, { body: { configuration: { tabs: [{ ...tabs[0], id: 'q2' }] } } })).status).toBe(200);
  expect((await h.server.http('POST', `/api/admin/reports/${broken.body.id}/send`)).status).toBe(202);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await rx?.close();
  await smtp?.close();
});

it('schedules a report from a dashboard\'s card, previews its picture, refuses a schedule under 5 minutes, sends it now and shows the delivery', async () => {
  const { page } = h;
  await signIn(page);
  await sidebar(page, 'published-dashboards', 'public');
  await page.getByTestId('published-card').filter({ hasText: 'Sales' }).getByRole('button', { name: 'Schedule a report' }).click();
  const form = page.getByRole('dialog', { name: 'Schedule a report' });
  await form.waitFor();
  expect(await form.getByLabel('Dashboard').locator('..').locator('..').innerText()).toContain('Sales');
  // The live preview: the server's picture of the tab.
  await form.getByTestId('report-preview-image').waitFor({ timeout: 90_000 });
  const drawn = await form.getByTestId('report-preview-image').evaluate((img: HTMLImageElement) => img.naturalWidth);
  expect(drawn).toBe(1440);

  await form.getByLabel('Report name').fill('Morning sales');
  await form.getByText('Cron', { exact: true }).click();
  await form.getByLabel('Cron expression').fill('*/2 * * * *');
  await form.getByLabel('Time zone').click();
  await page.keyboard.type('Europe/Berlin');
  await page.keyboard.press('Enter');
  await form.getByLabel('Channel 1 recipients').fill('sales@example.com');
  await form.getByRole('button', { name: 'Add channel' }).click();
  await form.getByLabel('Channel 2 URL').fill(`${rx.url}/slack`);
  await page.getByRole('button', { name: 'Schedule report' }).click();
  const refused = form.getByTestId('report-form-error');
  await refused.waitFor();
  expect(await refused.innerText()).toMatch(/2 minutes apart.*at most every 5 minutes/);

  await form.getByLabel('Cron expression').fill('0 8 * * 1-5');
  expect(await form.getByTestId('schedule-words').innerText()).toBe('every weekday at 08:00 Berlin');
  await h.shot('reports-form');
  await page.getByRole('button', { name: 'Schedule report' }).click();
  await form.waitFor({ state: 'detached' });

  const row = page.locator('[data-report-row="Morning sales"]');
  await row.waitFor();
  expect(await row.getByTestId('report-schedule').innerText()).toBe('every weekday at 08:00 Berlin');
  expect(await row.innerText()).toContain('Sales');
  await row.getByRole('button', { name: 'Send now' }).click();
  await toast(page, 'Sending now');
  await row.getByTestId('report-last-status').filter({ hasText: 'Sent' }).waitFor({ timeout: 30_000 });
  // The report that could not be drawn: failed, and tried again later.
  const quarterly = page.locator('[data-report-row="Quarterly"]');
  await quarterly.getByTestId('report-last-status').filter({ hasText: 'Failed' }).waitFor({ timeout: 30_000 });
  expect(await quarterly.getByTestId('report-retry').innerText()).toMatch(/^Drawing failed: tried again /);
  await h.shot('reports-list');

  await row.getByRole('button', { name: 'Deliveries' }).click();
  const log = page.getByTestId('report-deliveries');
  await log.locator('[data-delivery-status="sent"]').nth(1).waitFor({ timeout: 30_000 });
  expect(await log.innerText()).toMatch(/Email[\s\S]*s…@example\.com/);
  expect(await log.innerText()).toMatch(/PNG \d+ KB/);
  await h.shot('reports-deliveries');
  expect(smtp.mails.some((m) => m.to.includes('sales@example.com'))).toBe(true);
  expect(rx.on('/slack')).toHaveLength(1);
}, 240_000);
