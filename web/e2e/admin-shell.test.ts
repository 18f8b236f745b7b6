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
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('admin:navigate', { detail: { mainTab: 'api-docs', subTab: 'documentation' } })));
    await page.getByTestId('api-docs').waitFor();
    await page.reload();
    await page.getByTestId('api-docs').waitFor();
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
