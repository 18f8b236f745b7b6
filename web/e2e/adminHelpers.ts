import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../../server/test/harness';
import { PASSWORD } from '../../server/test/people';
import { startBrowser, type BrowserHarness } from './browser';

/** Starts the real server (serving the WEB_DIST build) and chromium. */
export async function startAdminBrowser(env: Record<string, string> = {}): Promise<BrowserHarness> {
  const h = await startBrowser({ env: { WEB_DIST: process.env.WEB_DIST ?? 'dist/web', ...env } });
  h.page.setDefaultTimeout(10_000);
  h.context.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') console.log(`[browser ${m.type()}] ${m.text().slice(0, 300)}`);
  });
  return h;
}

/** The test admin of the browser tests. */
export const TEST_ADMIN = { name: 'Test Admin', email: 'admin@example.com', password: PASSWORD };

/**
 * Opens /admin (or `path`) and signs in as the test admin: on a fresh server it first creates that
 * admin with the admin token (first start), afterwards it signs in with email and password.
 */
export async function signIn(page: Page, path = '/admin', who: { email: string; password: string } = TEST_ADMIN): Promise<void> {
  await page.goto(path);
  const setup = page.getByTestId('setup-form');
  const login = page.getByTestId('login-form');
  await setup.or(login).or(page.getByTestId('admin-header')).first().waitFor();
  if (await setup.count()) {
    await setup.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await setup.getByLabel('Name').fill(TEST_ADMIN.name);
    await setup.getByLabel('Email').fill(TEST_ADMIN.email);
    await setup.getByLabel('Password').fill(TEST_ADMIN.password);
    await setup.getByRole('button', { name: 'Create admin and sign in' }).click();
  } else if (await login.count()) {
    await login.getByLabel('Email').fill(who.email);
    await login.getByLabel('Password').fill(who.password);
    await login.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByTestId('admin-header').waitFor();
  if (who === TEST_ADMIN) await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
}

/** Waits for a notification with this title (and text) and closes it. */
export async function toast(page: Page, title: string, text?: string): Promise<void> {
  const n = page.locator('.ant-notification-notice').filter({ hasText: title });
  await n.first().waitFor();
  if (text) expect(await n.first().innerText()).toContain(text);
  await n.first().locator('.ant-notification-notice-close').click().catch(() => {});
}

/** Clicks a sidebar group title (mainTab) or item (mainTab, subTab). */
export async function sidebar(page: Page, mainTab: string, subTab?: string): Promise<void> {
  await page.getByTestId(subTab ? `nav-${mainTab}-${subTab}` : `nav-${mainTab}`).click();
}

/** Creates a custom data source over the API and ingests records into it. */
export async function seedSource(h: BrowserHarness, name: string, records: Record<string, unknown>[]): Promise<{ id: string; sourceId: string }> {
  const created = await h.server.http('POST', '/api/admin/data-sources', { body: { name, description: `${name} description` } });
  expect(created.status).toBe(201);
  if (records.length) {
    const ingested = await h.server.http('POST', '/api/data/ingest', { body: { sourceId: created.body.sourceId, records } });
    expect(ingested.status).toBe(200);
  }
  return { id: created.body.id, sourceId: created.body.sourceId };
}

/** Picks an option of an antd select found by its label. */
export async function pickOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  await dropdown.locator('.ant-select-item-option', { hasText: option }).first().waitFor();
  // Click once the list has slid in: a click during the motion can land on another option.
  await page.waitForFunction(() => !document.querySelector('.ant-select-dropdown[class*="-enter"], .ant-select-dropdown[class*="-appear"]'));
  await dropdown.locator('.ant-select-item-option', { hasText: option }).first().click();
}

/**
 * Manage Dashboards › Dashboard Builder: a dashboard named `name` on the data source `source`,
 * created and published; then Published Dashboards › View Public: the viewer's page.
 */
export async function publishAndView(h: BrowserHarness, name: string, source: string): Promise<Page> {
  const { page } = h;
  await sidebar(page, 'dashboard-builder', 'builder');
  const form = page.getByTestId('dashboard-form');
  await form.getByLabel('Name').fill(name);
  await pickOption(page, 'Data Source', source);
  await form.getByRole('button', { name: 'Create Dashboard' }).click();
  await toast(page, 'Dashboard Created');
  await form.getByRole('button', { name: 'Publish' }).click();
  await toast(page, 'Dashboard Updated');
  await sidebar(page, 'published-dashboards', 'public');
  const published = page.getByTestId('published-card').filter({ hasText: name });
  const [viewer] = await Promise.all([h.context.waitForEvent('page'), published.getByRole('link', { name: 'View Public' }).click()]);
  return viewer;
}
