import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import type { DashboardDto } from '@common/schemas/dashboard';
import { formatKpi } from '@common/widgets/format';
import { numbersOf, parseChartWidget } from '@common/widgets/drawn/widgetData';
import { widgetTable } from '@common/widgets/drawn/widgetText';
import { startTestServer, type TestServer } from '../../test/harness';
import { buildDashboard, buildSource } from '../../test/factories';
import { pdfText, pngInfo } from '../../test/reportFiles';
import { renderReport, type RenderedReport } from './index';

/**
 * The renderer against a real server: each file opened as a person's tools open it (ImageMagick,
 * pdftotext), its numbers compared with what the viewer computes from the view it is sent — the
 * public view, and a share link's view locking the same filters.
 */

const DAY = 86_400_000;
const NOW = Date.now();
const REGIONS = ['EU', 'US', 'APAC'];
const RECORDS = Array.from({ length: 45 }, (_, i) => ({
  id: i + 1,
  region: REGIONS[i % 3],
  status: i % 4 === 0 ? 'closed' : 'open',
  amount: 10 + ((i * 37) % 90),
  at: new Date(NOW - (i % 10) * DAY - 60_000).toISOString(),
  title: `${REGIONS[i % 3]}-ticket-${i + 1}`,
}));
const EU = [{ field: 'region', operator: 'eq' as const, value: 'EU' }];

const w = (id: string, type: string, name: string, layout: object, configuration: object) => ({ id, type, name, layout, configuration });
const WIDGETS = [
  w('count', 'kpi', 'Tickets', { x: 0, y: 0, w: 3, h: 2 }, { metric: 'count' }),
  w('revenue', 'kpi', 'Revenue', { x: 3, y: 0, w: 3, h: 2 }, { metric: 'sum', valueField: 'amount', unit: '$', range: { kind: 'relative', last: '7d' }, compare: true }),
  w('goal', 'gauge', 'Goal', { x: 6, y: 0, w: 3, h: 3 }, { metric: 'count', goal: 90 }),
  w('regions', 'bar', 'By region', { x: 0, y: 3, w: 6, h: 5 }, { groupField: 'region' }),
  w('daily', 'line', 'Per day', { x: 6, y: 3, w: 6, h: 5 }, { dateField: 'at', range: { kind: 'relative', last: '30d' }, bucket: 'day' }),
  w('list', 'table', 'All tickets', { x: 0, y: 8, w: 12, h: 5 }, { columns: [{ name: 'id' }, { name: 'title' }, { name: 'status' }, { name: 'amount' }] }),
  w('board', 'bucket', 'Board', { x: 0, y: 13, w: 12, h: 5 }, { bucketKey: 'status', displayKeys: ['title'] }),
];

let s: TestServer;
let dashboard: DashboardDto;

beforeAll(async () => {
  s = await startTestServer();
  const source = await buildSource(s, { primaryKey: 'id', timeField: 'at', records: RECORDS } as never);
  dashboard = await buildDashboard(s, { source, name: 'Support <Overview> & "Co"', published: true, widgets: WIDGETS });
});
afterAll(() => s?.close());

/** What the viewer computes from a view it is sent: each KPI's text and each chart's data table (common/widgets, as the browser runs it). */
function viewerNumbers(view: PublicDashboardResponse) {
  const ds = view.dataSource!;
  const env = { typing: { fieldTypes: ds.fieldTypes, dateOrder: ds.dateOrder }, timeField: ds.timeField, now: NOW };
  const label = (f: string | undefined) => (f ? (ds.keyMappings[f] ?? f) : '');
  const kpis: Record<string, string> = {};
  const tables: Record<string, string[][]> = {};
  for (const widget of view.tabs[0].widgets) {
    const parsed = parseChartWidget(widget, ds.timeField);
    if (!parsed.ok) continue;
    const n = numbersOf(parsed.type, parsed.config, () => view.records, env);
    tables[widget.name] = widgetTable(n, label);
    if (n.type === 'kpi') kpis[widget.name] = formatKpi(n.value, n.config);
  }
  return { kpis, tables };
}

const file = (r: RenderedReport, format: string) => r.files.find((f) => f.format === format)!.bytes;
/** The picture's text: what its SVG writes (entities read back). */
const svgText = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&'));

