import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../../server/test/harness';
import { startBrowser, type BrowserHarness } from './browser';

/** Starts the real server (serving the WEB_DIST build) and chromium. */
export async function startAdminBrowser(): Promise<BrowserHarness> {
  const h = await startBrowser({ env: { WEB_DIST: process.env.WEB_DIST ?? 'dist/web' } });
  h.page.setDefaultTimeout(10_000);
  h.context.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') console.log(`[browser ${m.type()}] ${m.text().slice(0, 300)}`);
  });
  return h;
}

/** Opens /admin and signs in with the test admin token. */
export async function signIn(page: Page, path = '/admin'): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('admin-header').waitFor();
  await page.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
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
