import { describe, expect, it } from 'vitest';
import { ingest, seed, usePublicBrowser } from './publicFixtures';

/** A condition polled for up to 15 s (the machine is shared; expect.poll's default is 1 s). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

const h = usePublicBrowser();

/** 13 genres as in the movies data set, each with a different number of films (13 down to 1). */
const GENRES = [
  'Drama', 'Comedy', 'Action', 'Adventure', 'Thriller/Suspense', 'Horror', 'Romantic Comedy',
  'Musical', 'Black Comedy', 'Documentary', 'Western', 'Concert/Performance', 'Multiple Genres',
];
const RATINGS = ['PG', 'PG-13', 'R'];
const YEAR = 365.25 * 86_400_000;
const MOVIES = GENRES.flatMap((genre, g) =>
  Array.from({ length: GENRES.length - g }, (_, i) => ({
    Title: `${genre} film ${i + 1}`,
    Major_Genre: genre,
    MPAA_Rating: RATINGS[(g + i) % 3],
    Release_Date: new Date(Date.now() - (g * 13 + i) * 37 * 86_400_000 - 2 * YEAR).toISOString(),
  })),
).map((m, i) => ({ id: i + 1, ...m }));

const CHARTS = {
  id: 'charts', name: 'Charts', style: null, configuration: {},
  widgets: [
    { id: 'genres', name: 'Films by genre', type: 'bar', configuration: { groupField: 'Major_Genre', topN: 20 }, layout: { x: 0, y: 0, w: 6, h: 6 } },
    { id: 'stacked', name: 'Genre by rating', type: 'bar', configuration: { groupField: 'Major_Genre', stackField: 'MPAA_Rating', topN: 5, order: 'label', horizontal: true }, layout: { x: 6, y: 0, w: 6, h: 6 } },
    { id: 'releases', name: 'Releases per day', type: 'line', configuration: { dateField: 'Release_Date', interval: 'day', points: 500 }, layout: { x: 0, y: 6, w: 12, h: 4 } },
  ],
};
const BOARD = { id: 'board', name: 'Board', style: 'bucket', configuration: { bucketKey: 'Major_Genre', buckets: [{ key: 'Major_Genre', width: 300 }], displayKeys: ['Title'] }, widgets: [] };
const TABLE = { id: 'table', name: 'Table', style: 'table', configuration: {}, widgets: [] };

const widget = (name: string) => h.page.locator('[data-testid=widget]', { hasText: name });
const tableRows = (name: string) =>
  widget(name).getByTestId('widget-table').locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));

