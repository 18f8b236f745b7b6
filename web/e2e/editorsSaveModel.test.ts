import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { BrowserHarness } from './browser';
import { seedSource, signIn, startAdminBrowser, toast } from './adminHelpers';

/** A condition polled for up to 10 s (the machine is shared). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const confirmBox = (page: Page) => page.locator('.ant-modal-confirm');

/** Waits for the "Discard unsaved changes?" question naming `name` and answers it. */
async function answerDiscard(page: Page, name: string, answer: 'Keep editing' | 'Discard changes') {
  const box = confirmBox(page);
  await box.locator('.ant-modal-confirm-title', { hasText: 'Discard unsaved changes?' }).waitFor();
  expect(await box.innerText()).toContain(`"${name}" have not been saved`);
  await box.getByRole('button', { name: answer }).click();
  await box.waitFor({ state: 'detached' });
}

interface EditorCase {
  /** The tab the editor is on, and the tab a switch goes to. */
  tab: string;
  other: string;
  /** Makes an unsaved edit. */
  edit(editor: Locator, page: Page): Promise<void>;
  /** Whether the edit is still on screen. */
  kept(editor: Locator, page: Page): Promise<boolean>;
}

const CASES: Record<string, EditorCase> = {
  'tab name': {
    tab: 'All', other: 'Board',
    async edit(editor) {
      await editor.getByRole('button', { name: 'Rename All' }).click();
      await editor.getByLabel('Tab name').fill('Renamed');
      // Leaving the field keeps the typed name as an unsaved edit (it is not saved by itself).
      await editor.getByTestId('config-editor-title').click();
    },
    kept: async (editor) => (await editor.getByLabel('Tab name').inputValue()) === 'Renamed',
  },
  'table settings': {
    tab: 'All', other: 'Board',
    async edit(editor) {
      await editor.getByTestId('preview-table').waitFor();
      await editor.getByRole('button', { name: 'Edit Mode' }).click();
      await editor.getByLabel('Visible status').uncheck();
      // Sortable is a setting like the others: kept until Save Changes.
      await editor.getByText('Sortable', { exact: true }).click();
    },
    kept: async (editor) => (await editor.locator('[data-column="status"]').getAttribute('data-visible')) === 'false'
      && !(await editor.getByRole('checkbox', { name: 'Sortable' }).isChecked()),
  },
  'bucket settings': {
    tab: 'Board', other: 'All',
    async edit(editor) {
      await editor.getByLabel('Bucket Width').fill('240');
      await editor.getByLabel('Bucket Width').blur();
    },
    kept: async (editor) => (await editor.getByLabel('Bucket Width').inputValue()) === '240',
  },
  widgets: {
    tab: 'Widgets', other: 'All',
    async edit(editor, page) {
      await editor.getByRole('button', { name: 'Edit Films' }).click();
      const panel = page.getByTestId('widget-editor');
      await panel.getByLabel('Title').fill('Films now');
      await panel.getByRole('button', { name: 'Done' }).click();
      await panel.waitFor({ state: 'hidden' });
      // The layout is part of the same draft: move the tile one column right from the keyboard.
      await editor.getByRole('button', { name: 'Move Films now', exact: true }).press('ArrowRight');
    },
    kept: async (editor) => (await editor.getByTestId('builder-widget').first().innerText()).includes('Films now'),
  },
};

