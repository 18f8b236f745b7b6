import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { BrowserHarness } from './browser';
import { seedSource, signIn, startAdminBrowser, toast } from './adminHelpers';

/** A condition polled for up to 15 s (the machine is shared; expect.poll's default is 1 s). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/**
 * Picks options of a labelled select (one, or several in order for a multiple select) in the select's
 * own dropdown, then closes it. A click landing while the dropdown slides in (loaded machine) is tried again.
 */
async function pick(page: Page, scope: Locator, label: string, options: string[]) {
  const select = scope.getByLabel(label, { exact: true });
  const box = select.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]');
  // The fields picked (a field select names each with data-field-option), a multiple select's tags, or what a single select shows.
  const tags = async () => {
    const fields = await box.locator('[data-field-option]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field-option') ?? ''));
    if (fields.length) return fields;
    const items = await box.locator('.ant-select-selection-item').allInnerTexts();
    return items.length ? items : [(await box.innerText()).trim()];
  };
  for (const option of options) {
    for (let attempt = 0; ; attempt++) {
      if ((await tags()).includes(option)) break;
      if (attempt === 3) throw new Error(`${label} did not take "${option}": ${JSON.stringify(await tags())} ${(await box.innerHTML()).slice(0, 1500)}`);
      await select.click();
      const list = await select.getAttribute('aria-controls');
      const dropdown = page.locator('.ant-select-dropdown', { has: page.locator(`[id="${list}"]`) });
      await dropdown.locator('.ant-select-item-option', { hasText: option }).first().click();
      await expect.poll(tags, { timeout: 3_000 }).toContain(option).catch(() => {});
    }
  }
  // Close a dropdown left open by a click beside it (Escape would close the editor's drawer too).
  await page.locator('.ant-drawer-title').last().click();
  await expect.poll(() => select.getAttribute('aria-expanded'), { timeout: 5_000 }).not.toBe('true');
}

/** A card's text with its label and value on one line ("subject: Ticket 1"), lines joined by " | ". */
const oneLine = (t: string) => t.replace(/:\s*\n?\s*/g, ': ').split('\n').map((l) => l.trim()).filter(Boolean).join(' | ');

const TICKETS = Array.from({ length: 6 }, (_, i) => ({
  ticket_id: i + 1, subject: `Ticket ${i + 1}`, status: ['open', 'closed', 'open'][i % 3], priority: ['high', 'low'][i % 2],
}));

const WIDGETS = [
  { id: 'open', name: 'Open tickets', type: 'kpi', configuration: { metric: 'count', filter: { field: 'status', operator: 'eq', value: 'open' } }, layout: { x: 0, y: 0, w: 3, h: 2 } },
  { id: 'list', name: 'Ticket list', type: 'table', configuration: { columns: [{ name: 'subject', visible: true, width: 180, order: 0 }, { name: 'status', visible: true, width: 120, order: 1 }] }, layout: { x: 3, y: 0, w: 9, h: 6 } },
  { id: 'board', name: 'Status board', type: 'bucket', configuration: { bucketKey: 'status', displayKeys: ['subject'] }, layout: { x: 0, y: 6, w: 12, h: 7 } },
];