describe('the viewer uses the screen', () => {
  it('labels every one of 13 genre bars, stacks by a second field, and keeps the data tables out of the layout', async () => {
    const { id } = await seed(h, [CHARTS], { name: 'Movies', records: MOVIES });
    const { page } = h;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/dashboards/${id}`);
    await poll(() => tableRows('Films by genre').then((r) => r.length)).toBe(13);
    // Largest first, every genre its own bar (no "Other": 13 of at most 20).
    expect((await tableRows('Films by genre')).map((r) => r[0])).toEqual(GENRES);

    // Every category label is drawn, none over another: read the chart's own text.
    const bar = widget('Films by genre').locator('div[role=img] svg');
    await bar.waitFor();
    const labels = () => bar.evaluate((svg) => [...svg.querySelectorAll('text')].map((t) => {
      const b = t.getBoundingClientRect();
      return { text: t.textContent ?? '', x: b.x, y: b.y, w: b.width, h: b.height };
    }).filter((l) => l.w > 0 && l.h > 0));
    await poll(async () => (await labels()).length).toBeGreaterThanOrEqual(13);
    const drawn = await labels();
    const shown = GENRES.map((g) => drawn.find((l) => l.text === g || (l.text.endsWith('…') && g.startsWith(l.text.slice(0, -1)))));
    expect(shown.map((l, i) => l?.text ?? `missing ${GENRES[i]}`)).toEqual(GENRES.map((g) => (g.length > 18 ? `${g.slice(0, 17)}…` : g)));
    // Turned 45°, two labels are parallel lines: apart by their distance across × sin 45°, at least a 12 px line.
    const centres = shown.map((l) => l!.x + l!.w / 2);
    const tooClose = centres.slice(1).map((c, i) => ({ pair: `${shown[i]!.text} / ${shown[i + 1]!.text}`, apart: (c - centres[i]) * Math.SQRT1_2 })).filter((d) => d.apart < 12);
    expect(tooClose).toEqual([]);
    // A shortened label shows in full on hover (the axis tooltip).
    const cut = shown.find((l) => l!.text.endsWith('…'))!;
    // Turned labels end under their bar: hover just above the axis there.
    await page.mouse.move(cut.x + cut.w - 4, cut.y - 16);
    // The tooltip is the chart host's second child (the first holds the drawing).
    const tooltip = () => widget('Films by genre').locator('div[role=img]').evaluate((el) => [...el.children].slice(1).filter((c) => getComputedStyle(c).display !== 'none' && getComputedStyle(c).opacity !== '0').map((c) => c.textContent).join(' '));
    await poll(tooltip).toContain('Concert/Performance');

    // Stacked (saved as a stackField): the top 5 genres by label, the rest "Other", each split by rating: a column per rating.
    expect(await tableRows('Genre by rating')).toEqual([
      ['Action', '4', '3', '4'], ['Adventure', '4', '3', '3'], ['Comedy', '4', '4', '4'], ['Drama', '5', '4', '4'],
      ['Thriller/Suspense', '3', '3', '3'], ['Other', '15', '9', '12'],
    ]);
    expect(await widget('Genre by rating').getByTestId('widget-table').locator('thead th').allInnerTexts()).toEqual(['Major_Genre', 'PG', 'PG-13', 'R']);

    // 500 days behind the line take no room, and read as dates, not ISO timestamps.
    const days = await tableRows('Releases per day');
    expect(days).toHaveLength(500);
    expect(days.at(-1)![0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(1400);
    const box = await widget('Releases per day').getByTestId('widget-table').evaluate((t) => t.parentElement!.getBoundingClientRect().height);
    expect(box).toBeLessThanOrEqual(1);
    await h.shot('viewer-bars-13-genres');
  }, 60_000);

  it('fills the width with bucket columns in a stable order that one change never reshuffles', async () => {
    const { id, ds } = await seed(h, [BOARD, TABLE], { name: 'Movies', records: MOVIES });
    const { page } = h;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/dashboards/${id}`);
    await page.getByTestId('bucket-group').first().waitFor();
    const titles = () => page.getByTestId('bucket-title').allInnerTexts();
    // By title (the default), whatever order the records came in.
    await poll(async () => (await titles()).length).toBe(12);
    expect(await titles()).toEqual([...GENRES].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })).slice(0, 12));
    // Columns at least the Bucket Width (300), sharing the whole row: 4 of them across 1,392 px.
    const grid = await page.getByTestId('bucket-grid').boundingBox();
    const widths = await page.getByTestId('bucket-group').evaluateAll((gs) => gs.map((g) => Math.round(g.getBoundingClientRect().width)));
    const lefts = new Set(await page.getByTestId('bucket-group').evaluateAll((gs) => gs.map((g) => Math.round(g.getBoundingClientRect().left))));
    expect(lefts.size).toBe(4);
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(300);
    expect(Math.max(...widths)).toBeLessThan(400);
    expect(lefts.size * widths[0] + (lefts.size - 1) * 16).toBeGreaterThan(grid!.width - 4);
    await h.shot('viewer-bucket-fills-1440');

    // One record changing group reshuffles nothing: the titles keep their places.
    const before = await titles();
    await ingest(h, ds.sourceId, [{ ...MOVIES[0], Major_Genre: 'Comedy' }]);
    const count = (genre: string) => page.getByTestId('bucket-group').filter({ has: page.getByTestId('bucket-title').getByText(genre, { exact: true }) }).locator('.ant-badge [title]').getAttribute('title');
    await poll(() => count('Comedy')).toBe('13');
    expect(await count('Drama')).toBe('12');
    expect(await titles()).toEqual(before);

    // TV mode on a 1,920 px screen: five columns across it, still at least 300 px each.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`/dashboards/${id}?tv=1&page=0`);
    await page.getByTestId('bucket-group').first().waitFor();
    await poll(async () => new Set(await page.getByTestId('bucket-group').evaluateAll((gs) => gs.map((g) => Math.round(g.getBoundingClientRect().left)))).size).toBe(5);
    const tv = await page.getByTestId('bucket-group').evaluateAll((gs) => gs.map((g) => Math.round(g.getBoundingClientRect().width)));
    expect(Math.min(...tv)).toBeGreaterThanOrEqual(300);
    expect(5 * tv[0] + 4 * 16).toBeGreaterThan(1920 - 2 * 32 - 4);
    await h.shot('tv-bucket-fills-1920');
  });

  it('TV mode hides the filter box and toggles and pages through a table and a long board by itself', async () => {
    const { id } = await seed(h, [TABLE, { ...BOARD, configuration: { ...BOARD.configuration, bucketKey: 'MPAA_Rating', buckets: [{ key: 'MPAA_Rating', width: 300 }] } }], { name: 'Movies', records: MOVIES });
    const { page } = h;
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`/dashboards/${id}?tv=1&page=3`);
    const table = page.getByTestId('records-table');
    await table.waitFor();
    expect(await page.getByLabel('Filter records').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Show All Fields' }).count()).toBe(0);
    const at = () => table.evaluate((el) => ({ page: el.dataset.tvPage, top: Math.round(el.scrollTop) }));
    await poll(async () => (await at()).page).toBe('1');
    expect((await at()).top).toBeGreaterThan(100);
    await h.shot('tv-table-page-2');
    await poll(async () => (await at()).page).toBe('2');
    // After the last page: back to the top.
    await table.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await poll(async () => (await at()).top).toBe(0);

    // A board whose columns are longer than the screen pages them too (tab 2, rotating).
    await page.goto(`/dashboards/${id}?tv=1&page=3&rotate=5`);
    const cards = page.getByTestId('bucket-cards').first();
    await cards.waitFor({ timeout: 20_000 });
    await poll(() => cards.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await h.shot('tv-board-paging');
  });

  it('fits a 390 px phone: no sideways scroll, nothing overlapping', async () => {
    const { id } = await seed(h, [CHARTS, BOARD, TABLE], { name: 'Movies', records: MOVIES });
    const { page } = h;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/dashboards/${id}`);
    await poll(() => tableRows('Films by genre').then((r) => r.length)).toBe(13);
    await widget('Films by genre').locator('div[role=img] svg').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await h.shot('viewer-phone-charts');
    for (const tab of ['Board', 'Table']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByTestId(tab === 'Board' ? 'bucket-group' : 'records-table').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), tab).toBeLessThanOrEqual(390);
    }
    await h.shot('viewer-phone-table');
  });
});
