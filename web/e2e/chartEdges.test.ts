import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { usePublicBrowser } from './publicFixtures';

/**
 * The charts' rough edges a new user met with public data (vega-datasets): Seattle and New York
 * weather, US employment by month. Each is drawn in the real viewer and looked at.
 */
const require = createRequire(import.meta.url);
const DATA = path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data');
const csv = (name: string) => {
  const [head, ...lines] = fs.readFileSync(path.join(DATA, name), 'utf8').trim().split('\n');
  const keys = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i], v === '' || Number.isNaN(Number(v)) ? v : Number(v)])));
};
/** The first 40 days of each city: a small source. */
const WEATHER = csv('weather.csv').filter((r) => String(r.date) < '2012-02-10').map((r, i) => ({ id: i + 1, ...r }));
/** 120 months, 2006–2015: nonfarm jobs in thousands (135,450 … 143,093). */
const JOBS = csv('us-employment.csv').map((r) => ({ month: r.month, nonfarm: r.nonfarm }));

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });
const h = usePublicBrowser();

async function dashboard(name: string, records: Record<string, unknown>[], widgets: unknown[], filters: unknown[] = []): Promise<string> {
  const ds = (await h.server.http('POST', '/api/admin/data-sources', { body: { name } })).body as { id: string; sourceId: string };
  expect((await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records } })).status).toBe(200);
  await h.server.app.fieldTypes.settle();
  const res = await h.server.http('POST', '/api/admin/dashboards', {
    body: { name, dataSourceId: ds.id, isPublished: true, configuration: { filters, tabs: [{ id: 'tab1', name: 'Overview', style: null, configuration: {}, widgets }] } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const widget = (page: Page, name: string): Locator => page.locator('[data-testid=widget]', { hasText: name });
/** The texts an ECharts SVG draws (legend items, axis labels). */
const svgTexts = (w: Locator) => w.locator('svg text').evaluateAll((els) => els.map((e) => e.textContent ?? ''));

describe('the charts with public data', () => {
  it('a filter takes the series it leaves out off the line and its legend', async () => {
    const id = await dashboard('Weather', WEATHER, [
      { id: 'temp', name: 'Max temperature', type: 'line', configuration: { dateField: 'date', metric: 'avg', valueField: 'temp_max', splitField: 'location', bucket: 'day' }, layout: { x: 0, y: 0, w: 12, h: 5 } },
    ], [{ id: 'location', kind: 'category', field: 'location', label: 'Location' }]);
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    const chart = widget(page, 'Max temperature');
    await poll(async () => (await svgTexts(chart)).filter((t) => t === 'Seattle' || t === 'New York').sort()).toEqual(['New York', 'Seattle']);
    await page.getByLabel('Filter Location', { exact: true }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Seattle' }).click();
    await page.keyboard.press('Escape');
    await poll(async () => (await svgTexts(chart)).filter((t) => t === 'Seattle' || t === 'New York')).toEqual(['Seattle']);
    await h.shot('chart-edges-filtered-line');
  });

  it('a monthly line opens on its whole range, its y axis fitting the data; a KPI on history compares its latest month', async () => {
    const id = await dashboard('Jobs', JOBS, [
      { id: 'jobs', name: 'Nonfarm jobs', type: 'kpi', configuration: { metric: 'latest', valueField: 'nonfarm', dateField: 'month', compare: true, sparkline: true }, layout: { x: 0, y: 0, w: 3, h: 2 } },
      { id: 'line', name: 'Jobs by month', type: 'line', configuration: { dateField: 'month', metric: 'avg', valueField: 'nonfarm', bucket: 'month' }, layout: { x: 3, y: 0, w: 9, h: 5 } },
      { id: 'tall', name: 'Jobs, a taller tile', type: 'kpi', configuration: { metric: 'latest', valueField: 'nonfarm', dateField: 'month', compare: true, sparkline: true }, layout: { x: 0, y: 2, w: 3, h: 3 } },
    ]);
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    const line = widget(page, 'Jobs by month');
    await poll(async () => (await svgTexts(line)).length).toBeGreaterThan(4);
    await h.shot('chart-edges-jobs');
    const texts = await svgTexts(line);
    expect(texts.some((t) => t.includes('2006'))).toBe(true);
    expect(texts).not.toContain('0');
    // All time has no period before it: the latest month against the one before, said so on hover.
    const kpi = widget(page, 'Nonfarm jobs');
    const change = kpi.getByTestId('kpi-change');
    expect(await change.innerText()).toBe('▲ 0.2% vs Nov 2015');
    expect(await change.getAttribute('title')).toContain('Dec 2015, the latest month in the data, against the month before it (all time has no period before it)');

    // In a 3 × 2 tile, the number, the change and the caption show whole; the sparkline gives way, and says so.
    const inside = async (tile: Locator, testId: string) => {
      const [box, el] = [await tile.locator('[data-fit]').boundingBox(), await tile.getByTestId(testId).boundingBox()];
      return el!.y >= box!.y - 0.5 && el!.y + el!.height <= box!.y + box!.height + 0.5;
    };
    expect(await inside(kpi, 'kpi-value')).toBe(true);
    expect(await inside(kpi, 'kpi-change')).toBe(true);
    expect(await kpi.getByTestId('kpi-sparkline').count()).toBe(0);
    expect(await kpi.locator('[data-fit]').getAttribute('title')).toContain('The sparkline is hidden: this tile is too small for it');
    // A tile one row taller has room for it.
    const tall = widget(page, 'Jobs, a taller tile');
    await tall.getByTestId('kpi-sparkline').waitFor();
    expect(await inside(tall, 'kpi-sparkline')).toBe(true);
    expect(await tall.locator('[data-fit]').getAttribute('title')).toBeNull();
  });
});
