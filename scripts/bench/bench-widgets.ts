/**
 * Widget aggregation benchmark: what a pushed delta costs the viewer's KPI and chart totals at
 * 100,000 records, against recounting every record, against a plain pass that only reads one
 * field of every record (the machine's speed, measured in the same run), and against a 16.7 ms frame.
 * Records sit in a Map by recordId, as in the viewer's store, and are recounted the way the viewer
 * does it (`reset(records.values())`).
 * Run: npm run bench:widgets   (also part of npm run bench:table; BENCH_RECORDS=n to pick the size)
 */
import os from 'node:os';
import { fieldValue } from '../../common/cells';
import { Aggregator, aggregateSpec } from '../../common/widgets/aggregate';
import { BarConfig, KpiConfig, LineConfig } from '../../common/schemas/widgets/widget';
import { SLICE_MS, recountInSlices } from '../../web/src/public/viewer/widgets/slicedRecount';

const N = Number(process.env.BENCH_RECORDS ?? 100_000);
const FRAME_MS = 1000 / 60;
const STATUSES = ['open', 'in progress', 'closed'];
const PRIORITIES = ['high', 'medium', 'low', 'urgent'];

const record = (i: number, salt = 0) => ({
  recordId: String(i),
  data: {
    status: STATUSES[(i + salt) % 3], priority: PRIORITIES[(i * 7 + salt) % 4], amount: (i * 37) % 1000,
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), custom_fields: [{ id: 1, value: i % 2 ? 'email' : 'chat' }],
  },
});

const WIDGETS = {
  'KPI (count, filtered)': aggregateSpec('kpi', KpiConfig.parse({ filter: { field: 'status', operator: 'eq', value: 'open' } })),
  'KPI (max of a field)': aggregateSpec('kpi', KpiConfig.parse({ metric: 'max', valueField: 'amount' })),
  'bar (sum by a field)': aggregateSpec('bar', BarConfig.parse({ groupField: 'priority', metric: 'sum', valueField: 'amount' })),
  'line (count per day, all time)': aggregateSpec('line', LineConfig.parse({ dateField: 'created_at', bucket: 'day' })),
  'line (sum per hour, 14 days)': aggregateSpec('line', LineConfig.parse({ dateField: 'created_at', range: { kind: 'fixed', from: '2026-02-01T00:00:00Z', to: '2026-02-15T00:00:00Z' }, bucket: 'hour', metric: 'sum', valueField: 'amount' })),
};

/**
 * Best and median of `runs` timings of fn, in ms (the best is the least disturbed by other work on
 * the machine); with `measures`, fn returns its own figure instead of being timed whole.
 */
function timings(runs: number, fn: () => void | number, measures = false): { best: number; median: number } {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const own = fn();
    times.push(measures ? Number(own) : performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { best: times[0], median: times[Math.floor(runs / 2)] };
}

/** What the widget shows: its top groups, its series or its value. */
function read(a: Aggregator): void {
  if (a.spec.groupField) a.top(8);
  else if (a.spec.bucket) a.series();
  else a.value();
}

const records = new Map(Array.from({ length: N }, (_, i) => [String(i), record(i)]));
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);
const plain = timings(15, () => {
  let open = 0;
  for (const r of records.values()) if (fieldValue(r.data, 'status') === 'open') open++;
  if (open < 0) throw new Error('unreachable');
});
console.log(`Widget totals at ${N.toLocaleString('en-US')} records (node ${process.version}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`);
console.log(`Baseline: a plain pass reading one field of every record takes ${fmt(plain.best)} (best of 15; median ${fmt(plain.median)}).`);
console.log(`The viewer recounts a store of 20,000 records or more in slices of about ${SLICE_MS} ms, one task each, keeping the old totals on screen.\n`);
console.log('| widget | full recount at once, best of 15 | median | best ÷ plain pass | best in a 16.7 ms frame | as the viewer recounts: longest slice (median of 15) | slices | delta of 1 record | delta of 100 records |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [name, spec] of Object.entries(WIDGETS)) {
  const current = new Map(records);
  const a = new Aggregator(spec, () => current.values());
  const full = timings(15, () => {
    a.reset(current.values());
    read(a);
  });
  // The viewer recounts a large store in slices of about SLICE_MS, a task each (here run back to back).
  let slices = 0;
  const longest = timings(15, () => {
    const queue: (() => void)[] = [];
    let worst = 0;
    const timed = (step: () => void) => () => {
      const t0 = performance.now();
      step();
      worst = Math.max(worst, performance.now() - t0);
    };
    let finished = false;
    timed(() => recountInSlices(spec, () => current.values(), () => current.values(), (_, n) => ((slices = n), (finished = true)), { schedule: (step) => void queue.push(timed(step)) }))();
    while (queue.length) queue.shift()!();
    if (!finished) throw new Error('the sliced recount did not finish');
    return worst;
  }, true);
  let salt = 1;
  const delta = (k: number) => () => {
    salt++;
    for (let j = 0; j < k; j++) {
      const i = (salt * 7919 + j * 104_729) % N;
      const r = record(i, salt);
      a.update(current.get(r.recordId)?.data, r.data);
      current.set(r.recordId, r);
    }
    read(a);
  };
  const one = timings(201, delta(1)).median;
  const hundred = timings(51, delta(100)).median;
  console.log(`| ${name} | ${fmt(full.best)} | ${fmt(full.median)} | ${(full.best / plain.best).toFixed(1)}× | ${((full.best / FRAME_MS) * 100).toFixed(0)}% | ${fmt(longest.median)} | ${slices} | ${fmt(one)} | ${fmt(hundred)} |`);
}

