import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHarness } from './browser';
import { sidebar, signIn, startAdminBrowser, toast } from './adminHelpers';

const long = 'x'.repeat(130);

describe('admin console: data sources', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startAdminBrowser();
    await signIn(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows empty states, validates and creates a custom data source with its ingest key', async () => {
    const { page } = h;
    await page.getByTestId('custom-sources').getByText('No custom data sources').waitFor();
    await page.getByTestId('integration-sources').getByText('No integration data sources').waitFor();
    // The dialog focuses its Name field and Escape closes it (a force-rendered hidden dialog used to take Escape).
    await page.getByRole('button', { name: 'Create Data Source' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'createDataSource_name');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Create Data Source' }).click();
    // Validation runs on submit first, so nobody is told off while still typing: typing and clearing the name shows nothing yet.
    await page.getByRole('dialog').getByLabel('Name').fill('x');
    await page.getByRole('dialog').getByLabel('Name').fill('');
    await page.waitForTimeout(300);
    expect(await page.getByText('Name is required').count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByText('Name is required').waitFor();
    // … then again on every change.
    await page.getByRole('dialog').getByLabel('Name').fill('S');
    await page.getByText('Name is required').waitFor({ state: 'detached' });
    await page.getByRole('dialog').getByLabel('Name').fill('');
    await page.getByText('Name is required').waitFor();
    await page.getByRole('dialog').getByLabel('Name').fill('Support Tickets');
    await page.getByRole('dialog').getByLabel('Description').fill('Tickets from the help desk');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Data source created successfully');
    const card = page.getByTestId('data-source-card');
    await card.waitFor();
    expect(await card.getByTestId('primary-key').innerText()).toBe('Not set');
    // Secondary text (labels, dates, ids) reads at WCAG AA: at least 4.5:1 on the white card.
    const contrast = await card.getByText('Source ID:').evaluate((el) => {
      const [r, g, b, a = 1] = (getComputedStyle(el).color.match(/[\d.]+/g) ?? []).map(Number);
      const lin = (v: number) => {
        const c = (v * a + 255 * (1 - a)) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 1.05 / (0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b) + 0.05);
    });
    expect(contrast).toBeGreaterThanOrEqual(4.5);
    await card.getByTestId('no-data-banner').waitFor();
    expect(await card.innerText()).toContain('Active');
    expect(await card.innerText()).toContain('Custom');
    await card.getByTestId('ingest-key-full').waitFor();
    // Tooltips open after 700 ms, not at once (a pointer passing by shows none). The page notes when
    // the pointer arrived and when the tooltip appeared, so a busy machine can only lengthen the gap.
    const copyId = card.getByRole('button', { name: 'Copy Source ID' });
    await copyId.evaluate((button) => {
      const w = window as unknown as { tipTimes: { enter?: number; shown?: number } };
      w.tipTimes = {};
      button.addEventListener('pointerenter', () => { w.tipTimes.enter ??= performance.now(); });
      new MutationObserver((_, observer) => {
        const shown = [...document.querySelectorAll('.ant-tooltip:not(.ant-tooltip-hidden)')].some((t) => t.textContent?.includes('Copy Source ID'));
        if (shown) {
          w.tipTimes.shown = performance.now();
          observer.disconnect();
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await copyId.hover();
    await page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').filter({ hasText: 'Copy Source ID' }).waitFor();
    const { enter, shown } = await page.evaluate(() => (window as unknown as { tipTimes: { enter: number; shown: number } }).tipTimes);
    expect(shown - enter).toBeGreaterThanOrEqual(650);
    await copyId.click();
    await toast(page, 'Source ID copied to clipboard');
  });

  it('changes the card live when records are ingested over HTTP with the ingest key', async () => {
    const { page } = h;
    const card = page.getByTestId('data-source-card');
    const sourceId = await card.getByTestId('source-id').innerText();
    const key = await card.getByTestId('ingest-key-full').innerText();
    await h.shot('admin-data-sources-empty');
    const records = Array.from({ length: 12 }, (_, i) => ({
      ticket_id: 100 + i,
      subject: i === 0 ? long : `Ticket ${i}`,
      status: i % 2 ? 'open' : 'closed',
      meta: { channel: 'email', tags: ['a', 'b'], nested: { deep: 'value-that-makes-the-json-long-enough' } },
      labels: ['x', 'y', 'z'],
      empty: null,
      custom_fields: [{ id: 7, value: `cf-${i}` }, { id: 9, value: i }],
    }));
    const res = await h.server.http('POST', '/api/data/ingest', { body: { sourceId, records }, token: key });
    expect(res.status).toBe(200);
    await card.locator('[data-testid="primary-key"]', { hasText: 'ticket_id' }).waitFor();
    await card.getByTestId('record-count').getByText('12').waitFor();
    expect(await card.getByTestId('no-data-banner').count()).toBe(0);
    await h.shot('admin-data-sources');
  });

  it('shows the data structure, then the raw data with the cell rules and the footer', async () => {
    const { page } = h;
    await page.getByRole('button', { name: 'View Data Structure' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('data-structure').waitFor();
    const structure = await dialog.getByTestId('data-structure').innerText();
    for (const f of ['ticket_id', 'subject', 'meta', 'labels']) expect(structure).toContain(f);
    expect(structure).not.toContain('custom_fields');
    await dialog.getByRole('button', { name: 'Show Raw Data' }).click();
    const table = dialog.getByTestId('raw-table');
    await table.waitFor();
    const text = await table.innerText();
    expect(text).toContain('Custom Field 7');
    expect(text).toContain('Custom Field 9');
    expect(text).toContain('3 items');
    expect(text).toContain('(130 characters total)');
    expect(text).toMatch(/\{"channel":"email".{0,40}\.\.\./);
    expect(await table.locator('tbody tr.ant-table-row').count()).toBe(10);
    const footer = await dialog.getByTestId('raw-footer').innerText();
    expect(footer).toContain('Showing first 10 records of 12 total records');
    expect(footer).toContain('2 custom fields');
    await h.shot('admin-raw-data');
    // A record ingested now shows up without reopening the viewer.
    const sourceId = await page.getByTestId('source-id').innerText();
    await h.server.http('POST', '/api/data/ingest', { body: { sourceId, records: [{ ticket_id: 100, subject: 'Changed live' }] } });
    await table.getByText('Changed live').waitFor();
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('edits labels and the primary key, rotates the ingest key, jumps to the docs and deletes with confirmation', async () => {
    const { page } = h;
    const card = page.getByTestId('data-source-card');
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Support Tickets EU');
    await dialog.locator('input[id$="labels_subject"]').fill('Subject line');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Data source updated successfully');
    await card.getByTestId('data-source-name').getByText('Support Tickets EU').waitFor();
    const list = await h.server.http('GET', '/api/data/sources');
    expect(list.body[0].keyMappings).toEqual({ subject: 'Subject line' });

    await card.getByRole('button', { name: 'Rotate' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Rotate' }).click();
    await toast(page, 'Ingest key rotated');
    await card.getByTestId('ingest-key-full').waitFor();

    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    expect(await confirm.innerText()).toContain('Delete Data Source');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Data source deleted successfully');
    await page.getByTestId('custom-sources').getByText('No custom data sources').waitFor();

    await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Fresh' } });
    await page.getByTestId('data-source-card').waitFor();
    await page.getByRole('button', { name: 'How To Ingest Data' }).click();
    await page.getByTestId('api-docs').waitFor();
    expect(page.url()).toContain('tab=api-docs');
    await sidebar(page, 'data-sources', 'overview');
    await page.getByRole('button', { name: 'Manage Integrations' }).click();
    await page.waitForURL(/sub=integrations/);
  });

  it('keeps two open admin tabs consistent without reloads', async () => {
    const other = await h.context.newPage();
    await other.goto('/admin');
    await other.locator('[data-testid="connection-state"][data-state="live"]').waitFor();
    await other.getByTestId('data-source-card').filter({ hasText: 'Fresh' }).waitFor();
    const { page } = h;
    // A background tab pauses animation frames, which antd's dialogs wait for.
    await page.bringToFront();
    await sidebar(page, 'data-sources', 'overview');
    await page.getByRole('button', { name: 'Create Data Source' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Made in tab one');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Data source created successfully');
    await other.getByTestId('data-source-card').filter({ hasText: 'Made in tab one' }).waitFor();
    await other.close();
  });

  it('shows a load failure where the data would be, with a retry', async () => {
    const { page } = h;
    await page.route('**/api/data/sources', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"boom","message":"Database down"}}' }));
    await page.goto('/admin?tab=data-sources&sub=overview');
    const failure = page.getByTestId('custom-sources').getByTestId('load-error');
    await failure.waitFor();
    expect(await failure.innerText()).toContain('Failed to fetch data sources');
    expect(await failure.innerText()).toContain('Database down');
    await h.shot('admin-load-error');
    await page.unroute('**/api/data/sources');
    await failure.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('data-source-card').first().waitFor();
  });
});
