import { describe, expect, it } from 'vitest';
import { renderReport } from '../../server/reports/render';
import { pdfText } from '../../server/test/reportFiles';
import { seed, usePublicBrowser } from './publicFixtures';

/**
 * A report drawn on the server says what the live viewer shows: the viewer open in chromium, its
 * KPI tiles and its charts' data tables (the screen-reader tables) read from the page, and the
 * report's KPIs, picture text and PDF text compared with them.
 */

const h = usePublicBrowser();
const DAY = 86_400_000;
const now = Date.now();
const TICKETS = Array.from({ length: 24 }, (_, i) => ({
  ticket_id: i + 1,
  status: ['open', 'closed', 'in progress', 'waiting'][i % 4],
  priority: ['high', 'low', 'medium'][i % 3],
  effort: (i * 7) % 11,
  created_at: new Date(now - (i % 6) * DAY).toISOString(),
}));

const TAB = {
  id: 'overview', name: 'Overview', style: null, configuration: {},
  widgets: [
    { id: 'open', name: 'Open tickets', type: 'kpi', configuration: { metric: 'count', filters: [{ field: 'status', operator: 'eq', value: 'open' }] }, layout: { x: 0, y: 0, w: 3, h: 2 } },
    { id: 'effort', name: 'Average effort', type: 'kpi', configuration: { metric: 'avg', valueField: 'effort', decimals: 2, unit: 'h' }, layout: { x: 3, y: 0, w: 3, h: 2 } },
    { id: 'week', name: 'This week', type: 'kpi', configuration: { metric: 'sum', valueField: 'effort', dateField: 'created_at', range: { kind: 'relative', last: '7d' }, compare: true }, layout: { x: 6, y: 0, w: 3, h: 2 } },
    { id: 'goal', name: 'Effort goal', type: 'gauge', configuration: { metric: 'sum', valueField: 'effort', goal: 200 }, layout: { x: 9, y: 0, w: 3, h: 3 } },
    { id: 'priority', name: 'By priority', type: 'bar', configuration: { groupField: 'priority', metric: 'avg', valueField: 'effort' }, layout: { x: 0, y: 3, w: 6, h: 5 } },
    { id: 'status', name: 'By status', type: 'bar', configuration: { groupField: 'status', topN: 3 }, layout: { x: 6, y: 3, w: 6, h: 5 } },
  ],
};

const rowsOf = (name: string) =>
  h.page.locator('[data-testid=widget]', { hasText: name }).getByTestId('widget-table').locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
const svgText = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));

describe('a report and the live viewer', () => {
  it('show the same KPI numbers and the same chart values', { timeout: 120_000 }, async () => {
    const { id } = await seed(h, [TAB], { name: 'Queue', records: TICKETS });
    await h.page.goto(`/dashboards/${id}`);
    const kpi = (name: string) => h.page.locator('[data-testid=widget]', { hasText: name }).getByTestId('kpi-value');
    await expect.poll(() => kpi('Open tickets').getAttribute('data-value'), { timeout: 15_000 }).toBe('6');
    const viewerKpis = { 'Open tickets': await kpi('Open tickets').innerText(), 'Average effort': await kpi('Average effort').innerText(), 'This week': await kpi('This week').innerText() };
    const change = await h.page.locator('[data-testid=widget]', { hasText: 'This week' }).getByTestId('kpi-change').innerText();
    const tables = { 'By priority': await rowsOf('By priority'), 'By status': await rowsOf('By status'), 'Effort goal': await rowsOf('Effort goal') };
    expect(tables['By status']).toHaveLength(4);

    const r = await renderReport(h.server.app.ctx, { dashboardId: id, filters: [], formats: ['png', 'pdf'] });
    expect(r.kpis.slice(0, 3)).toEqual([
      { title: 'Open tickets', value: viewerKpis['Open tickets'] },
      { title: 'Average effort', value: viewerKpis['Average effort'] },
      { title: 'This week', value: viewerKpis['This week'], change },
    ]);
    const [goalValue, , goalPercent] = tables['Effort goal'][0];
    expect(r.kpis[3]).toEqual({ title: 'Effort goal', value: `${goalValue} (${goalPercent} of goal)` });

    const picture = svgText(r.svg!);
    const pdf = (await pdfText(r.files.find((f) => f.format === 'pdf')!.bytes)).text;
    const words = pdf.split(/\s+/);
    for (const value of [...Object.values(viewerKpis), change]) {
      expect(picture).toContain(value);
      expect(pdf).toContain(value);
    }
    // Each bar's label and value: written over the bar in the picture and the PDF, as the viewer's table has them.
    for (const [label, value] of [...tables['By priority'], ...tables['By status']]) {
      expect(picture).toEqual(expect.arrayContaining([label, Number(value).toLocaleString('en-US')]));
      expect(words).toEqual(expect.arrayContaining([...label.split(' '), Number(value).toLocaleString('en-US')]));
    }
  });
});
