import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserHarness } from './browser';
import { seedSource, signIn, startAdminBrowser } from './adminHelpers';

/** Every admin screen, by its place in the URL query. */
const SCREENS = [
  ['data-sources', 'overview'], ['data-sources', 'integrations'], ['data-sources', 'import'], ['data-sources', 'export'],
  ['dashboard-builder', 'builder'], ['dashboard-builder', 'configure'], ['dashboard-builder', 'templates'],
  ['published-dashboards', 'public'], ['published-dashboards', 'analytics'], ['api-docs', 'documentation'], ['api-docs', 'examples'],
  ['api-docs', 'endpoints'], ['api-docs', 'authentication'],
] as const;

/** Page width beyond the viewport (0 when nothing scrolls sideways). */
const overflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

/** Boxes of the Configure editor (fixed, so they never widen the page) that are wider than they show. */
const editorOverflow = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll('[data-testid=config-editor] > div')].map((d) => d.scrollWidth - d.clientWidth).filter((x) => x > 0));

describe('admin console on phones and tablets', () => {
  let h: BrowserHarness;
  let dashboardId = '';

  beforeAll(async () => {
    h = await startAdminBrowser();
    const ds = await seedSource(h, 'Support Tickets with a rather long data source name', Array.from({ length: 12 }, (_, i) => ({
      ticket_id: 1000 + i, subject: `A fairly long ticket subject number ${i} that needs room`, status: ['open', 'closed'][i % 2], priority: 'high',
      created_at: '2026-10-31T11:04:05.000Z', custom_fields: [{ id: 900, value: 'email' }],
    })));
    const tabs = [
      { id: 't1', name: 'All Tickets', style: 'table', configuration: {}, widgets: [] },
      { id: 't2', name: 'By Status', style: 'bucket', configuration: { bucketKey: 'status', displayKeys: ['subject', 'priority'] }, widgets: [] },
    ];
    const d = await h.server.http('POST', '/api/admin/dashboards', {
      body: { name: 'Support Overview For The Whole Company', dataSourceId: ds.id, isPublished: true, configuration: { tabs } },
    });
    dashboardId = d.body.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  const SIZES = [[390, 844], [768, 1024]] as const;

  it('fits 390×844 and 768×1024 on every screen with no sideways scrolling', async () => {
    const { page } = h;
    await page.goto('/admin');
    await page.getByTestId('admin-header').or(page.getByTestId('admin-sign-in')).waitFor();
    if (await page.getByTestId('admin-sign-in').count()) await signIn(page);
    // Each screen is opened once and measured at both sizes, resized in place; every other screen
    // opens on the tablet first, so a layout read only at the first render is caught at both sizes.
    for (const [i, [mainTab, subTab]] of SCREENS.entries()) {
      const sizes = i % 2 ? [...SIZES].reverse() : SIZES;
      await page.setViewportSize({ width: sizes[0][0], height: sizes[0][1] });
      await page.goto(`/admin?tab=${mainTab}&sub=${subTab}`);
      await page.getByTestId('admin-header').waitFor();
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        // Wait for the screen's content (and the layout of this size), not a fixed time.
        await page.waitForFunction((w) => window.innerWidth === w && !document.querySelector('.ant-skeleton') && document.querySelector('[data-testid=admin-subtabs]'), width);
        await expect.poll(() => overflow(page), { message: `${mainTab}/${subTab} at ${width} px` }).toBeLessThanOrEqual(0);
        await h.shot(`admin-${width}-${mainTab}-${subTab}`);
      }
    }
    for (const [i, tab] of ['All Tickets', 'By Status'].entries()) {
      const sizes = i % 2 ? [...SIZES].reverse() : SIZES;
      await page.setViewportSize({ width: sizes[0][0], height: sizes[0][1] });
      await page.goto(`/admin?tab=dashboard-builder&sub=configure&dashboard=${dashboardId}`);
      const editor = page.getByTestId('config-editor');
      await editor.getByRole('tab', { name: tab }).click();
      await editor.getByTestId(tab === 'All Tickets' ? 'preview-table' : 'bucket-preview').waitFor();
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await page.waitForFunction((w) => window.innerWidth === w, width);
        await expect.poll(() => editorOverflow(page), { message: `editor ${tab} at ${width} px` }).toEqual([]);
        await h.shot(`admin-${width}-configure-editor-${tab === 'All Tickets' ? 'table' : 'bucket'}`);
      }
    }
  }, 180_000);

  it('opens the sidebar as a drawer on a phone; it closes on a choice', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin?tab=data-sources&sub=overview');
    await page.getByTestId('admin-header').waitFor();
    expect(await page.getByTestId('admin-sidebar').count()).toBe(0);
    // The header fits: title, live dot and icon buttons with their names.
    const header = (await page.getByTestId('admin-header').boundingBox())!;
    expect(header.width).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByTestId('admin-drawer');
    await drawer.getByTestId('nav-api-docs-documentation').waitFor();
    // The drawer has slid in fully.
    await page.waitForFunction(() => document.querySelector('[data-testid=admin-drawer]')?.getBoundingClientRect().left === 0);
    await h.shot('admin-390-drawer');
    await drawer.getByTestId('nav-api-docs-documentation').click();
    await page.waitForURL(/tab=api-docs&sub=documentation/);
    await drawer.waitFor({ state: 'hidden' });
    await page.getByTestId('api-docs').waitFor();
  });

  it('keeps the collapsed sidebar across reloads', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/admin?tab=data-sources&sub=overview');
    const sidebarWidth = async () => (await page.getByTestId('admin-sidebar').boundingBox())!.width;
    await page.getByTestId('admin-sidebar').waitFor();
    if ((await sidebarWidth()) < 100) await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect.poll(sidebarWidth).toBeGreaterThan(200);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect.poll(sidebarWidth).toBe(64);
    await page.reload();
    await page.getByTestId('admin-sidebar').waitFor();
    expect(await sidebarWidth()).toBe(64);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect.poll(sidebarWidth).toBe(256);
    await page.reload();
    await page.getByTestId('admin-sidebar').waitFor();
    expect(await sidebarWidth()).toBe(256);
  });
});
