import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_CLIENT, startZendeskSimulator, type ZendeskSimulator } from '../../server/integrations/zendesk/simulator/server';
import { startBrowser, type BrowserHarness } from './browser';
import { signIn } from './adminHelpers';

let h: BrowserHarness;
let sim: ZendeskSimulator;
beforeAll(async () => {
  sim = await startZendeskSimulator({ tickets: 150, users: 20, organizations: 4, perPage: 25 });
  // The simulator speaks plain http, allowed for its host:port only.
  h = await startBrowser({ env: { WEB_DIST: process.env.WEB_DIST ?? 'dist/web', ZENDESK_SCHEDULER_TICK_MS: '0', ZENDESK_HTTP_HOSTS: `127.0.0.1:${sim.port}` } });
});
afterAll(async () => {
  await h?.close();
  await sim?.close();
});
// A failure under load is hard to reproduce: leave what the page showed in the CI log.
afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  const dialogs = await h.page.locator('.ant-modal-content').allInnerTexts().catch(() => []);
  const toasts = await h.page.locator('.ant-notification-notice').allInnerTexts().catch(() => []);
  console.log(`[zendesk e2e failure] url=${h.page.url()}\ndialogs=${JSON.stringify(dialogs)}\ntoasts=${JSON.stringify(toasts)}`);
  await h.shot(`zendesk-failure-${Date.now()}`).catch(() => undefined);
});
beforeEach(async () => {
  await h.server.reset();
  h.context.setDefaultTimeout(10_000);
});

async function openIntegrations(path = '/admin?tab=data-sources&sub=integrations') {
  const { page } = h;
  await signIn(page, path);
}

async function connectThroughWizard(decision: 'Allow' | 'Deny' | 'close') {
  const { page, context } = h;
  await page.getByTestId('provider-zendesk').getByRole('button', { name: 'Connect Zendesk' }).click();
  const wizard = page.getByTestId('oauth-wizard');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByRole('button', { name: 'Create Integration' }).click();
  await expect(wizard.getByText('Name is required')).toBeTruthy();
  await wizard.getByLabel('Name').fill('Acme Support');
  await wizard.getByRole('button', { name: 'Create Integration' }).click();
  await page.getByText("Now let's configure your OAuth credentials").waitFor();
  await wizard.getByRole('button', { name: /Save/ }).click();
  await wizard.getByText('Client ID is required').waitFor();
  await wizard.getByText('Client Secret is required').waitFor();
  await wizard.getByText('Host URL is required').waitFor();
  await wizard.getByLabel('Client ID').fill(DEFAULT_SIM_CLIENT.clientId);
  await wizard.getByLabel('Client Secret').fill(DEFAULT_SIM_CLIENT.clientSecret);
  await wizard.getByLabel('Host URL').fill(sim.url);
  await wizard.getByRole('button', { name: /Save/ }).click();
  await wizard.getByTestId('wizard-authorize').waitFor();
  const [popup] = await Promise.all([context.waitForEvent('page'), wizard.getByRole('button', { name: 'Authorize with Zendesk' }).click()]);
  await popup.waitForLoadState();
  expect(popup.url()).toContain(`${sim.url}/oauth/authorizations/new`);
  await h.shot('zendesk-consent', popup);
  if (decision === 'close') await popup.close();
  else await popup.getByRole('button', { name: decision }).click();
  return { wizard, popup };
}