// A relative range sliding by one slot (its bucket boundary): the viewer's timer moves the window,
// dropping the slots that left it, instead of counting every record again. Records over the last
// 24 hours (and 7 days) before NOW; each tick moves now one slot on and reads what the widget shows.
const NOW = Date.UTC(2026, 2, 10, 12, 0, 30);
const recent = Array.from({ length: N }, (_, i) => ({ data: { status: STATUSES[i % 3], amount: i % 1000, at: new Date(NOW - Math.floor((i * 7 * 86_400_000) / N)).toISOString() } }));
const SLIDING = {
  'KPI (count, last 24 hours, compared)': aggregateSpec('kpi', KpiConfig.parse({ dateField: 'at', range: { kind: 'relative', last: '24h' }, compare: true })),
  'line (last 24 hours, automatic bucket)': aggregateSpec('line', LineConfig.parse({ dateField: 'at', range: { kind: 'relative', last: '24h' } })),
  'bar (sum by status, last 7 days)': aggregateSpec('bar', BarConfig.parse({ groupField: 'status', metric: 'sum', valueField: 'amount', range: { kind: 'relative', last: '7d' } }), undefined, 'at'),
};
console.log(`\nA relative range sliding by one slot at ${N.toLocaleString('en-US')} records (goal: under 2 ms per tick, incremental):`);
console.log('| widget | slot | tick: advance + read, median of 101 | worst | full recount at the same moment, best of 7 | recount ÷ tick |');
console.log('|---|---|---|---|---|---|');
for (const [name, spec] of Object.entries(SLIDING)) {
  const a = new Aggregator(spec, () => recent, NOW);
  a.reset(recent);
  let now = NOW;
  const ticks = timings(101, () => {
    now = a.nextChange()!;
    a.advance(now);
    read(a);
  });
  let worst = 0;
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    now = a.nextChange()!;
    a.advance(now);
    read(a);
    worst = Math.max(worst, performance.now() - t0);
  }
  const recount = timings(7, () => {
    const b = new Aggregator(spec, () => recent, now);
    b.reset(recent);
    read(b);
  });
  console.log(`| ${name} | ${a.slot} | ${fmt(ticks.median)} | ${fmt(worst)} | ${fmt(recount.best)} | ${(recount.best / ticks.median).toFixed(0)}× |`);
}

// Charts that answer the question: a line split into 10 series, by day over a year, averaging a
// field; a 95th-percentile KPI. Full computation (recount + read) and one pushed record (update + read).
const YEAR_START = Date.UTC(2025, 0, 1);
const SYMBOLS = Array.from({ length: 10 }, (_, i) => `S${i}`);
const quote = (i: number, salt = 0) => ({ data: { symbol: SYMBOLS[(i * 7 + salt) % 10], at: new Date(YEAR_START + Math.floor((i * 365 * 86_400_000) / N)).toISOString(), price: 50 + ((i * 7919 + salt * 31) % 10_000) / 100 } });
const QUESTIONS = {
  'line: avg per day over a year, split into 10 series': { spec: aggregateSpec('line', LineConfig.parse({ dateField: 'at', bucket: 'day', metric: 'avg', valueField: 'price', splitField: 'symbol', range: { kind: 'fixed', from: '2025-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } })), goal: [150, 1] },
  'line: p95 per day over a year, split into 10 series': { spec: aggregateSpec('line', LineConfig.parse({ dateField: 'at', bucket: 'day', metric: 'p95', valueField: 'price', splitField: 'symbol', range: { kind: 'fixed', from: '2025-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } })), goal: [150, 1] },
  'KPI: p95 of a field': { spec: aggregateSpec('kpi', KpiConfig.parse({ metric: 'p95', valueField: 'price' })), goal: [50, 1] },
} as const;
const quotes = new Map(Array.from({ length: N }, (_, i) => [i, quote(i)]));
const readQuestion = (a: Aggregator) => (a.spec.bucket ? a.lines(10) : a.value());
console.log(`\nCharts that answer the question at ${N.toLocaleString('en-US')} records (goals: full computation, one pushed record):`);
console.log('| widget | full computation, best of 9 (CPU ms) | median | ÷ plain pass | goal | one pushed record + read, median of 201 | worst | goal |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, { spec, goal }] of Object.entries(QUESTIONS)) {
  const current = new Map(quotes);
  const a = new Aggregator(spec);
  const cpu = (fn: () => void) => () => {
    const t0 = process.cpuUsage();
    fn();
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / 1000;
  };
  const full = timings(9, cpu(() => {
    a.reset(current.values());
    readQuestion(a);
  }), true);
  let salt = 1;
  let worst = 0;
  const push = timings(201, () => {
    salt++;
    const i = (salt * 7919) % N;
    const r = quote(i, salt);
    const t0 = performance.now();
    a.update(current.get(i)?.data, r.data);
    current.set(i, r);
    readQuestion(a);
    const ms = performance.now() - t0;
    worst = Math.max(worst, ms);
    return ms;
  }, true);
  console.log(`| ${name} | ${fmt(full.best)} | ${fmt(full.median)} | ${(full.best / plain.best).toFixed(1)}× | < ${goal[0]} ms | ${fmt(push.median)} | ${fmt(worst)} | < ${goal[1]} ms |`);
}
