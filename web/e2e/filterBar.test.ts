import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { sharedBrowser } from './browser';
import { sidebar, signIn } from './adminHelpers';
import { DESKTOP, usePublicBrowser } from './publicFixtures';

/**
 * The dashboard's filter bar: an anonymous viewer narrows every widget with a category
 * multi-select (values with counts), a date range and a number range; the filtered view is a link
 * (reopened in a new browser context: the same filters, the same totals). A share link with a locked
 * filter shows it as a fixed chip and only the matching records, live. The builder's preview counts
 * every record of a source of more than 1,000.
 */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 100 });
const h = usePublicBrowser();

const GENRES = ['Drama', 'Comedy', 'Action', 'Horror'];
/** 40 movies: genres in turn, one a year from 1981, ratings 1 to 10 in turn. */
const MOVIES = Array.from({ length: 40 }, (_, i) => ({
  id: i + 1, title: `Movie ${i + 1}`, genre: GENRES[i % 4], released: `${1981 + i}-06-15`, rating: (i % 10) + 1,
}));
const count = (test: (m: (typeof MOVIES)[number]) => boolean) => MOVIES.filter(test).length;

const WIDGETS = [
  { id: 'shown', name: 'Movies shown', type: 'kpi', configuration: { metric: 'count' }, layout: { x: 0, y: 0, w: 4, h: 2 } },
  { id: 'all', name: 'All movies', type: 'kpi', ignoreDashboardFilters: true, configuration: { metric: 'count' }, layout: { x: 4, y: 0, w: 4, h: 2 } },
  { id: 'genres', name: 'By genre', type: 'bar', configuration: { groupField: 'genre' }, layout: { x: 8, y: 0, w: 4, h: 5 } },
  { id: 'list', name: 'Movie list', type: 'table', configuration: { columns: [{ name: 'title', visible: true, width: 160, order: 0 }, { name: 'genre', visible: true, width: 120, order: 1 }, { name: 'rating', visible: true, width: 100, order: 2 }] }, layout: { x: 0, y: 2, w: 8, h: 6 } },
];
const FILTERS = [
  { id: 'genre', kind: 'category', field: 'genre', label: 'Genre' },
  { id: 'released', kind: 'date', field: 'released', label: 'Released' },
  { id: 'rating', kind: 'number', field: 'rating', label: 'Rating' },
];