describe('the widget builder\'s live preview', () => {
  let h: BrowserHarness;
  let rawFetches = 0;
  let ds: { id: string; sourceId: string };
  const widget = (id: string) => h.page.locator(`[data-testid=builder-widget][data-widget-id=${id}]`);
  const kpi = () => widget('open').getByTestId('kpi-value').getAttribute('data-value');
  const cards = (group: string) => widget('board').getByTestId('bucket-group').filter({ has: h.page.getByTestId('bucket-title').getByText(group, { exact: true }) }).getByTestId('bucket-card').allInnerTexts().then((ts) => ts.map(oneLine));

  beforeAll(async () => {
    h = await startAdminBrowser();
    ds = await seedSource(h, 'Helpdesk', TICKETS);
    const created = await h.server.http('POST', '/api/admin/dashboards', {
      body: { name: 'Queue', description: '', dataSourceId: ds.id, configuration: { tabs: [{ id: 'tab1', name: 'Overview', style: null, configuration: {}, widgets: WIDGETS }] } },
    });
    expect(created.status).toBe(201);
    h.page.on('request', (r) => {
      if (r.url().includes('/api/data/raw')) rawFetches++;
    });
    await signIn(h.page, '/admin?tab=dashboard-builder&sub=widgets');
  });
  afterAll(() => h?.close());

  it('draws the table and the bucket board from the source and follows an ingest without refetching', async () => {
    const { page } = h;
    await page.getByTestId('widgets-screen').waitFor();
    await poll(kpi).toBe('4');
    // The table shows its configured columns over the source's records; the board groups them by status.
    await poll(() => widget('list').getByTestId('row-count').innerText()).toBe('6 records');
    expect(await widget('list').getByTestId('field-count').innerText()).toBe('Showing 2 of 4 fields');
    expect(await widget('list').getByTestId('table-row').first().innerText()).toMatch(/^Ticket 1\s+open/);
    await poll(() => cards('open')).toEqual(['subject: Ticket 1', 'subject: Ticket 3', 'subject: Ticket 4', 'subject: Ticket 6']);
    expect(await cards('closed')).toEqual(['subject: Ticket 2', 'subject: Ticket 5']);
    await poll(() => page.getByTestId('preview-summary').innerText()).toBe('Live preview with 6 of 6 records of Helpdesk');
    // In the source's room: pushed changes arrive from here on.
    await page.locator('[data-testid=preview-live][data-live=true]').waitFor();
    await h.shot('widgets-builder-live-preview');
    const fetchesBefore = rawFetches;
    expect(fetchesBefore).toBeGreaterThan(0);
    await page.evaluate(() => ((window as unknown as { __same: boolean }).__same = true));

    // A new open ticket and ticket 1 closed, over HTTP.
    const t0 = Date.now();
    const res = await h.server.http('POST', '/api/data/ingest', {
      body: { sourceId: ds.sourceId, records: [{ ticket_id: 7, subject: 'Ticket 7', status: 'open', priority: 'high' }, { ...TICKETS[0], status: 'closed' }] },
    });
    expect(res.status).toBe(200);
    await poll(() => widget('list').getByTestId('row-count').innerText()).toBe('7 records');
    console.log(`the preview's table showed the ingested record ${Date.now() - t0} ms after the ingest was sent (polled every 100 ms)`);
    await poll(() => cards('open')).toEqual(['subject: Ticket 3', 'subject: Ticket 4', 'subject: Ticket 6', 'subject: Ticket 7']);
    expect(await cards('closed')).toEqual(['subject: Ticket 1', 'subject: Ticket 2', 'subject: Ticket 5']);
    await poll(kpi).toBe('4');
    expect(await widget('list').getByTestId('table-row').first().innerText()).toMatch(/^Ticket 1\s+closed/);
    await poll(() => page.getByTestId('preview-summary').innerText()).toBe('Live preview with 7 of 7 records of Helpdesk');
    // Another open ticket moves the tile.
    await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ ticket_id: 8, subject: 'Ticket 8', status: 'open', priority: 'low' }] } });
    await poll(kpi).toBe('5');
    // Deltas, not refetches, and no reload.
    expect(rawFetches).toBe(fetchesBefore);
    expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);
  });

  it('sets a table widget\'s columns in the order picked and a bucket board\'s key, refusing a board without one', async () => {
    const { page } = h;
    const editor = page.getByTestId('widget-editor');
    await page.locator('[data-testid=preview-live][data-live=true]').waitFor();
    await page.getByRole('button', { name: 'Add widget' }).hover();
    await page.getByRole('menuitem', { name: 'Bucket board' }).click();
    await editor.getByLabel('Title').fill('By priority');
    await editor.getByRole('button', { name: 'Done' }).click();
    await editor.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Save widgets' }).click();
    await poll(() => page.getByTestId('widget-problems').innerText()).toContain('By priority: Pick a field to bucket by');

    const added = page.locator('[data-testid=builder-widget]', { hasText: 'By priority' });
    await added.getByRole('button', { name: 'Edit By priority' }).click();
    expect(await editor.getByText('Pick a field to bucket by').count()).toBe(1);
    await pick(page, editor, 'Bucket key', ['priority']);
    await pick(page, editor, 'Fields on each card', ['subject', 'status']);
    await editor.getByRole('button', { name: 'Done' }).click();
    await editor.waitFor({ state: 'hidden' });
    await poll(() => added.getByTestId('bucket-title').allInnerTexts()).toEqual(['high', 'low']);
    expect(oneLine(await added.getByTestId('bucket-card').first().innerText())).toMatch(/^subject: Ticket 1 \| status: (open|closed)$/);

    // The table's columns: status first, then priority and subject, in the order picked.
    await widget('list').getByRole('button', { name: 'Edit Ticket list' }).click();
    const columns = editor.getByLabel('Columns', { exact: true }).locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]');
    const picked = () => columns.locator('[data-field-option]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field-option')));
    expect(await picked()).toEqual(['subject', 'status']);
    // Take subject out (status keeps its settings) by unticking it in the list, then pick priority and subject again.
    const select = editor.getByLabel('Columns', { exact: true });
    await select.click();
    const list = await select.getAttribute('aria-controls');
    await page.locator('.ant-select-dropdown', { has: page.locator(`[id="${list}"]`) }).locator('.ant-select-item-option', { has: page.locator('[data-field-option="subject"]') }).first().click();
    await poll(picked).toEqual(['status']);
    await page.keyboard.press('Escape');
    await pick(page, editor, 'Columns', ['priority', 'subject']);
    await editor.getByRole('button', { name: 'Done' }).click();
    await editor.waitFor({ state: 'hidden' });
    await poll(() => widget('list').getByTestId('field-count').innerText()).toBe('Showing 3 of 4 fields');
    expect((await widget('list').getByRole('columnheader').allInnerTexts()).slice(0, 3)).toEqual(['status', 'priority', 'subject']);
    await page.locator('.ant-drawer-mask').first().waitFor({ state: 'hidden' });
    await h.shot('widgets-builder-table-bucket');

    await page.getByRole('button', { name: 'Save widgets' }).click();
    await toast(page, 'Widgets saved');
    const [d] = (await h.server.http('GET', '/api/admin/dashboards')).body as { configuration: { tabs: { widgets: { name: string; configuration: Record<string, unknown> }[] }[] } }[];
    const saved = d.configuration.tabs[0].widgets;
    expect(saved.find((w) => w.name === 'Ticket list')!.configuration.columns).toEqual([
      { name: 'status', visible: true, width: 120, order: 0 }, { name: 'priority', visible: true, width: 150, order: 1 }, { name: 'subject', visible: true, width: 150, order: 2 },
    ]);
    expect(saved.find((w) => w.name === 'By priority')!.configuration).toMatchObject({ bucketKey: 'priority', displayKeys: ['subject', 'status'] });
  });
});
