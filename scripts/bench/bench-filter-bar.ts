/**
 * The filter bar's benchmark: a filter change at 100,000 records — how long until the
 * viewer's widgets show the new totals, and the longest main-thread task on the way — against a
 * plain pass that reads one field of every record (the machine's speed, measured in the same run).
 * Built from the viewer's own parts: the record store (recordStore.ts), the filter bar's filtered
 * feed (filters/filteredFeed.ts) and one WidgetTotals per widget (widgets/widgetTotals.ts), each
 * slicing its work into tasks as in the browser; here the tasks run back to back, and after every
 * task each widget reads its totals as a React render would. Each task is timed in CPU time of this
 * process (process.cpuUsage) as well as wall time: on a shared, loaded machine a task's wall time
 * includes the moments another process held the core, which no slicing can avoid.
 * Run: npm run bench:widgets   (BENCH_RECORDS=n to pick the size)
 */
import os from 'node:os';
import { createStore } from 'zustand';
import { agingOf, compileChoices } from '../../common/filterBar';
import type { DashboardFilter, FilterChoices } from '../../common/schemas/widgets/dashboardFilter';
import type { RecordDto } from '../../common/schemas/records/record';
import { BarConfig, KpiConfig, LineConfig } from '../../common/schemas/widgets/widget';
import { aggregateSpec, type AggregateSpec } from '../../common/widgets/aggregate';
import { fieldValue } from '../../common/cells';
import { FilteredFeed } from '../../web/src/public/viewer/filters/filteredFeed';
import { emptyRecords, recordKeeper, type RecordsState } from '../../web/src/public/viewer/recordStore';
import { WidgetTotals } from '../../web/src/public/viewer/widgets/widgetTotals';
import { storeFeed } from '../../web/src/public/viewer/widgets/widgetContext';

const N = Number(process.env.BENCH_RECORDS ?? 100_000);
const RUNS = 7;
const STATUSES = ['open', 'in progress', 'closed'];
const PRIORITIES = ['high', 'medium', 'low', 'urgent'];
const record = (i: number): RecordDto => ({
  id: `o${i}`, recordId: String(i), keyOrder: [], createdAt: '', lastUpdated: '', revision: 1,
  data: { status: STATUSES[i % 3], priority: PRIORITIES[(i * 7) % 4], amount: (i * 37) % 1000, created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() },
});

const SPECS: AggregateSpec[] = [
  aggregateSpec('kpi', KpiConfig.parse({})),
  aggregateSpec('kpi', KpiConfig.parse({ metric: 'avg', valueField: 'amount' })),
  aggregateSpec('bar', BarConfig.parse({ groupField: 'priority', metric: 'sum', valueField: 'amount' })),
  aggregateSpec('line', LineConfig.parse({ dateField: 'created_at', interval: 'day' })),
];
const FILTERS: DashboardFilter[] = [
  { id: 'status', kind: 'category', field: 'status' },
  { id: 'created', kind: 'date', field: 'created_at', range: { kind: 'all' } },
  { id: 'amount', kind: 'number', field: 'amount' },
];
const typing = { fieldTypes: { created_at: 'datetime' as const }, dateOrder: 'mdy' as const };

const store = createStore<RecordsState>(() => ({ ...emptyRecords(), version: 0 }));
recordKeeper(store).load(Array.from({ length: N }, (_, i) => record(i)), 1);
const base = storeFeed(store);

const plainTimes: number[] = [];
for (let i = 0; i < 15; i++) {
  const t0 = performance.now();
  let open = 0;
  for (const r of store.getState().records.values()) if (fieldValue(r.data, 'status') === 'open') open++;
  if (open < 0) throw new Error('unreachable');
  plainTimes.push(performance.now() - t0);
}
const plain = Math.min(...plainTimes);

