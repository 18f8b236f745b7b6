import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Download } from 'playwright-core';
import { signIn } from './adminHelpers';
import { seed, usePublicBrowser } from './publicFixtures';

const h = usePublicBrowser();
const STATUS = ['open', 'in progress', 'closed'];
const PRIORITY = ['low', 'high', 'medium', 'low', 'medium'];
const CREATED = '2026-10-31T11:04:05.000Z';
const RECORDS = Array.from({ length: 30 }, (_, i) => ({
  ticket_id: 5000 + i,
  subject: i === 3 ? '=SUM(1,2)' : `Ticket ${i}`,
  status: STATUS[i % 3],
  priority: PRIORITY[i % 5],
  created_at: CREATED,
  updated_at: 1_790_000_000 + i,
  amount: 1234567.5 + i,
  rate: 0.25,
  secret: `s${i}`,
  custom_fields: [{ id: 900, value: `v${i}` }],
}));
const col = (name: string, order: number, extra: Record<string, unknown> = {}) => ({ name, visible: true, width: 150, order, ...extra });
const QUEUE_TAB = {
  id: 'q', name: 'Queue', style: 'table',
  configuration: {
    columns: [
      col('ticket_id', 0), col('subject', 1), col('priority', 2), col('status', 3), col('created_at', 4), col('updated_at', 5),
      col('amount', 6, { format: 'currency', currency: 'EUR' }), col('rate', 7, { format: 'percent' }), col('custom_900', 8), col('secret', 9, { visible: false }),
    ],
  },
  widgets: [],
};

const csvOf = async (d: Download) => fs.readFileSync((await d.path())!, 'utf8');
const rowIds = () => h.page.getByTestId('table-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-record-id'))));

