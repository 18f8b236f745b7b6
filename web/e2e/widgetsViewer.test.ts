import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cuttableSocket, ingest as ingestFor, lowContrastTexts, seed as seedFor, usePublicBrowser } from './publicFixtures';

/** A condition polled for up to 10 s (the machine is shared; expect.poll's default is 1 s). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

const h = usePublicBrowser();

const TICKETS = [
  { ticket_id: 1, status: 'open', priority: 'high', created_at: new Date().toISOString(), effort: 3 },
  { ticket_id: 2, status: 'open', priority: 'low', created_at: new Date(Date.now() - 86_400_000).toISOString(), effort: 5 },
  { ticket_id: 3, status: 'closed', priority: 'high', created_at: new Date(Date.now() - 2 * 86_400_000).toISOString(), effort: 1 },
  { ticket_id: 4, status: 'in progress', priority: 'medium', created_at: new Date().toISOString(), effort: 8 },
];

const OVERVIEW = {
  id: 'overview', name: 'Overview', style: null, configuration: {},
  widgets: [
    { id: 'open', name: 'Open tickets', type: 'kpi', configuration: { metric: 'count', filter: { field: 'status', operator: 'eq', value: 'open' }, thresholds: [{ value: 3, color: 'red' }] }, layout: { x: 0, y: 0, w: 4, h: 2 } },
    { id: 'effort', name: 'Average effort', type: 'kpi', configuration: { metric: 'avg', valueField: 'effort', decimals: 1, unit: 'h' }, layout: { x: 4, y: 0, w: 4, h: 2 } },
    { id: 'share', name: 'Status share', type: 'donut', configuration: { groupField: 'status' }, layout: { x: 8, y: 0, w: 4, h: 5 } },
    { id: 'priority', name: 'Tickets by priority', type: 'bar', configuration: { groupField: 'priority', topN: 2 }, layout: { x: 0, y: 2, w: 8, h: 5 } },
    { id: 'per-day', name: 'Tickets per day', type: 'line', configuration: { dateField: 'created_at', interval: 'day', points: 7, area: true }, layout: { x: 0, y: 7, w: 12, h: 4 } },
  ],
};
const BOARD = { id: 'board', name: 'Board', style: 'bucket', configuration: { bucketKey: 'status', displayKeys: ['ticket_id'] }, widgets: [] };

/** The aggregated rows a chart widget shows (its screen-reader table). */
const chartRows = (name: string) =>
  h.page.locator('[data-testid=widget]', { hasText: name }).getByTestId('widget-table').locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
const kpi = (name: string) => h.page.locator('[data-testid=widget]', { hasText: name }).getByTestId('kpi-value');