describe('Zendesk integration in the browser', () => {
  it('connects through the whole wizard, then an initial sync fills the progress bar to completion', async () => {
    const { page } = h;
    await openIntegrations();
    await page.getByTestId('provider-salesforce').getByRole('button', { name: 'Coming Soon' }).waitFor();
    expect(await page.getByTestId('provider-hubspot').getByRole('button', { name: 'Coming Soon' }).isDisabled()).toBe(true);

    const { wizard, popup } = await connectThroughWizard('Allow');
    await wizard.getByText('Zendesk Connected').waitFor({ timeout: 10_000 });
    await popup.waitForEvent('close', { timeout: 5_000 }).catch(() => undefined);
    expect(popup.isClosed()).toBe(true);
    await wizard.getByRole('button', { name: 'Done' }).click();

    const card = page.locator('[data-testid^="integration-"]').filter({ hasText: 'Acme Support' }).first();
    await card.getByText('Active', { exact: true }).waitFor();
    await card.getByText(new URL(sim.url).host).waitFor();
    await card.getByText('Created Just now').waitFor();
    await card.getByRole('button', { name: 'Initial Sync' }).click();
    const range = page.getByTestId('sync-range-dialog');
    await range.getByText('6 months').waitFor();
    await range.getByRole('button', { name: 'Start Sync' }).click();
    await page.getByText('Sync Started').first().waitFor();
    await card.getByTestId('sync-progress').waitFor();
    await h.shot('zendesk-sync-progress');
    await page.getByText('Sync Complete').first().waitFor({ timeout: 20_000 });
    await page.getByText(/Synced \d+ tickets, 20 users and 4 organizations\./).first().waitFor();
    await card.getByTestId('sync-progress').waitFor({ state: 'detached' });
    const since = Date.now() / 1000 - 183 * 86_400;
    const expected = [...sim.data.tickets.values()].filter((t) => t.ts >= since).length;
    const totals = await card.getByTestId('integration-totals').innerText();
    expect(totals.replace(/\s+/g, ' ')).toContain('20 users');
    expect(Number(/([\d,]+) tickets/.exec(totals)![1].replace(/,/g, ''))).toBeGreaterThanOrEqual(expected - 2);
    await card.getByRole('button', { name: 'Sync New' }).waitFor();
    await h.shot('zendesk-sync-complete');

    // Configure Schedule really sets the interval.
    await card.getByRole('button', { name: 'Schedule' }).click();
    await page.getByTestId('schedule-dialog').getByRole('button', { name: 'Save Schedule' }).click();
    await page.getByText('Settings Updated').first().waitFor();
    // The schedule reads in the unit it was chosen in, not "1800 seconds".
    await page.getByText('Auto sync runs every 30 minutes.').first().waitFor();
    await card.getByText('Auto sync every 30 minutes').waitFor();
    const list = await h.server.http('GET', '/api/integrations');
    expect(list.body[0].config).toMatchObject({ autoSync: true, syncInterval: 1800 });

    // Auto sync: off saves at once; on asks for a frequency, and under 30 s is refused, not rounded up.
    await card.getByTestId('auto-sync-switch').click();
    await page.getByText('Auto sync is off.').first().waitFor();
    await card.getByTestId('auto-sync-switch').click();
    const auto = page.getByRole('dialog', { name: 'Enable Auto Sync' });
    const seconds = auto.getByLabel('Sync frequency in seconds');
    expect(await seconds.inputValue()).toBe('30');
    await seconds.fill('10');
    await auto.getByRole('button', { name: 'Enable' }).click();
    const invalid = page.locator('.ant-notification-notice').filter({ hasText: 'Invalid Frequency' }).first();
    await invalid.waitFor();
    expect(await invalid.innerText()).toContain('Please enter a frequency of at least 30 seconds');
    expect(await auto.isVisible()).toBe(true);
    expect((await h.server.http('GET', '/api/integrations')).body[0].config).toMatchObject({ autoSync: false, syncInterval: 30 });
    await seconds.fill('45');
    await auto.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Auto sync runs every 45 seconds.').first().waitFor();
    expect((await h.server.http('GET', '/api/integrations')).body[0].config).toMatchObject({ autoSync: true, syncInterval: 45 });
  }, 90_000);

  it('closing the popup reports "OAuth Cancelled" and Deny reports an OAuth Error; both return to config', async () => {
    const { page } = h;
    await openIntegrations();
    const { wizard } = await connectThroughWizard('close');
    await page.getByText('Zendesk authorization was cancelled').waitFor({ timeout: 5_000 });
    await wizard.getByTestId('wizard-config').waitFor();

    await wizard.getByLabel('Client Secret').fill(DEFAULT_SIM_CLIENT.clientSecret);
    await wizard.getByRole('button', { name: /Save/ }).click();
    const [popup] = await Promise.all([h.context.waitForEvent('page'), wizard.getByRole('button', { name: 'Authorize with Zendesk' }).click()]);
    await popup.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('Failed to complete OAuth: access_denied').waitFor({ timeout: 5_000 });
    await wizard.getByTestId('wizard-config').waitFor();
  });

  it('the /admin?oauth=… return path shows the toast, opens Integrations and strips the parameters', async () => {
    const { page } = h;
    await openIntegrations('/admin?oauth=error&provider=zendesk&integrationId=x&error=boom');
    await page.getByText('Failed to complete OAuth: boom').waitFor();
    await page.getByTestId('integrations-screen').waitFor();
    await page.waitForFunction(() => !window.location.search.includes('oauth='));
    await openIntegrations('/admin?oauth=success&provider=zendesk&integrationId=x');
    await page.getByText('Zendesk integration completed successfully').waitFor();
    await page.getByTestId('integrations-screen').waitFor();
  });
});
