import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { BrowserHarness } from './browser';
import { seedSource, signIn, startAdminBrowser, toast } from './adminHelpers';

/** Films with release dates in every written form the one date reader takes, two of them empty. */
const FILMS = [
  { id: 1, Title: 'Jaws', Released: 'Jun 12 1998', crew: { director: 'Spielberg', size: 120 } },
  { id: 2, Title: 1941, Released: '2024-03-01 10:00', crew: { director: 'Spielberg', size: 300 } },
  { id: 3, Title: 'Alien', Released: '01/02/2024', crew: { director: 'Scott', size: 90 } },
  { id: 4, Title: 'Heat', Released: '12 Jun 1997', crew: { director: 'Mann', size: 150 } },
  { id: 5, Title: 'Ran', Released: 'June 12, 1999', crew: { director: 'Kurosawa', size: 200 } },
  { id: 6, Title: 'Up', Released: '', crew: { director: 'Docter', size: 80 } },
  { id: 7, Title: 'Big', Released: '2023-05-01T08:00:00Z', crew: { director: 'Marshall', size: 70 } },
  { id: 8, Title: 'Tron', Released: null, crew: { director: 'Lisberger', size: 60 } },
  { id: 9, Title: 'Fargo', Released: 1_700_000_000, crew: { director: 'Coen', size: 50 } },
];
// 1 700 000 000 is epoch seconds (2023-11-14T22:13:20Z): a date because the field is a date-time.
const ASCENDING = ['4', '1', '5', '7', '9', '3', '2'];
const EMPTY_LAST = ['6', '8'];
const ISO: Record<number, string> = {
  1: '1998-06-12T00:00:00.000Z', 2: '2024-03-01T10:00:00.000Z', 3: '2024-01-02T00:00:00.000Z', 4: '1997-06-12T00:00:00.000Z',
  5: '1999-06-12T00:00:00.000Z', 7: '2023-05-01T08:00:00.000Z', 9: '2023-11-14T22:13:20.000Z',
};

describe('the type model in the browser', () => {
  let h: BrowserHarness;
  let source: { id: string; sourceId: string };
  let dashboardId: string;
  beforeAll(async () => {
    h = await startAdminBrowser();
    source = await seedSource(h, 'Films', FILMS);
    // The types follow the ingest a moment later.
    for (let i = 0; ; i++) {
      const ds = ((await h.server.http('GET', '/api/data/sources')).body as DataSourceDto[]).find((d) => d.id === source.id)!;
      if (ds.fieldTypes.Released === 'datetime') break;
      if (i > 200) throw new Error(`no types: ${JSON.stringify(ds.fieldTypes)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const columns = ['id', 'Title', 'Released', 'crew.director'].map((name, order) => ({ name, visible: true, width: 180, order }));
    const created = await h.server.http('POST', '/api/admin/dashboards', {
      body: { name: 'Films', dataSourceId: source.id, isPublished: true, configuration: { tabs: [{ id: 't1', name: 'Films', style: 'table', configuration: { sortable: true, filterable: true, columns } }] } },
    });
    expect(created.status).toBe(201);
    dashboardId = created.body.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  const firstColumn = () => h.page.getByTestId('table-row').evaluateAll((rows) => rows.map((r) => (r.querySelector('[role=cell]') as HTMLElement).innerText));
  const cell = (id: number, col: number) => h.page.locator(`[data-record-id="${id}"] [role=cell]`).nth(col).innerText();

  it('shows dates in every written form as dates, sorts them in time order with empties last both ways, and exports them as ISO 8601', async () => {
    const { page } = h;
    await page.goto(`/dashboards/${dashboardId}`);
    await page.getByTestId('table-row').first().waitFor();
    // "1941" is a film title: shown as written, not as a number.
    expect(await cell(2, 1)).toBe('1941');
    // Written dates read as dates (as written, no time zone shift); a nested leaf path is a column.
    expect(await cell(1, 2)).toBe('Jun 12, 1998');
    expect(await cell(4, 2)).toBe('Jun 12, 1997');
    expect(await cell(3, 2)).toBe('Jan 2, 2024');
    expect(await cell(2, 2)).toBe('Mar 1, 2024, 10:00 AM');
    expect(await cell(6, 2)).toBe('-');
    expect(await cell(1, 3)).toBe('Spielberg');

    const released = page.getByRole('columnheader', { name: 'Released' });
    await released.click();
    await page.waitForFunction(() => document.querySelectorAll('[role=columnheader]')[2]?.getAttribute('aria-sort') === 'ascending');
    expect(await firstColumn()).toEqual([...ASCENDING, ...EMPTY_LAST]);
    await h.shot('field-types-sorted-ascending');
    await released.click();
    await page.waitForFunction(() => document.querySelectorAll('[role=columnheader]')[2]?.getAttribute('aria-sort') === 'descending');
    expect(await firstColumn()).toEqual([...[...ASCENDING].reverse(), ...EMPTY_LAST]);
    await h.shot('field-types-sorted-descending');

    // The CSV of what the table shows: a date-time field's dates as ISO 8601, the title as written.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = fs.readFileSync((await download.path())!, 'utf8').slice(1).trim().split('\r\n').map((l) => l.split(','));
    expect(rows[0].slice(0, 4)).toEqual(['id', 'Title', 'Released', 'crew.director']);
    const byId = new Map(rows.slice(1).map((r) => [Number(r[0]), r]));
    for (const [id, iso] of Object.entries(ISO)) expect(byId.get(Number(id))![2], `film ${id}`).toBe(iso);
    expect(byId.get(6)![2]).toBe('');
    expect(byId.get(2)![1]).toBe('1941');
    // The server's full export writes the same.
    const full = await h.server.http('GET', `/api/dashboards/${dashboardId}/export?tab=t1`, { token: null });
    expect(full.status).toBe(200);
    for (const iso of Object.values(ISO)) expect(full.text).toContain(iso);
    expect(full.text).not.toContain('Jun 12 1998');
  });

  it('shows each field\'s inferred type in the console and saves a type set by a person', async () => {
    const { page } = h;
    await signIn(page);
    const card = page.locator(`[data-testid="data-source-card"][data-source-id="${source.sourceId}"]`);
    await card.getByRole('button', { name: 'Fields' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('field-types').waitFor();
    const typeOf = (path: string) => dialog.getByLabel(`Type of ${path}`).locator('xpath=ancestor::div[contains(@class,"ant-select")][1]').innerText();
    expect(await typeOf('Released')).toBe('Automatic: Date & time');
    expect(await typeOf('Title')).toBe('Automatic: Text');
    expect(await typeOf('crew.size')).toBe('Automatic: Number');
    expect(await typeOf('crew.director')).toBe('Automatic: Text');
    await h.shot('field-types-dialog');
    await dialog.getByLabel('Type of crew.director').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('Category').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Field types saved');
    const ds = ((await h.server.http('GET', '/api/data/sources')).body as DataSourceDto[]).find((d) => d.id === source.id)!;
    expect(ds.fieldTypesSet).toEqual({ 'crew.director': 'category' });
    expect(ds.fieldTypes['crew.director']).toBe('category');
  });
});
