import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserHarness } from './browser';
import { seedSource, signIn, startAdminBrowser, toast } from './adminHelpers';

const confirmBox = (page: Page) => page.locator('.ant-modal-confirm');

/** Waits for the "Discard unsaved changes?" question and answers it. */
async function answerDiscard(page: Page, answer: 'Keep editing' | 'Discard changes') {
  const box = confirmBox(page);
  await box.locator('.ant-modal-confirm-title', { hasText: 'Discard unsaved changes?' }).waitFor();
  expect(await box.innerText()).toContain('have not been saved');
  await box.getByRole('button', { name: answer }).click();
  await box.waitFor({ state: 'detached' });
}

describe('configure editor: never lose work, every setting does what it says', () => {
  let h: BrowserHarness;
  let dashboardId = '';
  const tabs = async () => (await h.server.http('GET', `/api/admin/dashboards/${dashboardId}`)).body.configuration.tabs;
  const editorUrl = () => `/admin?tab=dashboard-builder&sub=configure&dashboard=${dashboardId}`;

  beforeAll(async () => {
    h = await startAdminBrowser();
    const ds = await seedSource(h, 'Tickets', Array.from({ length: 9 }, (_, i) => ({
      ticket_id: i + 1, subject: `Ticket ${i + 1}`, status: ['open', 'in progress', 'closed'][i % 3], priority: ['high', 'medium', 'low'][i % 3],
    })));
    const columns = ['ticket_id', 'subject', 'status', 'priority'].map((name, order) => ({ name, visible: true, width: 150, order }));
    const created = await h.server.http('POST', '/api/admin/dashboards', {
      body: {
        name: 'Queue', dataSourceId: ds.id, isPublished: true,
        configuration: { tabs: [
          { id: 't1', name: 'All', style: 'table', configuration: { columns }, widgets: [] },
          { id: 't2', name: 'Board', style: 'bucket', configuration: { bucketKey: 'status', buckets: [{ key: 'status', width: 300 }], displayKeys: ['subject'] }, widgets: [] },
        ] },
      },
    });
    dashboardId = created.body.id;
    await signIn(h.page, '/admin?tab=dashboard-builder&sub=configure');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('asks before Close, Escape, the sidebar, the back button and a reload drop unsaved edits', async () => {
    const { page } = h;
    // Opened from the grid, so the back button has a console page to go back to.
    await page.getByTestId('configure-card').getByRole('button', { name: 'Configure' }).click();
    const editor = page.getByTestId('config-editor');
    await editor.getByTestId('preview-table').waitFor();
    await editor.getByRole('button', { name: 'Edit Mode' }).click();
    // Entering edit mode alone changes nothing.
    expect(await editor.getByText('Unsaved changes').count()).toBe(0);
    await editor.getByLabel('Visible status').uncheck();
    await editor.getByTestId('unsaved-tag').waitFor();

    await editor.getByRole('button', { name: 'Close' }).click();
    await h.shot('admin-configure-unsaved-confirm');
    await answerDiscard(page, 'Keep editing');
    await page.keyboard.press('Escape');
    await answerDiscard(page, 'Keep editing');
    // The sidebar is behind the full-screen editor: the in-page navigation event is the same path.
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('admin:navigate', { detail: { mainTab: 'data-sources', subTab: 'overview' } })));
    await answerDiscard(page, 'Keep editing');
    await page.evaluate(() => window.history.back());
    await answerDiscard(page, 'Keep editing');
    expect(page.url()).toContain(`dashboard=${dashboardId}`);
    await editor.getByTestId('unsaved-tag').waitFor();
    expect(await editor.locator('[data-column="status"]').getAttribute('data-visible')).toBe('false');

    // A reload asks through the browser's own dialog; dismissing it keeps the page.
    const dialog = new Promise<string>((resolve) => page.once('dialog', (d) => {
      resolve(d.type());
      void d.dismiss();
    }));
    await page.evaluate(() => setTimeout(() => window.location.reload(), 0));
    expect(await dialog).toBe('beforeunload');
    await editor.getByTestId('unsaved-tag').waitFor();

    // Discarding really leaves, and the saved settings are untouched.
    await editor.getByRole('button', { name: 'Close' }).click();
    await answerDiscard(page, 'Discard changes');
    await page.getByTestId('configure-grid').waitFor();
    expect((await tabs())[0].configuration.columns.every((c: { visible: boolean }) => c.visible)).toBe(true);

    // Saved edits leave without a question.
    await page.goto(editorUrl());
    await editor.getByRole('button', { name: 'Edit Mode' }).click();
    await editor.getByLabel('Visible status').uncheck();
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Configuration Saved');
    await expect.poll(async () => editor.getByTestId('unsaved-tag').count()).toBe(0);
    await editor.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('configure-grid').waitFor();
    expect(await confirmBox(page).count()).toBe(0);
  });

  it('keeps a tab rename typed and left as an unsaved edit, saved with ✓', async () => {
    const { page } = h;
    await page.goto(editorUrl());
    const editor = page.getByTestId('config-editor');
    await editor.getByRole('button', { name: 'Rename All' }).click();
    await editor.getByLabel('Tab name').fill('Every ticket');
    await editor.getByTestId('config-editor-title').click();
    await editor.getByTestId('unsaved-tag').waitFor();
    expect((await tabs())[0].name).toBe('All');
    await editor.getByRole('button', { name: 'Save the name' }).click();
    await editor.getByRole('tab', { name: 'Every ticket' }).waitFor();
    await expect.poll(async () => (await tabs())[0].name).toBe('Every ticket');
  });

  it('switches a tab between table and bucket style after saying what resets', async () => {
    const { page } = h;
    const editor = page.getByTestId('config-editor');
    await editor.getByTestId('style-switch').getByText('Bucket Style').click();
    let box = confirmBox(page);
    await box.locator('.ant-modal-confirm-title', { hasText: 'Switch "Every ticket" to Bucket Style?' }).waitFor();
    expect(await box.innerText()).toContain('Nothing is grouped until you choose a bucket key.');
    await h.shot('admin-configure-style-switch');
    await box.getByRole('button', { name: 'Switch style' }).click();
    // The question is gone (its closing animation ended) before the next click on the editor.
    await box.waitFor({ state: 'detached' });
    await editor.getByTestId('bucket-editor').waitFor();
    await expect.poll(async () => (await tabs())[0].style).toBe('bucket');
    expect((await tabs())[0].configuration.columns).toHaveLength(4);

    await editor.getByTestId('style-switch').getByText('Table Style').click();
    box = confirmBox(page);
    await box.locator('.ant-modal-confirm-title', { hasText: 'Switch "Every ticket" to Table Style?' }).waitFor();
    expect(await box.innerText()).toContain('Its column setup (4 columns: order, widths, hidden columns and formats) is reset');
    // Cancel changes nothing.
    await box.getByRole('button', { name: 'Cancel' }).click();
    await box.waitFor({ state: 'detached' });
    expect((await tabs())[0].style).toBe('bucket');
    await editor.getByTestId('style-switch').getByText('Table Style').click();
    await confirmBox(page).getByRole('button', { name: 'Switch style' }).click();
    await confirmBox(page).waitFor({ state: 'detached' });
    await editor.getByTestId('preview-table').waitFor();
    await expect.poll(async () => (await tabs())[0].style).toBe('table');
    expect((await tabs())[0].configuration.columns).toEqual([]);
  });

  it('sets the card width of the public board with Bucket Width, previewed live in the editor', async () => {
    const { page } = h;
    const editor = page.getByTestId('config-editor');
    await editor.getByRole('tab', { name: 'Board' }).click();
    const preview = editor.getByTestId('bucket-preview');
    await preview.getByTestId('preview-group').first().waitFor();
    // Columns at least the Bucket Width, sharing the row: a narrower width fits more of them.
    const previewWidth = async () => Math.round((await preview.getByTestId('preview-group').first().boundingBox())!.width);
    const at300 = await previewWidth();
    expect(at300).toBeGreaterThanOrEqual(300);
    await editor.getByLabel('Bucket Width').fill('240');
    await expect.poll(previewWidth).toBeLessThan(at300);
    expect(await previewWidth()).toBeGreaterThanOrEqual(240);
    await h.shot('admin-configure-bucket-preview');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Configuration Saved');
    expect((await tabs())[1].configuration.buckets).toEqual([{ key: 'status', width: 240 }]);

    const viewer = await h.context.newPage();
    try {
      await viewer.goto(`/dashboards/${dashboardId}`);
      await viewer.getByRole('tab', { name: 'Board' }).click();
      await viewer.getByTestId('bucket-group').first().waitFor();
      const widths = () => viewer.getByTestId('bucket-group').evaluateAll((gs) => gs.map((g) => Math.round(g.getBoundingClientRect().width)));
      // Three groups, each column at least 240 px and the same width.
      const at240 = await widths();
      expect(new Set(at240).size).toBe(1);
      expect(at240[0]).toBeGreaterThanOrEqual(240);
      expect(at240[0]).toBeLessThan(480);
      await h.shot('public-viewer-bucket-width-240', viewer);
      // A pushed change of the setting reaches the open viewer.
      await editor.getByLabel('Bucket Width').fill('420');
      await editor.getByRole('button', { name: 'Save Changes' }).click();
      await toast(page, 'Configuration Saved');
      await expect.poll(async () => Math.min(...(await widths())), { timeout: 15_000 }).toBeGreaterThanOrEqual(420);
      // On a phone one column takes the screen's width.
      await viewer.setViewportSize({ width: 390, height: 844 });
      await expect.poll(async () => (await widths()).every((w) => w <= 390 - 24)).toBe(true);
      expect(await viewer.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
      await h.shot('public-viewer-bucket-width-phone', viewer);
    } finally {
      await viewer.close();
    }
  });
});