async function seedMovies(opts: { publish: boolean }) {
  const ds = (await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Movies' } })).body as { id: string; sourceId: string };
  expect((await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, primaryKey: 'id', records: MOVIES } })).status).toBe(200);
  // The source's type model (released: a date-time) is inferred after the ingest.
  await h.server.app.fieldTypes.settle();
  const res = await h.server.http('POST', '/api/admin/dashboards', {
    body: { name: 'Movies', dataSourceId: ds.id, isPublished: opts.publish, configuration: { filters: FILTERS, tabs: [{ id: 'tab1', name: 'Overview', style: null, configuration: {}, widgets: WIDGETS }] } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, ds };
}

const kpi = (page: Page, name: string) => page.locator('[data-testid=widget]', { hasText: name }).getByTestId('kpi-value').getAttribute('data-value');
const rowCount = (page: Page) => page.locator('[data-testid=widget]', { hasText: 'Movie list' }).getByTestId('row-count').innerText();
const cellTexts = (page: Page, column: number) =>
  page.locator('[data-testid=widget]', { hasText: 'Movie list' }).getByTestId('table-row').evaluateAll((rows, c) => rows.map((r) => (r.querySelectorAll('[role=cell]')[c] as HTMLElement).innerText), column);

/** The open dropdown of the select labelled `label` (found by the list it controls). */
async function dropdownOf(page: Page, label: string) {
  const select = page.getByLabel(label, { exact: true });
  await select.click();
  const list = await select.getAttribute('aria-controls');
  return page.locator('.ant-select-dropdown', { has: page.locator(`[id="${list}"]`) });
}

/** Somewhere else: a context of its own (nothing shared with the test's page: no cookies, no storage). */
async function elsewhere(baseURL: string): Promise<BrowserContext> {
  return (await sharedBrowser()).newContext({ viewport: DESKTOP, baseURL });
}

describe('the dashboard filter bar', () => {
  it('an anonymous viewer narrows every widget and table (category with counts, date range, number range); the URL reopened elsewhere shows the same', async () => {
    const { id } = await seedMovies({ publish: true });
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await poll(() => kpi(page, 'Movies shown')).toBe('40');
    const bar = page.getByTestId('filter-bar');
    await bar.waitFor();

    // Category: the list shows each value with its count, searchable.
    const genre = page.getByLabel('Filter Genre', { exact: true });
    const dropdown = await dropdownOf(page, 'Filter Genre');
    await poll(() => dropdown.locator('.ant-select-item-option').allInnerTexts()).toEqual(['Action (10)', 'Comedy (10)', 'Drama (10)', 'Horror (10)']);
    await genre.fill('dra');
    await poll(() => dropdown.locator('.ant-select-item-option').allInnerTexts()).toEqual(['Drama (10)']);
    await dropdown.locator('.ant-select-item-option', { hasText: 'Drama' }).click();
    await genre.fill('com');
    await dropdown.locator('.ant-select-item-option', { hasText: 'Comedy' }).click();
    await page.keyboard.press('Escape');
    const dramaOrComedy = (m: (typeof MOVIES)[number]) => m.genre === 'Drama' || m.genre === 'Comedy';
    await poll(() => kpi(page, 'Movies shown')).toBe(String(count(dramaOrComedy)));
    // The opted-out widget keeps counting everything.
    expect(await kpi(page, 'All movies')).toBe('40');

    // Date range: a custom range of days (1990-01-01 to 2005-12-31).
    await (await dropdownOf(page, 'Filter Released: range')).locator('.ant-select-item-option', { hasText: 'Custom range' }).click();
    await page.getByLabel('From day').fill('1990-01-01');
    await page.getByLabel('To day').fill('2005-12-31');
    const inYears = (m: (typeof MOVIES)[number]) => m.released >= '1990' && m.released < '2006';
    await poll(() => kpi(page, 'Movies shown')).toBe(String(count((m) => dramaOrComedy(m) && inYears(m))));
    // The genre list now counts the movies of those years (its own picks aside): what each value would show.
    const genreCounts = ['Action', 'Comedy', 'Drama', 'Horror']
      .map((g) => ({ g, n: count((m) => m.genre === g && inYears(m)) }))
      .filter(({ n }) => n > 0)
      .sort((a, b) => b.n - a.n || a.g.localeCompare(b.g))
      .map(({ g, n }) => `${g} (${n})`);
    expect(genreCounts.join()).not.toBe('Action (10),Comedy (10),Drama (10),Horror (10)');
    const narrowed = await dropdownOf(page, 'Filter Genre');
    await poll(() => narrowed.locator('.ant-select-item-option').allInnerTexts()).toEqual(genreCounts);
    await page.keyboard.press('Escape');

    // Number range: at least 5.
    await page.getByLabel('Filter Rating: minimum').fill('5');
    await page.getByLabel('Filter Rating: minimum').press('Enter');
    const all = (m: (typeof MOVIES)[number]) => dramaOrComedy(m) && inYears(m) && m.rating >= 5;
    const expected = count(all);
    expect(expected).toBeGreaterThan(0);
    await poll(() => kpi(page, 'Movies shown')).toBe(String(expected));
    // The table and the bar chart read the same records.
    await poll(() => rowCount(page)).toBe(`${expected} records`);
    expect(new Set(await cellTexts(page, 1))).toEqual(new Set(['Drama', 'Comedy'].filter((g) => MOVIES.some((m) => all(m) && m.genre === g))));
    expect(await kpi(page, 'All movies')).toBe('40');

    // The state is in the URL: reopened in a new browser, the same filters and totals.
    const url = new URL(page.url());
    expect(url.searchParams.getAll('f.genre').sort()).toEqual(['Comedy', 'Drama']);
    expect(url.searchParams.get('f.rating')).toBe('5..');
    expect(url.searchParams.get('f.released')).toBe('1990-01-01T00:00:00.000Z..2006-01-01T00:00:00.000Z');
    await h.shot('filter-bar-viewer');
    const context = await elsewhere(h.server.url);
    try {
      const again = await context.newPage();
      await again.goto(url.pathname + url.search);
      await poll(() => kpi(again, 'Movies shown')).toBe(String(expected));
      await poll(() => rowCount(again)).toBe(`${expected} records`);
      expect(await kpi(again, 'All movies')).toBe('40');
      const picked = again.getByTestId('filter-genre').locator('.ant-select-selection-item');
      // (less the "+ N" tag of values that do not fit)
      expect((await picked.allInnerTexts()).map((t) => t.trim()).filter((t) => !t.startsWith('+')).sort()).toEqual(['Comedy', 'Drama']);
      expect(await again.getByLabel('Filter Rating: minimum').inputValue()).toBe('5');
      expect(await again.getByTestId('filter-released').innerText()).toContain('1990-01-01 – 2005-12-31');
      await h.shot('filter-bar-reopened', again);
      // Clear filters: every record again, and the URL says so.
      await again.getByTestId('filters-clear').click();
      await poll(() => kpi(again, 'Movies shown')).toBe('40');
      expect(new URL(again.url()).search).toBe('');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a share link with a locked filter shows it as a fixed chip and holds only matching records, live and in its CSV', async () => {
    const { id, ds } = await seedMovies({ publish: false });
    const link = await h.server.http('POST', `/api/admin/dashboards/${id}/links`, { body: { label: 'Horror fans', filters: [{ field: 'genre', operator: 'eq', value: 'Horror' }] } });
    expect(link.status).toBe(201);
    const { page } = h;
    await page.goto(link.body.path);
    const horror = count((m) => m.genre === 'Horror');
    await poll(() => kpi(page, 'Movies shown')).toBe(String(horror));
    // Even the opted-out widget sees only what the link allows: the server sent nothing else.
    expect(await kpi(page, 'All movies')).toBe(String(horror));
    const chip = page.getByTestId('locked-filter');
    expect(await chip.innerText()).toBe('genre = Horror');
    expect(await chip.locator('.ant-tag-close-icon').count()).toBe(0);
    await poll(() => rowCount(page)).toBe(`${horror} records`);
    expect(new Set(await cellTexts(page, 1))).toEqual(new Set(['Horror']));
    // The viewer's own filters narrow further, never wider.
    const genres = await dropdownOf(page, 'Filter Genre');
    await poll(() => genres.locator('.ant-select-item-option').allInnerTexts()).toEqual(['Horror (10)']);
    await page.keyboard.press('Escape');

    // Live: a new horror film arrives, a new drama does not.
    await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 101, title: 'New horror', genre: 'Horror', released: '2001-01-01', rating: 9 }, { id: 102, title: 'New drama', genre: 'Drama', released: '2001-01-01', rating: 9 }] } });
    await poll(() => kpi(page, 'Movies shown')).toBe(String(horror + 1));
    await poll(() => rowCount(page)).toBe(`${horror + 1} records`);
    expect(await page.getByText('New drama').count()).toBe(0);
    await h.shot('filter-bar-locked-link');

    // Its CSV holds the same records.
    const csv = await page.request.get(`/api/share/${link.body.token}/export`);
    const text = await csv.text();
    expect(text).toContain('New horror');
    expect(text).not.toContain('Drama');
    expect(text.trim().split('\n')).toHaveLength(horror + 2);
  }, 120_000);

  it("the builder's preview counts every record of a source of more than 1,000", async () => {
    const ds = (await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Big source' } })).body as { id: string; sourceId: string };
    // 1,200 records in three batches (one database command each; the offline engine is slow on large writes).
    for (let b = 0; b < 3; b++) {
      const records = Array.from({ length: 400 }, (_, i) => ({ n: b * 400 + i + 1, kind: ['a', 'b', 'c'][(b * 400 + i) % 3] }));
      expect((await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, primaryKey: 'n', records } })).status).toBe(200);
    }
    const widgets = [
      { id: 'count', name: 'Records', type: 'kpi', configuration: { metric: 'count' }, layout: { x: 0, y: 0, w: 4, h: 2 } },
      { id: 'kinds', name: 'Kinds', type: 'bar', configuration: { groupField: 'kind' }, layout: { x: 4, y: 0, w: 8, h: 5 } },
    ];
    const created = await h.server.http('POST', '/api/admin/dashboards', { body: { name: 'Big', dataSourceId: ds.id, configuration: { tabs: [{ id: 'tab1', name: 'Overview', style: null, configuration: {}, widgets }] } } });
    expect(created.status).toBe(201);
    const context = await elsewhere(h.server.url);
    try {
      const page = await context.newPage();
      await signIn(page, '/admin?tab=dashboard-builder&sub=widgets');
      await page.getByTestId('widgets-screen').waitFor();
      await h.shot('filter-bar-builder-start', page);
      await poll(() => page.getByTestId('preview-summary').innerText()).toBe('Live preview with 1,200 of 1,200 records of Big source');
      await poll(() => page.locator('[data-testid=builder-widget][data-widget-id=count]').getByTestId('kpi-value').getAttribute('data-value')).toBe('1200');
      const bars = page.locator('[data-testid=builder-widget][data-widget-id=kinds]').getByTestId('widget-table').locator('tbody tr');
      await poll(() => bars.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)))).toEqual([['a', '400'], ['b', '400'], ['c', '400']]);
      await h.shot('filter-bar-builder-full-count', page);

      // The admin places the filter bar in the Configure editor: a draft until "Save filters", guarded on the way out.
      await page.goto(`/admin?tab=dashboard-builder&sub=configure&dashboard=${created.body.id}`);
      await page.getByTestId('filters-open').click();
      const editor = page.getByTestId('filters-editor');
      await editor.getByRole('button', { name: /Add filter/ }).click();
      const field = editor.getByLabel('Filter 1 field', { exact: true });
      await field.click();
      const list = await field.getAttribute('aria-controls');
      await page.locator('.ant-select-dropdown', { has: page.locator(`[id="${list}"]`) }).locator('[data-field-option="kind"]').click();
      await expect.poll(() => editor.locator('[data-field-option="kind"]').count()).toBeGreaterThan(0);
      await page.getByTestId('unsaved-tag').waitFor();
      await h.shot('filter-bar-editor', page);
      await editor.getByRole('button', { name: 'Save filters' }).click();
      await poll(async () => ((await h.server.http('GET', `/api/admin/dashboards/${created.body.id}`)).body as { configuration: { filters: unknown[] } }).configuration.filters).toEqual([{ id: 'kind', kind: 'category', field: 'kind' }]);
      await poll(() => page.getByTestId('unsaved-tag').count()).toBe(0);

      // A share link with a locked filter, made in the Share dialog.
      await editor.locator('.ant-drawer-close').click();
      await page.getByTestId('config-editor').getByRole('button', { name: 'Close' }).click();
      await sidebar(page, 'published-dashboards');
      await page.getByTestId('published-card').filter({ hasText: 'Big' }).getByRole('button', { name: 'Share' }).click();
      const dialog = page.getByRole('dialog', { name: 'Share "Big"' });
      await dialog.getByLabel('Label').fill('Kind a only');
      const lockField = dialog.getByLabel('Locked filter field', { exact: true });
      await lockField.click();
      const lockList = await lockField.getAttribute('aria-controls');
      await page.locator('.ant-select-dropdown', { has: page.locator(`[id="${lockList}"]`) }).locator('[data-field-option="kind"]').click();
      await dialog.getByLabel('Locked filter value').fill('a');
      await dialog.getByRole('button', { name: 'Create Link' }).click();
      await dialog.getByTestId('link-locked-filter').getByText('kind = a').waitFor();
      const links = (await h.server.http('GET', `/api/admin/dashboards/${created.body.id}/links`)).body as { filters: unknown[] }[];
      expect(links.map((l) => l.filters)).toEqual([[{ field: 'kind', operator: 'eq', value: 'a' }]]);
      const url = (await dialog.getByTestId('share-url').innerText()).trim();
      expect(((await h.server.http('GET', `/api/share/${url.split('/s/')[1]}`, { token: null })).body as { records: unknown[] }).records).toHaveLength(400);
      await h.shot('filter-bar-share-dialog', page);
    } finally {
      await context.close();
    }
  }, 120_000);
});
