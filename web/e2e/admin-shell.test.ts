import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHarness } from './browser';
import { sidebar, signIn, startAdminBrowser } from './adminHelpers';

describe('admin console: sign-in and shell', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startAdminBrowser();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('asks for the token, refuses a wrong one and signs in with the right one', async () => {
    const { page } = h;
    await page.goto('/admin');
    await page.getByTestId('admin-sign-in').waitFor();
    await h.shot('admin-sign-in');
    await page.getByLabel('Admin token').fill('wrong-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('sign-in-error').waitFor();
    expect(await page.getByTestId('sign-in-error').innerText()).toContain('Invalid admin token');
    await signIn(page);
    expect(await page.getByTestId('connection-state').innerText()).toContain('Live');
    expect(new URL(page.url()).pathname).toBe('/admin');
  });

  it('navigates by sidebar, sub-tabs, the in-page event and the URL query; back keeps the place', async () => {
    const { page } = h;
    await sidebar(page, 'dashboard-builder', 'configure');
    await page.waitForURL(/tab=dashboard-builder&sub=configure/);
    await sidebar(page, 'published-dashboards');
    // Choosing a main tab selects its first sub-tab.
    await page.waitForURL(/tab=published-dashboards&sub=public/);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await page.waitForURL(/sub=analytics/);
    await page.goBack();
    await page.waitForURL(/sub=public/);
    await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Docs Source' } });
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('admin:navigate', { detail: { mainTab: 'api-docs', subTab: 'documentation' } })));
    await page.getByTestId('api-docs').waitFor();
    await page.reload();
    const docs = page.getByTestId('api-docs');
    await docs.waitFor();
    for (const tab of ['Standard', 'Zendesk', 'Generic', 'Direct Array']) await docs.getByRole('tab', { name: tab }).waitFor();
    await docs.getByRole('tab', { name: 'Direct Array' }).click();
    const curl = await docs.getByRole('tabpanel').getByTestId('code-block').nth(1).innerText();
    expect(curl).toContain(`curl -X POST '${h.server.url}/api/data/ingest'`);
    expect(curl).toContain("'Authorization: Bearer <token>'");
    await docs.getByRole('tabpanel').getByRole('button', { name: 'Copy Direct Array cURL' }).click();
    const n = page.locator('.ant-notification-notice');
    await n.getByText('Copied', { exact: true }).waitFor();
    expect(await n.innerText()).toContain('Code copied to clipboard');
    await h.shot('admin-api-docs');
    // The samples work when pasted: run the Standard cURL with the token filled in.
    await docs.getByRole('switch', { name: 'Fill in my admin token' }).click();
    await docs.getByRole('tab', { name: 'Standard' }).click();
    const standard = await docs.getByRole('tabpanel').getByTestId('code-block').nth(1).innerText();
    // Async: the server runs in this process, a blocking exec would starve it.
    const { stdout } = await promisify(execFile)('bash', ['-c', `${standard} --silent`]);
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({ success: true, inserted: 2 });
    await sidebar(page, 'dashboard-builder', 'templates');
    await page.getByTestId('not-available').waitFor();
    expect(await page.getByTestId('not-available').innerText()).toContain('Templates is not available yet');
    await h.shot('admin-not-available');
  });

  it('collapses the sidebar, and a revoked token returns to sign-in with a message', async () => {
    const { page } = h;
    const before = (await page.getByTestId('admin-sidebar').boundingBox())!.width;
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await page.waitForTimeout(400);
    const after = (await page.getByTestId('admin-sidebar').boundingBox())!.width;
    expect(after).toBeLessThan(before);
    await h.shot('admin-sidebar-collapsed');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await page.evaluate(() => localStorage.setItem('livedash.adminToken', 'stale-token'));
    await page.reload();
    await page.getByTestId('admin-sign-in').waitFor();
    await page.getByTestId('sign-in-error').waitFor();
    await signIn(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('admin-sign-in').waitFor();
  });
});