describe('values a person can read, one name per field, CSV as seen', () => {
  it('shows dates, numbers and formats readably, sorts priority by meaning, counts "Showing N of M" and exports what it shows', async () => {
    const { id } = await seed(h, [QUEUE_TAB, { id: 'b', name: 'Board', style: 'bucket', configuration: { bucketKey: 'status' }, widgets: [] }], { name: 'Ops Board', records: RECORDS });
    const { page } = h;
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.goto(`/dashboards/${id}`);
    await page.getByTestId('table-row').first().waitFor();

    // One name per field: the label, else "Custom Field <id>", else the key.
    const headers = await page.getByRole('columnheader').allInnerTexts();
    expect(headers.map((t) => t.trim())).toEqual(['ticket_id', 'Subject', 'priority', 'status', 'created_at', 'updated_at', 'amount', 'rate', 'Custom Field 900', 'Last Updated']);

    const first = page.locator('[data-record-id="5000"]');
    const cells = await first.getByRole('cell').allInnerTexts();
    const expected = await page.evaluate(({ iso, epoch }) => {
      const f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
      return {
        created: f.format(new Date(iso)), updated: f.format(new Date(epoch * 1000)),
        amount: new Intl.NumberFormat(undefined, { style: 'currency', currency: 'EUR' }).format(1234567.5),
        rate: new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 }).format(0.25),
      };
    }, { iso: CREATED, epoch: 1_790_000_000 });
    expect(cells.slice(4, 8)).toEqual([expected.created, expected.updated, expected.amount, expected.rate]);
    expect(cells[0]).toBe('5000');
    // The full value on hover.
    expect(await first.getByRole('cell').nth(4).locator('[title]').getAttribute('title')).toContain(CREATED);

    // Sideways scrolling: a hint at the right edge, the first column stays in place.
    const table = page.getByTestId('records-table');
    await page.getByTestId('scroll-hint-right').waitFor();
    await table.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await page.getByTestId('scroll-hint-right').waitFor({ state: 'detached' });
    const tableBox = (await table.boundingBox())!;
    const firstCell = (await first.getByRole('cell').first().boundingBox())!;
    expect(Math.abs(firstCell.x - tableBox.x)).toBeLessThanOrEqual(2);
    await h.shot('public-viewer-readable-scrolled');
    await table.evaluate((el) => el.scrollTo({ left: 0 }));

    // Priority sorts by meaning: high, medium, low.
    await page.getByRole('columnheader', { name: 'priority' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[role=columnheader]')[2]?.getAttribute('aria-sort') === 'ascending');
    const byPriority = (await rowIds()).map((n) => RECORDS[n - 5000].priority);
    const rank = { high: 0, medium: 1, low: 2 } as Record<string, number>;
    expect(byPriority).toEqual([...byPriority].sort((a, b) => rank[a] - rank[b]));
    expect(byPriority[0]).toBe('high');

    // Filter count.
    await page.getByTestId('row-count').getByText('30 records', { exact: true }).waitFor();
    await page.getByPlaceholder('Filter records...').fill('in progress');
    await page.getByTestId('row-count').getByText('Showing 10 of 30 records', { exact: true }).waitFor();
    await h.shot('public-viewer-readable');

    // Export CSV = what the viewer shows: filter, sort, visible columns, formats; named "<dashboard> - <tab>.csv".
    const seenIds = await rowIds();
    const [seen] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(seen.suggestedFilename()).toBe('Ops Board - Queue.csv');
    const text = await csvOf(seen);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('ticket_id,Subject,priority,status,created_at,updated_at,amount,rate,Custom Field 900,Last Updated');
    expect(lines).toHaveLength(11);
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(seenIds.slice(0, 10));
    const row = lines.find((l) => l.startsWith('5001,'))!;
    // Date-time fields as ISO 8601 (updated_at holds epoch seconds: a date-time by the type model),
    // the set formats written so spreadsheets read them.
    expect(row).toContain(`,${CREATED},${new Date(1_790_000_001 * 1000).toISOString()},1234568.50,25%,v1,`);

    // Show All Fields exports the hidden column too; a formula is neutralised.
    await page.getByPlaceholder('Filter records...').fill('');
    await page.getByTestId('row-count').getByText('30 records', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show All Fields' }).click();
    const [all] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const allText = await csvOf(all);
    expect(allText.split('\r\n')[0]).toContain(',secret,');
    expect(allText).toContain("'=SUM(1,2)");
    expect(allText.slice(1).trim().split('\r\n')).toHaveLength(31);

    // The full export stays available: every record from the server, same file name.
    await page.getByRole('button', { name: 'More export options' }).click();
    const [full] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export all records' }).click()]);
    expect(full.suggestedFilename()).toBe('Ops Board - Queue.csv');
    expect((await csvOf(full)).slice(1).trim().split('\r\n')).toHaveLength(31);

    // A bucket tab exports its records under its own name.
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByTestId('bucket-card').first().waitFor();
    const [board] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(board.suggestedFilename()).toBe('Ops Board - Board.csv');

    // On a phone nothing scrolls the page sideways.
    await page.getByRole('tab', { name: 'Queue' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('scroll-hint-right').waitFor();
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await h.shot('public-viewer-readable-phone');
  }, 90_000);

  it('sets a column format in the table editor and shows one name per field in the raw viewer', async () => {
    const { id, ds } = await seed(h, [QUEUE_TAB], { name: 'Ops Board', records: RECORDS.slice(0, 5) });
    const { page } = h;
    await signIn(page, `/admin?tab=dashboard-builder&sub=configure&dashboard=${id}`);
    const editor = page.getByTestId('config-editor');
    await editor.getByTestId('preview-table').waitFor();
    expect(await editor.getByTestId('column-header').allInnerTexts()).toContain('Custom Field 900');
    await editor.getByRole('button', { name: 'Edit Mode' }).click();
    const formats = editor.getByTestId('column-formats');
    await formats.getByLabel('Format of rate').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last().getByText('Number', { exact: true }).click();
    await formats.getByLabel('Sort order of status').fill('closed');
    await page.keyboard.press('Enter');
    await h.shot('admin-configure-column-formats');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(async () => {
      const tabs = (await h.server.http('GET', `/api/admin/dashboards/${id}`)).body.configuration.tabs;
      const cols = tabs[0].configuration.columns as { name: string; format?: string; sortOrder?: string[] }[];
      return [cols.find((c) => c.name === 'rate')?.format, cols.find((c) => c.name === 'status')?.sortOrder];
    }).toEqual(['number', ['closed']]);
    await editor.getByRole('button', { name: 'Close' }).click();

    await page.goto('/admin?tab=data-sources&sub=overview');
    await page.locator(`[data-source-id="${ds.sourceId}"]`).getByRole('button', { name: 'View Data Structure' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Show Raw Data' }).click();
    const titles = (await dialog.getByTestId('raw-table').locator('thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    expect(titles.filter((t) => t === 'Custom Field 900')).toHaveLength(1);
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles).toContain('Subject');
  }, 60_000);

  it('draws a big bucket board progressively: a few cards per group first, more as a group scrolls', async () => {
    const big = Array.from({ length: 1_600 }, (_, i) => ({ ticket_id: i + 1, subject: `Ticket ${i + 1}`, status: STATUS[i % 3], priority: PRIORITY[i % 5] }));
    const { id } = await seed(h, [{ id: 'b', name: 'Board', style: 'bucket', configuration: { bucketKey: 'status', displayKeys: ['subject', 'priority'] }, widgets: [] }], { records: big });
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await page.getByTestId('bucket-card').first().waitFor();
    const counts = await page.getByTestId('bucket-group').evaluateAll((gs) => gs.map((g) => g.querySelector('.ant-badge [title]')!.getAttribute('title')));
    // Groups by title: closed, in progress, open.
    expect(counts).toEqual(['533', '533', '534']);
    const cardsIn = (i: number) => page.getByTestId('bucket-group').nth(i).getByTestId('bucket-card').count();
    // Every group starts with a page of cards, not its hundreds.
    const first = await cardsIn(0);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(60);
    expect(await page.getByTestId('bucket-card').count()).toBeLessThan(180);
    // Scrolling a group to its end draws more of it; the button does too.
    await page.getByTestId('bucket-group').first().getByTestId('bucket-cards').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => cardsIn(0)).toBeGreaterThan(first);
    const before = await cardsIn(1);
    await page.getByTestId('bucket-group').nth(1).getByRole('button', { name: /Show more/ }).click();
    await expect.poll(() => cardsIn(1)).toBeGreaterThan(before);
    await h.shot('public-viewer-big-board');
  }, 60_000);

  it('titles a board grouped by a date-time field with its dates as the cards show them', async () => {
    const due = ['2026-12-01T09:30:00.000Z', '2026-12-24T18:00:00.000Z'];
    const records = Array.from({ length: 4 }, (_, i) => ({ ticket_id: i + 1, subject: `Ticket ${i + 1}`, due: i === 3 ? null : due[i % 2] }));
    const { id, ds } = await seed(h, [{ id: 'b', name: 'Board', style: 'bucket', configuration: { bucketKey: 'due', displayKeys: ['subject', 'due'] }, widgets: [] }], { records });
    expect((await h.server.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { fieldTypes: { due: 'datetime' } } })).status).toBe(200);
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await page.getByTestId('bucket-card').first().waitFor();
    const titles = page.getByTestId('bucket-title');
    await expect.poll(() => titles.allInnerTexts()).toHaveLength(3);
    const shown = await titles.allInnerTexts();
    // Each date reads as the card's own field does, the stored value on hover; no value: Unassigned.
    const cardDue = await page.getByTestId('bucket-group').first().getByTestId('bucket-card').first().innerText();
    expect(shown[0]).not.toContain('T09:30');
    expect(shown[0]).toMatch(/Dec 1, 2026/);
    expect(cardDue).toContain(shown[0]);
    expect(shown[1]).toMatch(/Dec 24, 2026/);
    expect(await titles.nth(0).getAttribute('title')).toBe(due[0]);
    expect(shown[2]).toBe('Unassigned');
    expect(await titles.nth(2).getAttribute('title')).toBeNull();
  }, 60_000);
});
