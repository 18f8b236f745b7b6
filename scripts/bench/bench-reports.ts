/**
 * `npm run bench:reports`: how long a report takes to draw on the server, beside how long the same
 * view takes to build for a viewer, in one run on the configured engine (the offline one unless
 * MONGODB_URI is set).
 *
 * A 20-widget dashboard (KPIs with comparisons and sparklines, gauges, bars, donuts, lines, a
 * scatter, a table and a bucket board) over 10,000 records (one bulk insert: the offline engine's
 * writes cost the square of a collection's size). Each round draws the PNG, then the PDF, then
 * builds the viewer's view: GET /api/dashboards/:id (what a browser is sent) parsed, and every
 * widget's numbers computed by common/widgets (what the browser then computes). Printed: p50, p95
 * and max of each, their ratio, the longest the event loop was held during a render, and the
 * process's memory. BENCH_ROUNDS (default 10) rounds; BENCH_OUT=<dir> writes the last files there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { PublicDashboardResponse } from '../../common/schemas/publicView';
import { numbersOf, parseChartWidget } from '../../common/widgets/drawn/widgetData';
import { renderReport, type ReportFormat } from '../../server/reports/render';
import { buildDashboard, buildSource } from '../../server/test/factories';
import { startTestServer, type TestServer } from '../../server/test/harness';

const RECORDS = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const OUT = process.env.BENCH_OUT;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const ms = (x: number) => `${Math.round(x).toLocaleString('en-US')} ms`;
const mb = (x: number) => `${Math.round(x / 1024 / 1024)} MB`;

const REGIONS = ['EU', 'US', 'APAC', 'LATAM', 'MEA'];
const STATUSES = ['open', 'pending', 'solved', 'closed'];
const PRIORITIES = ['low', 'normal', 'high', 'urgent'];
const DAY = 86_400_000;

function records(now: number) {
  return Array.from({ length: RECORDS }, (_, i) => ({
    id: i + 1,
    region: REGIONS[i % REGIONS.length],
    status: STATUSES[(i * 7) % STATUSES.length],
    priority: PRIORITIES[(i * 3) % PRIORITIES.length],
    amount: Math.round(((i * 7919) % 10_000) / 10) + 5,
    minutes: (i * 31) % 480,
    created: new Date(now - (i % 60) * DAY - (i % 1440) * 60_000).toISOString(),
    subject: `Ticket ${i + 1}: ${['login fails', 'refund', 'slow page', 'invoice copy', 'password reset'][i % 5]}`,
  }));
}

const w = (id: string, type: string, layout: [number, number, number, number], configuration: object) => ({ id, type, name: id, layout: { x: layout[0], y: layout[1], w: layout[2], h: layout[3] }, configuration });
const last = (l: string) => ({ kind: 'relative', last: l });
/** 20 widgets: every type the viewer draws, in the sizes a builder gives them. */
const WIDGETS = [
  w('Tickets', 'kpi', [0, 0, 3, 2], { metric: 'count', range: last('30d'), compare: true, sparkline: true }),
  w('Revenue', 'kpi', [3, 0, 3, 2], { metric: 'sum', valueField: 'amount', unit: '$', range: last('7d'), compare: true }),
  w('Median handling', 'kpi', [6, 0, 3, 2], { metric: 'median', valueField: 'minutes', unit: 'min' }),
  w('Urgent open', 'kpi', [9, 0, 3, 2], { metric: 'count', filters: [{ field: 'priority', operator: 'eq', value: 'urgent' }, { field: 'status', operator: 'eq', value: 'open' }], thresholds: [{ value: 100, color: 'red' }] }),
  w('Customers', 'kpi', [0, 2, 3, 2], { metric: 'distinct', valueField: 'region' }),
  w('p95 handling', 'kpi', [3, 2, 3, 2], { metric: 'p95', valueField: 'minutes', decimals: 1 }),
  w('Monthly goal', 'gauge', [6, 2, 3, 3], { metric: 'count', goal: 12_000, range: last('30d') }),
  w('Revenue goal', 'gauge', [9, 2, 3, 3], { metric: 'sum', valueField: 'amount', goal: 1_000_000, style: 'bar' }),
  w('By region', 'bar', [0, 5, 4, 5], { groupField: 'region' }),
  w('By status and priority', 'bar', [4, 5, 4, 5], { groupField: 'status', splitField: 'priority' }),
  w('Amounts', 'bar', [8, 5, 4, 5], { groupField: 'amount', bins: 'auto' }),
  w('Regions by revenue', 'bar', [0, 10, 4, 5], { groupField: 'region', metric: 'sum', valueField: 'amount', horizontal: true }),
  w('Status', 'donut', [4, 10, 4, 5], { groupField: 'status' }),
  w('Priority', 'donut', [8, 10, 4, 5], { groupField: 'priority' }),
  w('Tickets per day', 'line', [0, 15, 6, 5], { dateField: 'created', range: last('30d'), bucket: 'day' }),
  w('Per day by region', 'line', [6, 15, 6, 5], { dateField: 'created', range: last('30d'), bucket: 'day', splitField: 'region' }),
  w('Average amount by hour', 'line', [0, 20, 6, 5], { dateField: 'created', range: last('7d'), bucket: 'hour', metric: 'avg', valueField: 'amount', area: true }),
  w('Amount vs minutes', 'scatter', [6, 20, 6, 5], { xField: 'minutes', yField: 'amount', splitField: 'region' }),
  w('Latest tickets', 'table', [0, 25, 12, 8], { columns: ['id', 'subject', 'region', 'status', 'priority', 'amount', 'created'].map((name, order) => ({ name, order })) }),
  w('Board', 'bucket', [0, 33, 12, 7], { bucketKey: 'status', displayKeys: ['subject', 'priority'], highlightRules: [{ key: 'priority', value: 'urgent', color: 'red' }] }),
];