/** One viewer: the filtered feed and its widgets, with a task queue standing for the browser's. */
function viewer() {
  const queue: (() => void)[] = [];
  const schedule = (step: () => void) => void queue.push(step);
  const feed = new FilteredFeed(base, { schedule });
  const widgets = SPECS.map((spec) => new WidgetTotals(spec, feed, { schedule }));
  const render = () => widgets.map((w) => w.snapshot());
  /** Runs tasks until every widget shows totals of the feed's current records; the elapsed time and the longest task. */
  const settle = (first: () => void): { ms: number; cpu: number; longest: number; longestWall: number; tasks: number } => {
    let longest = 0;
    let longestWall = 0;
    let cpu = 0;
    let tasks = 0;
    const t0 = performance.now();
    const task = (fn: () => void) => {
      const s = performance.now();
      const c = process.cpuUsage();
      fn();
      render();
      const used = process.cpuUsage(c);
      const ms = (used.user + used.system) / 1000;
      cpu += ms;
      longest = Math.max(longest, ms);
      longestWall = Math.max(longestWall, performance.now() - s);
      tasks++;
    };
    task(first);
    while (queue.length || feed.filtering || widgets.some((w) => w.version !== feed.get().version)) {
      const next = queue.shift();
      if (!next) throw new Error('nothing left to run, yet the totals are not current');
      task(next);
    }
    return { ms: performance.now() - t0, cpu, longest, longestWall, tasks };
  };
  return { feed, widgets, settle };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const CHANGES: [string, FilterChoices][] = [
  ['category: status is open (a third of the records)', { status: { kind: 'category', values: ['open'] } }],
  ['+ number: amount ≥ 500 (a sixth)', { status: { kind: 'category', values: ['open'] }, amount: { kind: 'number', min: 500, max: null } }],
  ['date: a fixed range of 30 days (43,200 minutes of records)', { created: { kind: 'date', range: { kind: 'fixed', from: '2026-01-15T00:00:00Z', to: '2026-02-14T00:00:00Z' } } }],
  ['cleared: every record again', {}],
];

console.log(`\nA filter change at ${N.toLocaleString('en-US')} records, ${SPECS.length} widgets (KPI count, KPI average, bar sum by a field, line per day) (node ${process.version}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`);
console.log(`Baseline: a plain pass reading one field of every record takes ${fmt(plain)} (best of 15).`);
console.log('Goal: the new totals within 100 ms, no main-thread task over 50 ms.\n');
console.log(`| filter change | new totals after: CPU (median of ${RUNS}) | ÷ plain pass | wall | longest task: CPU (worst of ${RUNS}) | ÷ plain pass | wall (median of the runs' longest) | tasks |`);
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, choices] of CHANGES) {
  const times: number[] = [];
  const cpus: number[] = [];
  const longest: number[] = [];
  const longestWall: number[] = [];
  let tasks = 0;
  for (let run = 0; run < RUNS; run++) {
    const v = viewer();
    // Start from every record counted (the page as it was before the change), or from the first filter.
    v.settle(() => v.feed.setTest(name.startsWith('cleared') ? compileChoices(FILTERS, CHANGES[0][1], typing) : null));
    const test = compileChoices(FILTERS, choices, typing);
    const r = v.settle(() => v.feed.setTest(test));
    times.push(r.ms);
    cpus.push(r.cpu);
    longest.push(r.longest);
    longestWall.push(r.longestWall);
    tasks = r.tasks;
    v.widgets.forEach((w) => w.stop());
  }
  const c = median(cpus);
  const l = Math.max(...longest);
  console.log(`| ${name} | ${fmt(c)} | ${(c / plain).toFixed(1)}× | ${fmt(median(times))} | ${fmt(l)} | ${(l / plain).toFixed(1)}× | ${fmt(median(longestWall))} | ${tasks} |`);
}

/**
 * A relative range ("Last 15 minutes") ageing: the viewer's records spread over the range, the
 * clock moving on a second at a time; each pass lets the records that aged out leave (the feed's one
 * timer, driven here by a stand-in setTimeout and Date.now) and the widgets take them out as a
 * delta — against filtering every record again, as the filter bar did once a minute before.
 */
{
  const SPAN = 15 * 60_000;
  let clock = Date.UTC(2026, 10, 24, 12, 0);
  const realNow = Date.now;
  const realSetTimeout = globalThis.setTimeout;
  let due: (() => void) | null = null;
  Date.now = () => clock;
  globalThis.setTimeout = ((fn: () => void) => {
    due = fn;
    return 0;
  }) as unknown as typeof setTimeout;
  try {
    const ageing = createStore<RecordsState>(() => ({ ...emptyRecords(), version: 0 }));
    recordKeeper(ageing).load(
      Array.from({ length: N }, (_, i) => ({ ...record(i), data: { ...record(i).data, created_at: new Date(clock - SPAN + (i * SPAN) / N).toISOString() } })),
      1,
    );
    const queue: (() => void)[] = [];
    const schedule = (step: () => void) => void queue.push(step);
    const feed = new FilteredFeed(storeFeed(ageing), { schedule });
    const widgets = SPECS.map((spec) => new WidgetTotals(spec, feed, { schedule }));
    const run = (fn: () => void) => {
      const c = process.cpuUsage();
      fn();
      for (;;) {
        feed.get();
        widgets.forEach((w) => w.snapshot());
        const next = queue.shift();
        if (!next) break;
        next();
      }
      const used = process.cpuUsage(c);
      return (used.user + used.system) / 1000;
    };
    const lastQuarter: FilterChoices = { created: { kind: 'date', range: { kind: 'relative', last: '15m' } } };
    const refilter = () => run(() => feed.setTest(compileChoices(FILTERS, lastQuarter, typing), agingOf(FILTERS, lastQuarter, typing)));
    const first = refilter();
    const passes: number[] = [];
    let left = 0;
    for (let i = 0; i < 30; i++) {
      clock += 1000;
      const before = feed.get().order.length;
      const fire = due as (() => void) | null;
      due = null;
      passes.push(run(() => fire?.()));
      left += before - feed.get().order.length;
    }
    const again = median(Array.from({ length: 3 }, refilter));
    console.log(`\nA relative range ageing: "Last 15 minutes" over ${N.toLocaleString('en-US')} records spread over it, the clock moving on a second at a time`);
    console.log(`| step | CPU | ÷ plain pass |`);
    console.log('|---|---|---|');
    console.log(`| first filter (with the list of when each record leaves) | ${fmt(first)} | ${(first / plain).toFixed(1)}× |`);
    console.log(`| a second later: the ${Math.round(left / passes.length)} records that aged out leave, widgets updated (median of ${passes.length}) | ${fmt(median(passes))} | ${(median(passes) / plain).toFixed(1)}× |`);
    console.log(`| worst of those | ${fmt(Math.max(...passes))} | ${(Math.max(...passes) / plain).toFixed(1)}× |`);
    console.log(`| filtering every record again instead (median of 3) | ${fmt(again)} | ${(again / plain).toFixed(1)}× |`);
    widgets.forEach((w) => w.stop());
  } finally {
    Date.now = realNow;
    globalThis.setTimeout = realSetTimeout;
  }
}