describe('widgets in the public viewer', () => {
  it('draws KPI tiles and charts on the grid and updates them in place on an HTTP ingest, without a reload', async () => {
    const { id, ds } = await seedFor(h, [OVERVIEW, BOARD], { name: 'Support queue', records: TICKETS });
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await poll(() => kpi('Open tickets').getAttribute('data-value')).toBe('2');
    expect(await kpi('Average effort').innerText()).toBe('4.3 h');
    await poll(() => chartRows('Tickets by priority')).toEqual([['high', '2'], ['low', '1'], ['Other', '1']]);
    await page.locator('[data-testid=widget]', { hasText: 'Tickets by priority' }).locator('svg').first().waitFor();
    await page.locator('[data-testid=widget]', { hasText: 'Status share' }).locator('svg').first().waitFor();
    // The line ends with today: 2 tickets today, 1 yesterday, 1 the day before.
    expect((await chartRows('Tickets per day')).map((r) => r[1])).toEqual(['0', '0', '0', '0', '1', '1', '2']);
    // Laid out as configured: the bar sits under the first KPI, the donut to the right of both.
    const box = (name: string) => page.locator('[data-testid=widget]', { hasText: name }).boundingBox();
    const [open, bar, donut] = [await box('Open tickets'), await box('Tickets by priority'), await box('Status share')];
    expect(bar!.y).toBeGreaterThan(open!.y + open!.height - 1);
    expect(donut!.x).toBeGreaterThan(bar!.x + bar!.width - 1);
    await h.shot('widgets-viewer-desktop');
    expect(await lowContrastTexts(h)).toEqual([]);

    // Marks that survive only without a reload and without the chart being drawn anew.
    await page.evaluate(() => {
      (window as unknown as { __same: boolean }).__same = true;
      const svg = [...document.querySelectorAll('[data-testid=widget]')].find((w) => w.textContent?.includes('Tickets by priority'))!.querySelector('svg')!;
      svg.setAttribute('data-mark', 'kept');
    });
    // The page notes when the tile's number and the bar's table change (same clock as this process).
    await page.evaluate(() => {
      const w = window as unknown as { __changed: Record<string, number> };
      w.__changed = {};
      const widgets = [...document.querySelectorAll('[data-testid=widget]')];
      const watch = (name: string, el: Element) => new MutationObserver(() => (w.__changed[name] ??= Date.now())).observe(el, { attributes: true, childList: true, subtree: true, characterData: true });
      watch('kpi', widgets.find((x) => x.textContent?.includes('Open tickets'))!.querySelector('[data-testid=kpi-value]')!);
      watch('bar', widgets.find((x) => x.textContent?.includes('Tickets by priority'))!.querySelector('[data-testid=widget-table] tbody')!);
    });
    const t0 = Date.now();
    const res = await ingestFor(h, ds.sourceId, [{ ticket_id: 5, status: 'open', priority: 'high', created_at: new Date().toISOString(), effort: 2 }]);
    expect(res.status).toBe(200);
    await expect.poll(() => kpi('Open tickets').getAttribute('data-value'), { timeout: 10_000, interval: 50 }).toBe('3');
    await expect.poll(() => chartRows('Tickets by priority'), { timeout: 10_000, interval: 50 }).toEqual([['high', '3'], ['low', '1'], ['Other', '1']]);
    const changed = await page.evaluate(() => (window as unknown as { __changed: Record<string, number> }).__changed);
    console.log(`after the ingest was sent: KPI changed in ${changed.kpi - t0} ms, bar in ${changed.bar - t0} ms`);
    // The threshold (3 or more open) turns the tile red once the number has eased to its value.
    await poll(() => kpi('Open tickets').innerText()).toBe('3');
    expect(await kpi('Open tickets').evaluate((el) => getComputedStyle(el).color)).not.toBe(await kpi('Average effort').evaluate((el) => getComputedStyle(el).color));
    expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);
    expect(await page.locator('svg[data-mark=kept]').count()).toBe(1);

    // A chart's CSV is its aggregated table.
    const bar2 = page.locator('[data-testid=widget]', { hasText: 'Tickets by priority' });
    const [download] = await Promise.all([page.waitForEvent('download'), bar2.getByRole('button', { name: 'Download Tickets by priority as CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('Tickets by priority.csv');
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.slice(1).trim().split(/\r?\n/)).toEqual(['priority,Count', 'high,3', 'low,1', 'Other,1']);

    // The dark theme toggle repaints the page and is remembered.
    const bg = () => page.evaluate(() => getComputedStyle(document.querySelector('[data-testid=widget]')!).backgroundColor);
    const light = await bg();
    await page.getByRole('switch', { name: 'Dark theme' }).click();
    await poll(bg).not.toBe(light);
    await h.shot('widgets-viewer-dark');
    expect(await lowContrastTexts(h)).toEqual([]);
    await page.reload();
    await poll(() => kpi('Open tickets').getAttribute('data-value')).toBe('3');
    expect(await bg()).not.toBe(light);
    await page.getByRole('switch', { name: 'Dark theme' }).click();
    await poll(bg).toBe(light);

    // A phone stacks the widgets in reading order, without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await poll(async () => (await box('Tickets by priority'))!.width).toBeLessThan(390);
    expect((await box('Tickets by priority'))!.width).toBeGreaterThan(300);
    await poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const ys = await Promise.all(['Open tickets', 'Average effort', 'Status share', 'Tickets by priority', 'Tickets per day'].map(async (n) => (await box(n))!.y));
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    await h.shot('widgets-viewer-phone');
  });

  it('draws one series per value (average price per quarter by symbol, stocks.csv) and whole years as years (deaths per year, disasters.csv), each with its data table', async () => {
    const data = (name: string) => fs.readFileSync(new URL(`../../node_modules/vega-datasets/data/${name}`, import.meta.url), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    // Three symbols' prices, January to June 2000; the first six years of deaths (Year a JSON number).
    const stocks = data('stocks.csv').filter(([sym, date]) => ['MSFT', 'AAPL', 'IBM'].includes(sym) && /^(Jan|Feb|Mar|Apr|May|Jun) 1 2000$/.test(date));
    const deaths = data('disasters.csv').filter(([e]) => e === 'All natural disasters');
    const records = [
      ...stocks.map(([symbol, date, price], i) => ({ ticket_id: 100 + i, symbol, date, price: Number(price) })),
      ...deaths.map(([, year, n], i) => ({ ticket_id: 200 + i, Year: Number(year), Deaths: Number(n) })),
    ];
    const tab = {
      id: 'questions', name: 'Questions', style: null, configuration: {},
      widgets: [
        { id: 'price', name: 'Price by symbol', type: 'line', configuration: { dateField: 'date', bucket: 'quarter', metric: 'avg', valueField: 'price', splitField: 'symbol' }, layout: { x: 0, y: 0, w: 6, h: 5 } },
        { id: 'deaths', name: 'Deaths per year', type: 'line', configuration: { dateField: 'Year', metric: 'sum', valueField: 'Deaths' }, layout: { x: 6, y: 0, w: 6, h: 5 } },
      ],
    };
    const { id } = await seedFor(h, [tab], { name: 'Questions', records });
    await h.page.goto(`/dashboards/${id}`);
    const avg = (sym: string, months: string[]) => {
      const prices = stocks.filter(([s, d]) => s === sym && months.some((m) => d.startsWith(m))).map(([, , p]) => Number(p));
      return String(Math.round((prices.reduce((a, b) => a + b, 0) / prices.length) * 100) / 100);
    };
    const q1 = ['Jan', 'Feb', 'Mar'];
    const q2 = ['Apr', 'May', 'Jun'];
    await poll(() => chartRows('Price by symbol')).toEqual([['Q1 2000', avg('AAPL', q1), avg('IBM', q1), avg('MSFT', q1)], ['Q2 2000', avg('AAPL', q2), avg('IBM', q2), avg('MSFT', q2)]]);
    const table = h.page.locator('[data-testid=widget]', { hasText: 'Price by symbol' }).getByTestId('widget-table');
    expect(await table.locator('caption').innerText()).toBe('Price by symbol');
    expect(await table.locator('thead th').allInnerTexts()).toEqual(['date', 'AAPL', 'IBM', 'MSFT']);
    // Drawn by year (never months, never 1970), every year from the first to the last; 1904 has no record: 0 for a sum.
    const years = Array.from({ length: 2017 - 1900 + 1 }, (_, i) => String(1900 + i));
    await poll(() => chartRows('Deaths per year')).toEqual(years.map((y) => [y, deaths.find((d) => d[1] === y)?.[2] ?? '0']));
    expect((await chartRows('Deaths per year'))[4]).toEqual(['1904', '0']);
    // 118 years are more than a chart shows at once: it zooms and scrolls along its axis (a slider under it).
    const deathsChart = h.page.locator('[data-testid=widget]', { hasText: 'Deaths per year' });
    await deathsChart.locator('[data-zoomable] svg').first().waitFor();
    // A chart with few points has no zoom.
    expect(await h.page.locator('[data-testid=widget]', { hasText: 'Price by symbol' }).locator('[data-zoomable]').count()).toBe(0);
    await h.shot('widgets-split-line-and-years');
  });

  it('draws a scatter (horsepower × mileage by origin, cars.json), a gauge of average horsepower against a goal and bars per horsepower range, each with its data table; a push moves them, also in TV mode', async () => {
    type Car = { Name: string; Horsepower: number | null; Miles_per_Gallon: number | null; Origin: string };
    const all = JSON.parse(fs.readFileSync(new URL('../../node_modules/vega-datasets/data/cars.json', import.meta.url), 'utf8')) as Car[];
    // Three cars of each origin with both numbers: a tiny, known set.
    const cars = ['USA', 'Europe', 'Japan'].flatMap((o) => all.filter((c) => c.Origin === o && c.Horsepower !== null && c.Miles_per_Gallon !== null).slice(0, 3));
    const records = cars.map((c, i) => ({ ticket_id: 300 + i, Name: c.Name, Horsepower: c.Horsepower, Miles_per_Gallon: c.Miles_per_Gallon, Origin: c.Origin }));
    const tab = {
      id: 'cars', name: 'Cars', style: null, configuration: {},
      widgets: [
        { id: 'sc', name: 'Power vs economy', type: 'scatter', configuration: { xField: 'Horsepower', yField: 'Miles_per_Gallon', splitField: 'Origin' }, layout: { x: 0, y: 0, w: 8, h: 5 } },
        { id: 'g', name: 'Power goal', type: 'gauge', configuration: { metric: 'avg', valueField: 'Horsepower', goal: 200, decimals: 1 }, layout: { x: 8, y: 0, w: 4, h: 4 } },
        { id: 'hp', name: 'Cars per 50 hp', type: 'bar', configuration: { groupField: 'Horsepower', bins: 50 }, layout: { x: 0, y: 5, w: 8, h: 4 } },
        { id: 'mpg', name: 'Mileage by horsepower', type: 'line', configuration: { xField: 'Horsepower', metric: 'avg', valueField: 'Miles_per_Gallon' }, layout: { x: 0, y: 9, w: 8, h: 4 } },
      ],
    };
    const { id, ds } = await seedFor(h, [tab], { name: 'Cars', records });
    await h.page.goto(`/dashboards/${id}`);
    const rounded = (v: number) => String(Math.round(v * 100) / 100);
    // Horsepower in ranges of 50, in order from the lowest to the highest, an empty range 0.
    const ranges = (hps: number[]) => {
      const out: string[][] = [];
      for (let at = Math.floor(Math.min(...hps) / 50) * 50; at <= Math.max(...hps); at += 50) out.push([`${at}–${at + 50}`, String(hps.filter((v) => v >= at && v < at + 50).length)]);
      return out;
    };
    // The scatter is drawn: its SVG holds a mark per point besides its axes.
    const scatterMarks = () => h.page.locator('[data-testid=widget]', { hasText: 'Power vs economy' }).locator('svg path').count();
    const expected = [...cars].sort((a, b) => a.Origin.localeCompare(b.Origin)).map((c) => [String(c.Horsepower), String(c.Miles_per_Gallon), c.Origin]);
    await poll(() => chartRows('Power vs economy')).toEqual(expected);
    const table = h.page.locator('[data-testid=widget]', { hasText: 'Power vs economy' }).getByTestId('widget-table');
    expect(await table.locator('thead th').allInnerTexts()).toEqual(['Horsepower', 'Miles_per_Gallon', 'Origin']);
    const hp = cars.map((c) => c.Horsepower!);
    await poll(() => chartRows('Cars per 50 hp')).toEqual(ranges(hp));
    // A line over a number field: a point per horsepower value, in ascending order, its average mileage.
    const byHp = [...new Set(hp)].sort((a, b) => a - b).map((v) => {
      const mpg = cars.filter((c) => c.Horsepower === v).map((c) => c.Miles_per_Gallon!);
      return [String(v), rounded(mpg.reduce((a, b) => a + b, 0) / mpg.length)];
    });
    await poll(() => chartRows('Mileage by horsepower')).toEqual(byHp);
    const mpgChart = h.page.locator('[data-testid=widget]', { hasText: 'Mileage by horsepower' });
    expect(await mpgChart.getByTestId('widget-table').locator('thead th').allInnerTexts()).toEqual(['Horsepower', 'Average of Miles_per_Gallon']);
    // Its axis is numbers, spaced by value: the horsepower field names it under its labels.
    await poll(() => mpgChart.locator('svg text', { hasText: /^Horsepower$/ }).count()).toBe(1);
    const mean = hp.reduce((a, b) => a + b, 0) / hp.length;
    await poll(() => chartRows('Power goal')).toEqual([[rounded(mean), '200', `${Math.round((mean / 200) * 100)}%`]]);
    await poll(() => scatterMarks()).toBeGreaterThanOrEqual(cars.length);
    await h.shot('widgets-scatter-and-gauge');
    // A pushed car (400 hp) moves the gauge live: value and percent of goal.
    expect((await ingestFor(h, ds.sourceId, [{ ticket_id: 399, Name: 'pushed', Horsepower: 400, Miles_per_Gallon: 10, Origin: 'USA' }])).status).toBeLessThan(300);
    const after = (hp.reduce((a, b) => a + b, 0) + 400) / (hp.length + 1);
    await poll(() => chartRows('Power goal')).toEqual([[rounded(after), '200', `${Math.round((after / 200) * 100)}%`]]);
    expect(await h.page.locator('[data-testid=widget]', { hasText: 'Power goal' }).getByTestId('gauge-percent').innerText()).toBe(`${Math.round((after / 200) * 100)}% of goal`);
    await poll(async () => (await chartRows('Power vs economy')).length).toBe(cars.length + 1);
    await poll(() => chartRows('Cars per 50 hp')).toEqual(ranges([...hp, 400]));
    // TV mode draws both, larger.
    await h.page.setViewportSize({ width: 1920, height: 1080 });
    await h.page.goto(`/dashboards/${id}?tv=1`);
    await poll(() => chartRows('Power goal')).toEqual([[rounded(after), '200', `${Math.round((after / 200) * 100)}%`]]);
    await poll(() => scatterMarks()).toBeGreaterThanOrEqual(cars.length);
    await h.shot('widgets-scatter-and-gauge-tv');
  });

  it('counts every record with a KPI left at its defaults, and the landing page loads no chart code', async () => {
    const requested: string[] = [];
    h.page.on('request', (r) => requested.push(r.url()));
    await h.page.goto('/');
    await h.page.getByRole('main').waitFor();
    expect(requested.filter((u) => /ChartView|echarts/i.test(u))).toEqual([]);

    const { id } = await seedFor(h, [{ ...OVERVIEW, widgets: [{ id: 'k', name: 'Just a count', type: 'kpi', configuration: {} }] }], { records: TICKETS });
    await h.page.goto(`/dashboards/${id}`);
    await poll(() => kpi('Just a count').getAttribute('data-value')).toBe('4');
    expect(await h.page.getByText('Records', { exact: true }).count()).toBe(1);
  });
});

describe('TV mode', () => {
  it('fills the screen without controls on the dark theme, keeps the screen on, hides the cursor, rotates tabs and says when it reconnects', async () => {
    const { id } = await seedFor(h, [OVERVIEW, BOARD], { name: 'Support queue', records: TICKETS });
    const { page } = h;
    const socket = await cuttableSocket(h);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await h.context.grantPermissions(['screen-wake-lock'], { origin: h.server.url });
    await page.goto(`/dashboards/${id}?tv=1&rotate=5`);
    const tv = page.getByTestId('tv-mode');
    // The screen is kept on where the browser allows it.
    await poll(() => tv.getAttribute('data-wake-lock')).toBe('held');
    await poll(() => kpi('Open tickets').getAttribute('data-value')).toBe('2');
    await page.getByTestId('tv-live').waitFor();
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await tv.evaluate((el) => getComputedStyle(el).cursor)).toBe('none');
    const [r, g, b] = (await tv.evaluate((el) => getComputedStyle(el).backgroundColor)).match(/\d+/g)!.map(Number);
    expect(r + g + b).toBeLessThan(100);
    // The number is sized to its tile, not to a fixed size: large (never under 24 px) and inside its tile.
    const fit = await kpi('Open tickets').evaluate((el) => {
      const tile = el.closest('[data-testid=widget]')!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return { size: parseFloat(getComputedStyle(el).fontSize), share: box.height / tile.height, inside: box.left >= tile.left && box.right <= tile.right && box.top >= tile.top && box.bottom <= tile.bottom };
    });
    expect(fit.size).toBeGreaterThanOrEqual(24);
    expect(fit.inside).toBe(true);
    // Read from across the room: the number takes a good share of its tile's height.
    expect(fit.share).toBeGreaterThan(0.26);
    // Rows stretch to the screen's height: the grid ends at the bottom's padding, and nothing scrolls.
    const grid = await page.getByTestId('widget-grid').evaluate((el) => ({ bottom: el.getBoundingClientRect().bottom, scrolls: document.documentElement.scrollHeight > window.innerHeight }));
    expect(grid.bottom).toBeGreaterThan(1080 - 32 - 16);
    expect(grid.scrolls).toBe(false);
    await page.locator('[data-testid=widget]', { hasText: 'Tickets by priority' }).locator('svg').first().waitFor();
    await h.shot('widgets-tv-mode');

    // After 5 s the board's tab comes round.
    await page.getByTestId('bucket-group').first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('Board');

    await socket.cut(id);
    await page.getByTestId('tv-reconnecting').waitFor();
    expect(await page.getByTestId('tv-reconnecting').innerText()).toContain('Reconnecting…');
    await h.shot('widgets-tv-reconnecting');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});
