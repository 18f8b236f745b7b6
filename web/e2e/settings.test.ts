import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHarness } from './browser';
import { pickOption, seedSource, sidebar, signIn, startAdminBrowser, toast } from './adminHelpers';
import { startReceiver, type TestReceiver } from '../../server/test/receiver';
import { buildPerson } from '../../server/test/factories';

/**
 * Settings › Outbound hosts in the console: an integration's Test connection and an alert refused
 * for their receiver on this machine say where to allow it, an admin follows the link, allows it and
 * saves, and the same alert is taken, and the integration reaches the receiver, at once (no restart). An editor is told the screen is for admins, and to ask one.
 */
describe('Settings › Outbound hosts', () => {
  let h: BrowserHarness;
  let rx: TestReceiver;
  beforeAll(async () => {
    rx = await startReceiver();
    h = await startAdminBrowser();
    await seedSource(h, 'Weather', [{ id: 1, temp: 12 }]);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await rx?.close();
  });

  const fillAlert = async () => {
    const { page } = h;
    await page.getByRole('button', { name: 'New alert' }).click();
    const form = page.getByTestId('alert-form');
    await form.getByLabel('Alert name').fill('Too hot');
    await pickOption(page, 'Data source', 'Weather');
    await form.getByLabel('Threshold').fill('30');
    await form.getByRole('button', { name: 'Add channel' }).click();
    await form.getByLabel('Channel 1 URL').fill(`${rx.url}/hook`);
    await form.getByRole('button', { name: 'Create alert' }).click();
    return form;
  };

  /** Test connection of an HTTP API integration reading from the receiver; answers the result shown. */
  const testIntegration = async () => {
    const { page } = h;
    await sidebar(page, 'data-sources', 'integrations');
    await page.getByTestId('provider-api').getByRole('button', { name: 'Connect HTTP API' }).click();
    const dialog = page.getByTestId('pull-dialog');
    await dialog.getByTestId('api-url').fill(`${rx.url}/items`);
    await dialog.getByLabel('Primary key').fill('id');
    await dialog.getByTestId('test-connection').click();
    const result = dialog.getByTestId('test-result');
    await result.waitFor();
    return { dialog, result };
  };

  it('an admin follows the refusal to Settings, allows the host, and the alert is taken at once', async () => {
    const { page } = h;
    await signIn(page);
    // An integration reading from this machine is refused in the same words, with the same link.
    const first = await testIntegration();
    expect(await first.result.innerText()).toContain(`allow ${rx.hostPort} under Settings › Outbound hosts`);
    expect(await first.result.getByTestId('outbound-settings-link').count()).toBe(1);
    await h.shot('settings-integration-refused');
    await first.dialog.getByRole('button', { name: 'Cancel' }).click();
    await first.dialog.waitFor({ state: 'detached' });

    await sidebar(page, 'published-dashboards', 'alerts');
    const form = await fillAlert();
    const error = form.getByTestId('alert-form-error');
    await error.waitFor();
    expect(await error.innerText()).toContain(`allow ${rx.hostPort} under Settings › Outbound hosts`);
    await h.shot('settings-alert-refused');
    await error.getByTestId('outbound-settings-link').click();

    const screen = page.getByTestId('settings-screen');
    await screen.waitFor();
    expect(await page.getByLabel('Allow a host').inputValue()).toBe(rx.hostPort);
    await page.getByTestId('offered-host').waitFor();
    // A URL pasted whole is refused with a word on what to write.
    await page.getByLabel('Allow a host').fill(`http://${rx.hostPort}/hook`);
    await screen.getByRole('button', { name: 'Add' }).click();
    await screen.getByText('without http://').waitFor();
    await page.getByLabel('Allow a host').fill(rx.hostPort);
    await screen.getByRole('button', { name: 'Add' }).click();
    await screen.getByTestId('outbound-hosts-list').getByText(rx.hostPort).waitFor();
    await screen.getByText('Unsaved changes').waitFor();
    await h.shot('settings-outbound-hosts');
    await page.getByTestId('save-settings').click();
    await toast(page, 'Settings saved', 'Applied at once');
    await screen.getByText(/Last changed by Test Admin/).waitFor();
    expect((await h.server.http('GET', '/api/admin/settings')).body.outboundAllowedHosts).toEqual([rx.hostPort]);

    await sidebar(page, 'published-dashboards', 'alerts');
    await fillAlert();
    await page.getByTestId('alert-form').waitFor({ state: 'detached' });
    await page.getByTestId('alerts-screen').getByText('Too hot').waitFor();
    const logged = (await h.server.http('GET', '/api/admin/activity?kind=settings.updated')).body;
    expect(logged[0]).toMatchObject({ summary: `Settings: allowed outbound host ${rx.hostPort}`, actor: 'Test Admin' });

    // The webhook's secret, shown once.
    await page.getByRole('dialog', { name: 'Alert created' }).getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog', { name: 'Alert created' }).waitFor({ state: 'detached' });
    // The same host, allowed once, is reachable by integrations too: the read gets to the receiver (which answers text, not JSON).
    const second = await testIntegration();
    expect(await second.result.innerText()).not.toContain('Outbound hosts');
    expect(rx.on('/items').length).toBeGreaterThan(0);
  }, 60_000);

  it('tells an editor that only admins change the settings, and to ask one', async () => {
    const editor = await buildPerson(h.server, 'editor', { name: 'Eddie Editor' });
    await h.server.http('PUT', '/api/admin/settings', { body: { outboundAllowedHosts: [] } });
    const context = await h.context.browser()!.newContext({ baseURL: h.server.url, reducedMotion: 'reduce', viewport: { width: 1366, height: 900 } });
    const [name, value] = editor.cookie.split('=');
    await context.addCookies([{ name, value, url: h.server.url }]);
    const page = await context.newPage();
    try {
      await page.goto('/admin?tab=published-dashboards&sub=settings');
      const only = page.getByTestId('admins-only');
      await only.waitFor();
      expect(await only.innerText()).toContain('Only admins can change the settings');
      expect(await page.getByTestId('nav-published-dashboards-settings').count()).toBe(0);
      await page.goto('/admin?tab=published-dashboards&sub=users');
      expect(await page.getByTestId('admins-only').innerText()).toContain('Only admins can manage users');
      await h.shot('admins-only-users', page);
      // The editor's refused alert says where, without a link they cannot use.
      await page.goto('/admin?tab=published-dashboards&sub=alerts');
      await page.getByRole('button', { name: 'New alert' }).click();
      const form = page.getByTestId('alert-form');
      await form.getByLabel('Alert name').fill('Too cold');
      await form.getByLabel('Data source').click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Weather' }).click();
      await form.getByLabel('Threshold').fill('1');
      await form.getByRole('button', { name: 'Add channel' }).click();
      await form.getByLabel('Channel 1 URL').fill(`${rx.url}/cold`);
      await form.getByRole('button', { name: 'Create alert' }).click();
      const error = form.getByTestId('alert-form-error');
      await error.waitFor();
      expect(await error.innerText()).toContain('under Settings › Outbound hosts (an admin of your team can do it)');
      expect(await error.getByTestId('outbound-settings-link').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