/** The viewer's side of the same view: what it is sent, parsed, and every widget's numbers computed from it. */
async function viewerBuild(s: TestServer, dashboardId: string, now: number): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${s.url}/api/dashboards/${dashboardId}`);
  const view = JSON.parse(await res.text()) as PublicDashboardResponse;
  const ds = view.dataSource!;
  const env = { typing: { fieldTypes: ds.fieldTypes, dateOrder: ds.dateOrder }, timeField: ds.timeField, now };
  for (const widget of view.tabs[0].widgets) {
    const parsed = parseChartWidget(widget, ds.timeField);
    if (parsed.ok) numbersOf(parsed.type, parsed.config, () => view.records, env);
  }
  return performance.now() - t;
}

async function main() {
  const s = await startTestServer({ LOG_LEVEL: 'warn' });
  try {
    const now = Date.now();
    let t = performance.now();
    const source = await buildSource(s, { name: 'Bench tickets', primaryKey: 'id', timeField: 'created', records: records(now) } as never);
    const dashboard = await buildDashboard(s, { source, name: 'Support at a glance', published: true, widgets: WIDGETS });
    console.log(`engine: ${s.app.ctx.db.mode}; ${RECORDS.toLocaleString('en-US')} records in one insert (${ms(performance.now() - t)}); ${WIDGETS.length} widgets; ${ROUNDS} rounds`);

    const render = (format: ReportFormat) => renderReport(s.app.ctx, { dashboardId: dashboard.id, filters: [], formats: [format], now });
    // Warm-up: modules, fonts and the view cache's copy of the source.
    t = performance.now();
    await render('png');
    await render('pdf');
    await viewerBuild(s, dashboard.id, now);
    console.log(`warm-up (first PNG and PDF, modules and fonts loaded, the source read once): ${ms(performance.now() - t)}`);

    const times: Record<'png' | 'pdf' | 'viewer', number[]> = { png: [], pdf: [], viewer: [] };
    const blocks: Record<'png' | 'pdf', number[]> = { png: [], pdf: [] };
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
    const sizes: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const format of ['png', 'pdf'] as const) {
        const loop = monitorEventLoopDelay({ resolution: 5 });
        loop.enable();
        t = performance.now();
        const r = await render(format);
        times[format].push(performance.now() - t);
        loop.disable();
        blocks[format].push(loop.max / 1e6);
        sizes[format] = r.files[0].bytes.length;
        if (OUT && round === ROUNDS - 1) {
          mkdirSync(OUT, { recursive: true });
          writeFileSync(`${OUT}/${r.files[0].filename}`, r.files[0].bytes);
          if (r.svg) writeFileSync(`${OUT}/report.svg`, r.svg);
        }
      }
      times.viewer.push(await viewerBuild(s, dashboard.id, now));
    }
    clearInterval(sampler);
    const row = (name: string, xs: number[]) => `${name.padEnd(34)} p50 ${ms(quantile(xs, 0.5)).padStart(9)}   p95 ${ms(quantile(xs, 0.95)).padStart(9)}   max ${ms(Math.max(...xs)).padStart(9)}`;
    console.log(row(`PNG (1440 px, ${Math.round(sizes.png / 1024)} KB)`, times.png));
    console.log(row(`PDF (${Math.round(sizes.pdf / 1024)} KB)`, times.pdf));
    console.log(row('viewer: GET view + widget numbers', times.viewer));
    const v = quantile(times.viewer, 0.5);
    console.log(`ratio to the viewer's build (p50): PNG ${(quantile(times.png, 0.5) / v).toFixed(1)}×, PDF ${(quantile(times.pdf, 0.5) / v).toFixed(1)}×`);
    console.log(`longest event-loop block during a render: PNG ${ms(Math.max(...blocks.png))} (p50 ${ms(quantile(blocks.png, 0.5))}), PDF ${ms(Math.max(...blocks.pdf))} (p50 ${ms(quantile(blocks.pdf, 0.5))})`);
    const m = process.memoryUsage();
    console.log(`memory: peak RSS ${mb(peakRss)} during the rounds, now RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)} (the server, its view cache and the bench in one process)`);
    const goal = quantile(times.png, 0.95) <= 5000 && quantile(times.pdf, 0.95) <= 5000;
    console.log(goal ? 'goal met: p95 ≤ 5 s for PNG and PDF' : 'goal NOT met: p95 > 5 s for PNG or PDF');
  } finally {
    await s.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
