import { describe, expect, it } from 'vitest';
import { BUCKET_TAB, RECORDS, TABLE_TAB, col, firstColumn as firstColumnOf, seed as seedFor, usePublicBrowser } from './publicFixtures';

const h = usePublicBrowser();
const seed = (tabs: unknown[], opts?: Parameters<typeof seedFor>[2]) => seedFor(h, tabs, opts);
const firstColumn = () => firstColumnOf(h);

describe('viewer states', () => {
  it('shows Dashboard Not Found for unknown and unpublished dashboards, with a way back', async () => {
    const { id } = await seed([TABLE_TAB], { publish: false });
    for (const path of ['/dashboards/000000000000000000000000', `/dashboards/${id}`]) {
      await h.page.goto(path);
      await h.page.getByText('Dashboard Not Found').waitFor();
      expect(await h.page.getByText('The requested dashboard could not be found.').isVisible()).toBe(true);
    }
    // Nothing live to show or export: the header keeps only its back button.
    expect(await h.page.getByTestId('live-indicator').count()).toBe(0);
    expect(await h.page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    expect(await h.page.getByRole('button', { name: 'Back', exact: true }).isVisible()).toBe(true);
    await h.page.getByRole('button', { name: 'Back to Dashboards', exact: true }).click();
    await h.page.waitForURL((u) => u.pathname === '/dashboards');
  });

  it('shows a load failure with Retry', async () => {
    const { id } = await seed([TABLE_TAB]);
    let fail = true;
    await h.page.route(`**/api/dashboards/${id}`, (route) => (fail ? route.fulfill({ status: 500, body: 'boom' }) : route.continue()));
    await h.page.goto(`/dashboards/${id}`);
    await h.page.getByText('Failed to fetch dashboard').waitFor();
    fail = false;
    await h.page.getByRole('button', { name: 'Retry' }).click();
    await h.page.getByTestId('table-row').first().waitFor();
    await h.page.unroute(`**/api/dashboards/${id}`);
  });

  it('shows a loading skeleton until the dashboard arrives', async () => {
    const { id } = await seed([TABLE_TAB]);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await h.page.route(`**/api/dashboards/${id}`, async (route) => {
      await held;
      await route.continue();
    });
    await h.page.goto(`/dashboards/${id}`);
    await h.page.getByTestId('viewer-skeleton').waitFor();
    expect(await h.page.getByTestId('viewer-header-skeleton').isVisible()).toBe(true);
    expect(await h.page.getByTestId('table-row').count()).toBe(0);
    release();
    await h.page.getByTestId('table-row').first().waitFor();
    expect(await h.page.getByTestId('viewer-skeleton').count()).toBe(0);
    await h.page.unroute(`**/api/dashboards/${id}`);
  });

  it('shows No Tabs Configured', async () => {
    const { id } = await seed([]);
    await h.page.goto(`/dashboards/${id}`);
    await h.page.getByText('No Tabs Configured', { exact: true }).waitFor();
    expect(await h.page.getByText('This dashboard has no tabs configured yet.').isVisible()).toBe(true);
    // Screen readers: the dashboard name is the page's one h1, inside the header; the body is main.
    expect(await h.page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Support Board']);
    expect(await h.page.getByRole('main').count()).toBe(1);
    expect(await h.page.getByText('Live • Updates every 30s').isVisible()).toBe(true);
  });

  it('renders visible widgets with titles, and No Widgets when none is visible', async () => {
    const widgets = [
      { id: 'w1', name: 'Ticket Table', type: 'table', visible: true, configuration: { columns: [col('ticket_id', 0), col('status', 1)] } },
      { id: 'w2', name: 'Status Board', type: 'kanban', visible: true, configuration: { bucketKey: 'status' } },
      { id: 'w3', name: 'Hidden Widget', type: 'table', visible: false, configuration: {} },
    ];
    const { id } = await seed([
      { id: 'tw', name: 'Widgets', style: 'table', configuration: {}, widgets },
      { id: 'tn', name: 'Nothing', style: 'table', configuration: {}, widgets: [{ ...widgets[2] }] },
    ]);
    await h.page.goto(`/dashboards/${id}`);
    await h.page.getByText('Ticket Table').waitFor();
    expect(await h.page.getByTestId('widget').count()).toBe(2);
    expect(await h.page.getByText('Hidden Widget').count()).toBe(0);
    // The widgets draw once the records arrive (and the board once it has measured its width).
    await h.page.getByTestId('bucket-group').first().waitFor();
    await expect.poll(() => h.page.getByTestId('table-row').count()).toBe(RECORDS.length);
    await h.shot('public-viewer-widgets');
    await h.page.getByRole('tab', { name: 'Nothing' }).click();
    await h.page.getByText('No Widgets', { exact: true }).waitFor();
    expect(await h.page.getByText('This tab has no visible widgets configured.').isVisible()).toBe(true);
  });
});

describe('table view', () => {
  it('draws configured columns with badges and cell rules, filters, sorts and toggles fields', async () => {
    const { id } = await seed([TABLE_TAB, BUCKET_TAB]);
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await page.getByTestId('table-row').first().waitFor();
    expect(await page.getByRole('tab', { selected: true }).innerText()).toBe('All Tickets');
    const headers = await page.getByRole('columnheader').allInnerTexts();
    expect(headers.map((t) => t.trim())).toEqual(['ticket_id', 'Subject', 'status', 'priority', 'meta', 'tags', 'notes', 'Channel', 'Last Updated']);
    expect(await page.getByTestId('field-count').innerText()).toBe('Showing 8 of 9 fields');

    const row1 = page.locator('[data-record-id="1"]');
    expect(await row1.locator('[data-badge]').evaluateAll((b) => b.map((x) => x.getAttribute('data-badge')))).toEqual(['blue', 'red']);
    const text1 = await row1.innerText();
    expect(text1).toContain('{"a":1,"b":"two","c":[1,2,3],"d":"a fairly long st...');
    expect(text1).toContain('3 items');
    expect(text1).toContain(`${'x'.repeat(100)}...`);
    expect(text1).toContain('(130 characters)');
    expect(text1).toContain('email');
    const badges = async (rid: string) => page.locator(`[data-record-id="${rid}"] [data-badge]`).evaluateAll((b) => b.map((x) => x.getAttribute('data-badge')));
    expect(await badges('2')).toEqual(['green', 'yellow']);
    expect(await badges('3')).toEqual(['yellow', 'blue']);
    expect(await badges('4')).toEqual(['gray', 'gray']);
    expect(await page.locator('[data-record-id="2"]').innerText()).toMatch(/0 items/);
    expect((await page.locator('[data-record-id="2"] [role=cell]').allInnerTexts()).filter((t) => t.trim() === '-').length).toBeGreaterThanOrEqual(2);

    await page.getByPlaceholder('Filter records...').fill('CLOSED');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=table-row]').length === 1);
    expect(await firstColumn()).toEqual(['2']);
    await page.getByPlaceholder('Filter records...').fill('no such thing');
    await page.getByText('No Records Found', { exact: true }).waitFor();
    expect(await page.getByText('Try adjusting your filter criteria.').isVisible()).toBe(true);
    await page.getByPlaceholder('Filter records...').fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=table-row]').length === 5);

    await page.getByRole('columnheader', { name: 'ticket_id' }).click();
    await page.waitForFunction(() => document.querySelector('[role=columnheader]')!.getAttribute('aria-sort') === 'ascending');
    expect(await firstColumn()).toEqual(['1', '2', '3', '4', '5']);
    await page.getByRole('columnheader', { name: 'ticket_id' }).click();
    await page.waitForFunction(() => document.querySelector('[role=columnheader]')!.getAttribute('aria-sort') === 'descending');
    expect(await firstColumn()).toEqual(['5', '4', '3', '2', '1']);

    // The same by keyboard: Tab reaches a sortable header, Enter and Space toggle it.
    const subject = page.getByRole('columnheader', { name: 'Subject' });
    await page.getByRole('columnheader', { name: 'ticket_id' }).focus();
    await page.keyboard.press('Tab');
    expect(await subject.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('[role=columnheader]')[1].getAttribute('aria-sort') === 'ascending');
    expect(await firstColumn()).toEqual(['2', '5', '1', '3', '4']);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.querySelectorAll('[role=columnheader]')[1].getAttribute('aria-sort') === 'descending');
    expect(await firstColumn()).toEqual(['4', '3', '1', '5', '2']);
    await page.getByRole('columnheader', { name: 'ticket_id' }).click();
    await page.getByRole('columnheader', { name: 'ticket_id' }).click();
    await page.waitForFunction(() => document.querySelector('[role=columnheader]')!.getAttribute('aria-sort') === 'descending');

    await page.getByRole('button', { name: 'Show All Fields' }).click();
    await page.getByRole('button', { name: 'Show Configured' }).waitFor();
    expect(await page.getByRole('columnheader').filter({ hasText: 'Extra' }).count()).toBeGreaterThan(0);
    await h.shot('public-viewer-table-all-fields');
    expect(await page.getByTestId('field-count').innerText()).toMatch(/^Showing (\d+) of \1 fields$/);
    await page.getByRole('button', { name: 'Show Configured' }).click();
    expect(await page.getByRole('columnheader').filter({ hasText: 'Extra' }).count()).toBe(0);
    expect(await firstColumn()).toEqual(['5', '4', '3', '2', '1']);
  });

  it('hides the filter and does not sort when the tab says so, and shows Last Updated in local time', async () => {
    const { id } = await seed([{ ...TABLE_TAB, configuration: { ...TABLE_TAB.configuration, filterable: false, sortable: false } }]);
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await page.getByTestId('table-row').first().waitFor();
    expect(await page.getByPlaceholder('Filter records...').count()).toBe(0);
    const header = page.getByRole('columnheader', { name: 'ticket_id' });
    expect(await header.getAttribute('tabindex')).toBeNull();
    await header.click();
    await page.waitForTimeout(200);
    expect(await header.getAttribute('aria-sort')).toBe('none');
    expect(await firstColumn()).toEqual(['1', '2', '3', '4', '5']);

    const view = (await h.server.http('GET', `/api/dashboards/${id}`, { token: null })).body as { records: { recordId: string; lastUpdated: string }[] };
    const { lastUpdated } = view.records.find((r) => r.recordId === '1')!;
    const shown = await page.locator('[data-record-id="1"] [role=cell]').last().innerText();
    expect(shown).toBe(await page.evaluate((iso) => new Date(iso).toLocaleString(), lastUpdated));
    expect(shown).not.toContain('T');
  });

  it('uses every field of the first record without configured columns, and shows No data available', async () => {
    const { id } = await seed([{ id: 't', name: 'Raw', style: 'table', configuration: {}, widgets: [] }], { records: [{ k: 'a', v: 1, custom_fields: [{ id: 9, value: 'z' }] }] });
    await h.page.goto(`/dashboards/${id}`);
    await h.page.getByTestId('table-row').first().waitFor();
    // One name per field: a custom field reads "Custom Field <id>" here as in the editor and the CSV.
    expect((await h.page.getByRole('columnheader').allInnerTexts()).map((t) => t.trim())).toEqual(['k', 'v', 'Custom Field 9', 'Last Updated']);
    const empty = await seed([{ id: 't', name: 'Empty', style: 'table', configuration: { columns: [col('k', 0)] }, widgets: [] }], { records: [] });
    await h.page.goto(`/dashboards/${empty.id}`);
    await h.page.getByText('No Records Found', { exact: true }).waitFor();
    expect(await h.page.getByText('No data available for this view.').isVisible()).toBe(true);
    const none = await seed([{ id: 't', name: 'None', style: 'table', configuration: { columns: [{ ...col('k', 0), visible: false }] }, widgets: [] }], { records: [] });
    await h.page.goto(`/dashboards/${none.id}`);
    await h.page.getByText('No Columns Configured', { exact: true }).waitFor();
  });
});
