import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { BrowserHarness } from './browser';
import { seedSource, signIn, startAdminBrowser } from './adminHelpers';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Clicks "Copy Source ID" on a card and checks the toast sits clear of that card's buttons. */
async function copyAndCheck(page: Page, card: Locator) {
  await card.getByRole('button', { name: 'Copy Source ID' }).click();
  const notice = page.locator('.ant-notification-notice').filter({ hasText: 'Source ID copied to clipboard' }).first();
  await notice.waitFor();
  // Let it finish sliding in before measuring.
  await page.waitForFunction(() => [...document.querySelectorAll('.ant-notification-notice-wrapper')].every((n) => getComputedStyle(n).opacity === '1'));
  const toastBox = (await notice.boundingBox())!;
  for (const button of await card.getByRole('button').all()) {
    const b = await button.boundingBox();
    if (b) expect(overlaps(toastBox, b), `toast over "${await button.innerText()}"`).toBe(false);
  }
  await notice.locator('.ant-notification-notice-close').click();
  await notice.waitFor({ state: 'detached' });
}

describe('deletes say what they touch; toasts stay clear of their card; pending integrations resume or go', () => {
  let h: BrowserHarness;
  let used = { id: '', sourceId: '' };

  beforeAll(async () => {
    h = await startAdminBrowser();
    used = await seedSource(h, 'Orders', [{ order_id: 1, status: 'open' }, { order_id: 2, status: 'closed' }]);
    await seedSource(h, 'Spare', []);
    for (const [name, isPublished] of [['Sales Live', true], ['Sales Draft', false]] as const) {
      expect((await h.server.http('POST', '/api/admin/dashboards', { body: { name, dataSourceId: used.id, isPublished } })).status).toBe(201);
    }
    await signIn(h.page, '/admin?tab=data-sources&sub=overview');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists the dashboards on a data source, live or draft, in its delete confirmation', async () => {
    const { page } = h;
    const card = page.locator(`[data-source-id="${used.sourceId}"]`);
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    const list = confirm.getByTestId('delete-source-dashboards');
    await list.waitFor();
    const text = await confirm.innerText();
    expect(text).toContain('All its records (2 records) will be deleted');
    expect(text).toContain('2 dashboards use it and will be left with no data source:');
    expect((await list.locator('li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).sort()).toEqual(['Sales Draft Draft', 'Sales Live Live']);
    await h.shot('admin-delete-source-dashboards');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });

    const spare = page.getByTestId('data-source-card').filter({ hasText: 'Spare' });
    await spare.getByRole('button', { name: 'Delete' }).click();
    await page.locator('.ant-modal-confirm').getByText('No dashboard uses this data source.').waitFor();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('data-source-card').filter({ hasText: 'Spare' }).waitFor({ state: 'detached' });
  });

  for (const [width, height] of [[1366, 700], [390, 844]]) {
    it(`keeps a toast off its card's buttons at ${width}×${height}, the card high or low on the screen`, async () => {
      const { page } = h;
      await page.setViewportSize({ width, height });
      await page.goto('/admin?tab=data-sources&sub=overview');
      const card = page.locator(`[data-source-id="${used.sourceId}"]`);
      await card.waitFor();
      await copyAndCheck(page, card);
      // The same card low on the screen: the toast moves to the top.
      await page.evaluate(() => {
        document.body.style.paddingBottom = '2000px';
        document.body.style.paddingTop = `${window.innerHeight}px`;
      });
      await card.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight + 8));
      await copyAndCheck(page, card);
      await h.shot(`admin-toast-clear-of-card-${width}`);
    });
  }

  it('offers to resume or discard a Pending Zendesk integration in the wizard', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 1366, height: 900 });
    for (const name of ['Half done', 'Abandoned']) {
      expect((await h.server.http('POST', '/api/integrations', { body: { name, description: '', type: 'zendesk' } })).status).toBeLessThan(300);
    }
    await page.goto('/admin?tab=data-sources&sub=integrations');
    await page.getByRole('button', { name: 'Connect Zendesk' }).click();
    const wizard = page.getByRole('dialog', { name: 'Connect Zendesk' });
    const pending = wizard.getByTestId('pending-integrations');
    await pending.waitFor();
    expect(await pending.innerText()).toContain('2 unfinished Zendesk connections');
    await h.shot('admin-wizard-pending');
    await pending.getByTestId('pending-integration').filter({ hasText: 'Abandoned' }).getByRole('button', { name: 'Discard' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Discard' }).click();
    await expect.poll(async () => (await h.server.http('GET', '/api/integrations')).body.map((i: { name: string }) => i.name)).toEqual(['Half done']);
    await pending.getByTestId('pending-integration').filter({ hasText: 'Abandoned' }).waitFor({ state: 'detached' });
    await pending.getByTestId('pending-integration').filter({ hasText: 'Half done' }).getByRole('button', { name: 'Resume' }).click();
    await wizard.getByTestId('wizard-config').waitFor();
    await wizard.getByText('Integration: Half done').waitFor();
  });
});
