import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserHarness } from './browser';
import { seedSource, sidebar, signIn, startAdminBrowser } from './adminHelpers';

/** Animations on the page that never end (a pulsing dot, a shimmer), running now. */
const endless = (page: Page) => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations === Infinity).length);

/**
 * Opens the builder's Data Source list and answers whether the person saw it move: its opacity and
 * place, read on every painted frame from the first one it shows, change before they settle.
 */
async function listSlidIn(page: Page): Promise<boolean> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: Promise<string[]> };
    w.__frames = new Promise((resolve) => {
      const frames: string[] = [];
      const sample = () => {
        const list = document.querySelector<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
        const box = list?.getBoundingClientRect();
        // A frame before the list shows, while it waits off-screen to be placed or while it is fully
        // transparent is not seen.
        if (list && box && box.top >= 0 && Number(getComputedStyle(list).opacity) > 0) frames.push(`${getComputedStyle(list).opacity} ${box.top.toFixed(1)} ${box.height.toFixed(1)}`);
        if (frames.length < 20) requestAnimationFrame(sample);
        else resolve(frames);
      };
      requestAnimationFrame(sample);
    });
  });
  await page.getByTestId('dashboard-form').getByLabel('Data Source', { exact: true }).click();
  const frames = await page.evaluate(() => (window as unknown as { __frames: Promise<string[]> }).__frames);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)'));
  return new Set(frames).size > 1;
}

describe('reduced motion', () => {
  let h: BrowserHarness;

  beforeAll(async () => {
    h = await startAdminBrowser();
    const source = await seedSource(h, 'Sales Orders', [{ order_id: 1, status: 'paid' }]);
    await h.server.http('POST', '/api/admin/dashboards', { body: { name: 'Orders live', dataSourceId: source.id, isPublished: true } });
    await signIn(h.page);
    await sidebar(h.page, 'dashboard-builder', 'builder');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('slides lists in for everyone, and shows them at once to a person whose system asks for reduced motion', async () => {
    const { page } = h;
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await listSlidIn(page)).toBe(true);
    // The setting is followed as it changes, without a reload.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await listSlidIn(page)).toBe(false);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await listSlidIn(page)).toBe(true);
  });

  it('keeps nothing pulsing forever for a person whose system asks for reduced motion: the landing page and the published list', async () => {
    const page = await h.context.newPage();
    try {
      for (const [path, ready] of [['/', 'Three steps to live insights'], ['/dashboards', 'Orders live']]) {
        await page.emulateMedia({ reducedMotion: 'no-preference' });
        await page.goto(path);
        await page.getByText(ready).first().waitFor();
        // The "Live" dots pulse for everyone else …
        await expect.poll(() => endless(page), { timeout: 10_000 }).toBeGreaterThan(0);
        // … and stand still once the setting asks for it, without a reload.
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await expect.poll(() => endless(page), { timeout: 10_000 }).toBe(0);
      }
    } finally {
      await page.close();
    }
  });
});