describe('one way to save: every editor keeps its edits until Save, and every way out asks first', () => {
  let h: BrowserHarness;
  let dashboardId = '';
  const tabs = async () => (await h.server.http('GET', `/api/admin/dashboards/${dashboardId}`)).body.configuration.tabs;
  const editorUrl = () => `/admin?tab=dashboard-builder&sub=configure&dashboard=${dashboardId}`;

  beforeAll(async () => {
    h = await startAdminBrowser();
    const ds = await seedSource(h, 'Films', Array.from({ length: 6 }, (_, i) => ({
      film_id: i + 1, Title: `Film ${i + 1}`, Major_Genre: ['Drama', 'Comedy'][i % 2], status: ['released', 'planned'][i % 2], Release_Date: new Date(Date.UTC(2000 + i, 0, 1)).toISOString(),
    })));
    const columns = ['film_id', 'Title', 'Major_Genre', 'status'].map((name, order) => ({ name, visible: true, width: 150, order }));
    const created = await h.server.http('POST', '/api/admin/dashboards', {
      body: {
        name: 'Cinema', dataSourceId: ds.id, isPublished: true,
        configuration: { tabs: [
          { id: 't1', name: 'All', style: 'table', configuration: { columns }, widgets: [] },
          { id: 't2', name: 'Board', style: 'bucket', configuration: { bucketKey: 'status', buckets: [{ key: 'status', width: 300 }], displayKeys: ['Title'] }, widgets: [] },
          { id: 't3', name: 'Widgets', style: null, configuration: {}, widgets: [{ id: 'w1', name: 'Films', type: 'kpi', configuration: { metric: 'count' }, layout: { x: 0, y: 0, w: 4, h: 2 } }] },
        ] },
      },
    });
    dashboardId = created.body.id;
    await signIn(h.page, '/admin?tab=dashboard-builder&sub=configure');
  });
  afterAll(async () => {
    await h?.close();
  });

  for (const [what, c] of Object.entries(CASES)) {
    it(`${what}: tab switch, Close, Escape, the sidebar and a reload each ask, and nothing is lost`, async () => {
      const { page } = h;
      const before = JSON.stringify(await tabs());
      // Opened from the grid, so the back button has a console page to go back to.
      await page.goto('/admin?tab=dashboard-builder&sub=configure');
      await page.getByTestId('configure-card').getByRole('button', { name: 'Configure' }).click();
      const editor = page.getByTestId('config-editor');
      await editor.getByRole('tab', { name: c.tab }).click();
      await c.edit(editor, page);
      await editor.getByTestId('unsaved-tag').waitFor();
      expect(await c.kept(editor, page)).toBe(true);

      const ways: [string, () => Promise<unknown>][] = [
        ['tab switch', () => editor.getByRole('tab', { name: c.other }).click()],
        ['Close', () => editor.getByRole('button', { name: 'Close' }).click()],
        ['Escape', async () => {
          await editor.getByTestId('config-editor-title').click();
          await page.keyboard.press('Escape');
        }],
        // The sidebar is behind the full-screen editor: its in-page navigation event is the same path.
        ['sidebar', () => page.evaluate(() => window.dispatchEvent(new CustomEvent('admin:navigate', { detail: { mainTab: 'data-sources', subTab: 'overview' } })))],
        ['back button', () => page.evaluate(() => window.history.back())],
      ];
      for (const [way, leave] of ways) {
        await leave();
        await answerDiscard(page, what === 'tab name' ? 'All' : c.tab, 'Keep editing');
        expect(await c.kept(editor, page), `${what} after ${way}`).toBe(true);
      }
      if (what === 'tab name') await h.shot('editors-rename-unsaved');
      if (what === 'widgets') await h.shot('editors-widgets-unsaved');
      // A reload asks through the browser's own dialog; dismissing it keeps the page and the edit.
      const dialog = new Promise<string>((resolve) => page.once('dialog', (d) => {
        resolve(d.type());
        void d.dismiss();
      }));
      await page.evaluate(() => setTimeout(() => window.location.reload(), 0));
      expect(await dialog).toBe('beforeunload');
      expect(await c.kept(editor, page), `${what} after reload`).toBe(true);
      expect(JSON.stringify(await tabs()), 'nothing saved by itself').toBe(before);

      // Discarding leaves, the saved settings untouched; the editor opens clean again.
      await editor.getByRole('button', { name: 'Close' }).click();
      await answerDiscard(page, what === 'tab name' ? 'All' : c.tab, 'Discard changes');
      await page.getByTestId('configure-grid').waitFor();
      expect(JSON.stringify(await tabs())).toBe(before);
      await page.goto(editorUrl());
      await editor.getByRole('tab', { name: c.tab }).click();
      expect(await editor.getByTestId('unsaved-tag').count()).toBe(0);
    }, 90_000);
  }

  it('saves each editor only with its Save (Enter for a tab name), then leaves without a question', async () => {
    const { page } = h;
    await page.goto(editorUrl());
    const editor = page.getByTestId('config-editor');
    await editor.getByRole('button', { name: 'Rename All' }).click();
    await editor.getByLabel('Tab name').fill('Every film');
    await page.keyboard.press('Enter');
    await poll(async () => (await tabs())[0].name).toBe('Every film');

    await editor.getByRole('tab', { name: 'Widgets' }).click();
    await CASES.widgets.edit(editor, page);
    await editor.getByRole('button', { name: 'Save widgets' }).click();
    await toast(page, 'Widgets saved');
    const [w] = (await tabs())[2].widgets;
    expect(w).toMatchObject({ name: 'Films now', layout: { x: 1, y: 0, w: 4, h: 2 } });
    await poll(() => editor.getByTestId('unsaved-tag').count()).toBe(0);
    await editor.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('configure-grid').waitFor();
    expect(await confirmBox(page).count()).toBe(0);
  }, 60_000);

  it('shows every limit at its input before saving, never applies it silently', async () => {
    const { page } = h;
    await page.goto(editorUrl());
    const editor = page.getByTestId('config-editor');
    await editor.getByRole('tab', { name: 'Widgets' }).click();
    await editor.getByRole('button', { name: 'Edit Films now' }).click();
    const panel = page.getByTestId('widget-editor');
    await panel.getByLabel('Type').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Line / area over time' }).click();
    // A bucket that would draw more points than a chart draws (500) is refused at its input, the choice kept.
    const choose = async (label: string, option: string) => {
      await panel.getByLabel(label, { exact: true }).click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
    };
    await choose('Time range', 'Last 30 days');
    await choose('Bucket', 'By minute');
    const limit = 'By minute, Last 30 days is 43,200 points; a chart draws at most 500. Pick a larger bucket or a shorter range.';
    await panel.getByText(limit).waitFor();
    expect(await panel.getByTestId('bucket-select').innerText()).toBe('By minute');
    await h.shot('editors-points-limit');
    await panel.getByRole('button', { name: 'Done' }).click();
    await editor.getByRole('button', { name: 'Save widgets' }).click();
    await editor.getByTestId('widget-problems').getByText(limit, { exact: false }).waitFor();
    expect((await tabs())[2].widgets[0].type).toBe('kpi');
    await editor.getByRole('button', { name: 'Discard changes' }).click();

    // The Bucket Width's range is said at the input, and Save refuses what is out of it.
    await editor.getByRole('tab', { name: 'Board' }).click();
    await editor.getByLabel('Bucket Width').fill('950');
    await editor.getByText('Bucket Width must be from 200 to 800 pixels').waitFor();
    expect(await editor.getByLabel('Bucket Width').inputValue()).toBe('950');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    expect((await tabs())[1].configuration.buckets).toEqual([{ key: 'status', width: 300 }]);

    // Field selects are searchable: "Major" then Enter picks Major_Genre, not the first field.
    const key = editor.getByLabel('Bucket Key');
    await key.click();
    await key.pressSequentially('Major');
    await page.keyboard.press('Enter');
    await poll(() => editor.locator('.ant-select', { has: page.getByLabel('Bucket Key') }).innerText()).toContain('Major_Genre');
    await editor.getByLabel('Bucket Width').fill('300');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Configuration Saved');
    expect((await tabs())[1].configuration).toMatchObject({ bucketKey: 'Major_Genre', buckets: [{ key: 'Major_Genre', width: 300 }], bucketOrder: 'label' });
  }, 60_000);

  it('fits the widget builder and its editor on a 390 px phone: no sideways scroll, no number over its title', async () => {
    const { page } = h;
    await h.server.http('PATCH', `/api/admin/dashboards/${dashboardId}`, { body: { configuration: { tabs: [
      ...(await tabs()).slice(0, 2),
      { id: 't3', name: 'Widgets', style: null, configuration: {}, widgets: [
        { id: 'w1', name: 'Films in the catalogue', type: 'kpi', configuration: { metric: 'count' }, layout: { x: 0, y: 0, w: 3, h: 2 } },
        { id: 'w2', name: 'Released', type: 'kpi', configuration: { metric: 'count', filter: { field: 'status', operator: 'eq', value: 'released' } }, layout: { x: 3, y: 0, w: 3, h: 2 } },
        { id: 'w3', name: 'Films by genre', type: 'bar', configuration: { groupField: 'Major_Genre' }, layout: { x: 6, y: 0, w: 6, h: 5 } },
      ] },
    ] } } });
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(editorUrl());
      const editor = page.getByTestId('config-editor');
      await editor.getByRole('tab', { name: 'Widgets' }).click();
      await poll(() => editor.getByTestId('kpi-value').count()).toBe(2);
      const wide = () => page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.querySelector('[data-testid=config-editor] > div:last-child')!.scrollWidth));
      expect(await wide()).toBeLessThanOrEqual(390);
      for (const card of await editor.getByTestId('widget').all()) {
        const title = await card.getByTestId('widget-title').boundingBox();
        const value = card.getByTestId('kpi-value');
        if (!(await value.count())) continue;
        const number = (await value.boundingBox())!;
        expect(number.y, 'the number sits under its title').toBeGreaterThanOrEqual(title!.y + title!.height - 1);
        expect(number.x + number.width).toBeLessThanOrEqual(390);
      }
      await h.shot('editors-builder-phone');
      await editor.getByRole('button', { name: 'Edit Films by genre' }).click();
      await page.getByTestId('widget-editor').getByLabel('Title').waitFor();
      expect(await wide()).toBeLessThanOrEqual(390);
      // The panel itself (fixed, so no page scroll would show it) fits the screen once it has slid in.
      const panel = page.locator('.ant-drawer-content-wrapper');
      await poll(async () => { const b = await panel.boundingBox(); return b && Math.round(b.x) >= 0 && Math.round(b.x + b.width) <= 390; }).toBe(true);
      await h.shot('editors-widget-editor-phone');
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 });
    }
  }, 60_000);
});