// Rendering is CPU work: on a loaded 2-core machine a test of three files takes seconds.
describe('renderReport', { timeout: 120_000 }, () => {
  it('draws the tab as a PNG, a PDF and a CSV whose numbers are the viewer\'s', async () => {
    const r = await renderReport(s.app.ctx, { dashboardId: dashboard.id, filters: [], formats: ['png', 'pdf', 'csv'], now: NOW, timezone: 'Europe/Berlin' });
    expect(r.dashboard).toEqual({ id: dashboard.id, name: 'Support <Overview> & "Co"' });
    expect(r.tab).toEqual({ id: 'tab1', name: 'Tab 1' });
    expect(r.files.map((f) => [f.format, f.filename, f.contentType])).toEqual([
      ['png', 'Support _Overview_ & _Co_.png', 'image/png'],
      ['pdf', 'Support _Overview_ & _Co_.pdf', 'application/pdf'],
      ['csv', 'Support _Overview_ & _Co_.csv', 'text/csv; charset=utf-8'],
    ]);

    const viewer = viewerNumbers((await s.http('GET', `/api/dashboards/${dashboard.id}`, { token: null })).body);
    expect(r.kpis).toEqual([
      { title: 'Tickets', value: viewer.kpis.Tickets },
      { title: 'Revenue', value: viewer.kpis.Revenue, change: expect.stringMatching(/^(▲|▼|=) [\d.,]+% vs the previous 7 days$/) },
      { title: 'Goal', value: '45 (50% of goal)' },
    ]);
    expect(viewer.kpis.Tickets).toBe('45');

    // The picture: 1440 px wide, far from blank, its KPI text the viewer's.
    const png = await pngInfo(file(r, 'png'));
    expect(png).toMatchObject({ format: 'PNG', width: 1440 });
    expect(png.height).toBeGreaterThan(900);
    expect(png.colors).toBeGreaterThan(50);
    expect(png.deviation).toBeGreaterThan(0.05);
    const drawn = svgText(r.svg!);
    for (const [title, value] of Object.entries(viewer.kpis)) expect(drawn, title).toContain(value);
    for (const [region, count] of viewer.tables['By region'].slice(1)) expect(drawn).toEqual(expect.arrayContaining([region, count]));

    // The PDF: real text — the name and range on top, titles, KPI numbers, axis labels, table cells.
    const pdf = await pdfText(file(r, 'pdf'));
    const words = pdf.text.split(/\s+/);
    expect(pdf.text).toContain('Support <Overview> & "Co"');
    expect(pdf.text).toMatch(/Tab 1 · Last 7 days, Last 30 days · as of .* GMT\+1/);
    for (const title of ['Tickets', 'Revenue', 'Goal', 'By region', 'Per day', 'All tickets', 'Board']) expect(pdf.text).toContain(title);
    for (const value of Object.values(viewer.kpis)) expect(pdf.text).toContain(value);
    for (const [region, count] of viewer.tables['By region'].slice(1)) expect(words).toEqual(expect.arrayContaining([region, count]));
    for (const [, value] of viewer.tables['Per day'].slice(1)) expect(words).toContain(value);
    expect(pdf.text).toContain('EU-ticket-1');

    // The CSV: the dashboard's export (BOM, header, every record).
    const csv = file(r, 'csv').toString('utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('id,region,status,amount,at,title,Last Updated');
    expect(lines).toHaveLength(RECORDS.length + 1);
  });

  it('holds locked filters in all three files, as a share link locking them shows', async () => {
    const link = await s.http('POST', `/api/admin/dashboards/${dashboard.id}/links`, { body: { label: 'EU', filters: EU } });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const viewer = viewerNumbers((await s.http('GET', `/api/share/${link.body.token}`, { token: null })).body);
    expect(viewer.kpis.Tickets).toBe('15');

    const r = await renderReport(s.app.ctx, { dashboardId: dashboard.id, filters: EU, formats: ['png', 'pdf', 'csv'], now: NOW });
    expect(r.kpis.slice(0, 2).map((k) => k.value)).toEqual([viewer.kpis.Tickets, viewer.kpis.Revenue]);
    const drawn = svgText(r.svg!);
    expect(drawn).toContain('Filtered: region = EU');
    expect(drawn.some((t) => /^(US|APAC)-ticket/.test(t))).toBe(false);
    expect(drawn).toContain('EU-ticket-1');

    const pdf = (await pdfText(file(r, 'pdf'))).text;
    expect(pdf).toContain('Filtered: region = EU');
    expect(pdf).not.toMatch(/(US|APAC)-ticket/);
    expect(pdf).toMatch(/EU-ticket-\d+/);
    for (const [key, count] of viewer.tables['By region'].slice(1)) expect(pdf.split(/\s+/)).toEqual(expect.arrayContaining([key, count]));

    const [header, ...rows] = file(r, 'csv').toString('utf8').slice(1).split('\r\n').filter(Boolean);
    const region = header.split(',').indexOf('region');
    expect(rows).toHaveLength(15);
    expect(rows.map((row) => row.split(',')[region])).toEqual(Array(15).fill('EU'));
  });

  it('draws the dark theme, at the width asked, and continues a long table over PDF pages', async () => {
    const r = await renderReport(s.app.ctx, { dashboardId: dashboard.id, filters: [], formats: ['png', 'pdf'], width: 1000, theme: 'dark', now: NOW });
    const png = await pngInfo(file(r, 'png'));
    expect(png.width).toBe(1000);
    // The page's own colour, black, in the corner.
    expect(png.corner).toMatch(/^srgba?\(0,0,0/);
    const pdf = await pdfText(file(r, 'pdf'));
    expect(pdf.pages).toBeGreaterThan(1);
    expect(pdf.text).toContain('All tickets (continued)');
    // Every row of the table is in the PDF, once: on its tile or on the pages after.
    for (const rec of RECORDS) expect(pdf.text.match(new RegExp(`\\b${rec.title}\\b`, 'g'))?.length ?? 0, rec.title).toBeGreaterThanOrEqual(1);
  });

  it('refuses an unknown tab and an unknown time zone by name', async () => {
    await expect(renderReport(s.app.ctx, { dashboardId: dashboard.id, tabId: 'nope', filters: [], formats: ['png'] })).rejects.toMatchObject({ status: 404, message: 'Tab nope of this dashboard not found' });
    await expect(renderReport(s.app.ctx, { dashboardId: dashboard.id, filters: [], formats: ['csv'], timezone: 'Mars/Olympus' })).rejects.toMatchObject({ status: 400, message: expect.stringContaining('Mars/Olympus') });
  });
});
