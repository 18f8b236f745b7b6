import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHarness } from './browser';
import { seedSource, sidebar, signIn, startAdminBrowser } from './adminHelpers';

const orders = Array.from({ length: 40 }, (_, i) => ({
  order_id: i + 1,
  customer: i === 0 ? '=HYPERLINK("http://evil.example")' : `Customer ${i + 1}`,
  total: (i + 1) * 10,
  placed_at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
}));

/** An option of the select that is open now (closed dropdowns stay in the page, hidden). */
const option = (page: import('playwright-core').Page, text: string | RegExp) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: text });

describe('Export Data', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startAdminBrowser();
    await seedSource(h, 'Other Source', [{ id: 1, x: 'not mine' }]);
    await seedSource(h, 'Orders: 2024/Q1', orders);
    await signIn(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('exports a source as NDJSON with progress, then as CSV with chosen fields and a time range', async () => {
    const { page } = h;
    await sidebar(page, 'data-sources', 'export');
    const screen = page.getByTestId('export-screen');
    await screen.waitFor();
    expect(await page.title()).toBe('Export Data · LiveDash');
    await screen.getByRole('combobox', { name: 'Data source' }).click();
    await option(page, 'Orders: 2024/Q1').click();
    await page.waitForURL(/sub=export&source=/);
    await screen.getByText('NDJSON', { exact: true }).click();
    const [ndjson] = await Promise.all([page.waitForEvent('download'), screen.getByRole('button', { name: 'Export NDJSON' }).click()]);
    expect(ndjson.suggestedFilename()).toBe('Orders_ 2024_Q1.ndjson');
    const lines = fs.readFileSync((await ndjson.path())!, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual(orders);
    await page.locator('[data-testid="export-progress"][data-state="done"]').waitFor();
    expect(await screen.getByTestId('export-progress-text').innerText()).toContain('40 of 40 records');
    await h.shot('export-data-ndjson');

    // CSV: two fields, records placed between Jan 5 and Jan 10 (the time field picked by hand).
    await screen.getByText('CSV', { exact: true }).click();
    await screen.getByRole('combobox', { name: 'Fields' }).click();
    for (const f of ['order_id', 'customer']) await option(page, new RegExp(`^${f}$`)).click();
    await page.keyboard.press('Escape');
    await screen.getByText('Only records in a time range').click();
    await screen.getByRole('combobox', { name: 'Time field' }).click();
    await option(page, /^placed_at$/).click();
    const inputs = screen.locator('.ant-picker-range input');
    await inputs.nth(0).fill('2024-01-05 00:00:00');
    await inputs.nth(0).press('Enter');
    await inputs.nth(1).fill('2024-01-10 00:00:00');
    await inputs.nth(1).press('Enter');
    await page.keyboard.press('Escape');
    await h.shot('export-data-csv-options');
    const [csv] = await Promise.all([page.waitForEvent('download'), screen.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toBe('Orders_ 2024_Q1.csv');
    const bytes = fs.readFileSync((await csv.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = bytes.subarray(3).toString('utf8').trim().split('\r\n');
    expect(rows[0]).toBe('order_id,customer');
    // Local-time picker: the range covers Jan 5–10 in the browser's zone, 5 or 6 whole days.
    expect(rows.length - 1).toBeGreaterThanOrEqual(5);
    expect(rows.length - 1).toBeLessThanOrEqual(6);
    expect(rows.slice(1).every((r) => /^\d+,Customer \d+$/.test(r))).toBe(true);
  });

  it('neutralises formulas in the CSV it saves', async () => {
    const { page } = h;
    const screen = page.getByTestId('export-screen');
    await screen.getByText('Only records in a time range').click();
    const [csv] = await Promise.all([page.waitForEvent('download'), screen.getByRole('button', { name: 'Export CSV' }).click()]);
    const text = fs.readFileSync((await csv.path())!, 'utf8');
    expect(text).toContain(`1,"'=HYPERLINK(""http://evil.example"")"`);
  });
});
