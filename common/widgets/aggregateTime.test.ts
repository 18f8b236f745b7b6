import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec, comparison, slotBucket, type AggregateSpec } from './aggregate';
import { KpiConfig, LineConfig, BarConfig, migrateLineConfig } from '../schemas/widgets/widget';
import { Widget } from '../schemas/dashboard';

type Data = Record<string, unknown>;
const held = (list: Iterable<Data>) => [...list].map((data) => ({ data }));
// Local-time dates, so the tests hold in any time zone the machine runs in.
const at = (y: number, m: number, d = 1, h = 0, min = 0, s = 0) => new Date(y, m - 1, d, h, min, s).getTime();
const iso = (t: number) => new Date(t).toISOString();
const MIN = 60_000;

function counted(spec: AggregateSpec, records: Data[], now: number) {
  const a = new Aggregator(spec, () => held(records), now);
  a.reset(held(records));
  return a;
}

describe('widgets over time ranges', () => {
  // One record on the first of every month from 1990 to 1999, written as "Jun 12 1998" is.
  const monthly = Array.from({ length: 120 }, (_, i) => ({ released: new Date(1990, i, 1, 12).toDateString().slice(4), gross: i }));

  it('draws a fixed range by year and by month, its ends included and excluded', () => {
    const range = { kind: 'fixed' as const, from: iso(at(1992, 1)), to: iso(at(1995, 1)) };
    const byYear = counted(aggregateSpec('line', LineConfig.parse({ dateField: 'released', range, bucket: 'year' })), monthly, at(2026, 1));
    expect(byYear.series().rows).toEqual([1992, 1993, 1994].map((y) => ({ start: at(y, 1), value: 12 })));
    expect(byYear.series().bucket).toBe('year');
    const byMonth = counted(aggregateSpec('line', LineConfig.parse({ dateField: 'released', range, bucket: 'month', metric: 'sum', valueField: 'gross' })), monthly, at(2026, 1));
    const rows = byMonth.series().rows;
    expect(rows).toHaveLength(36);
    expect(rows[0]).toEqual({ start: at(1992, 1), value: 24 });
    expect(rows[35]).toEqual({ start: at(1994, 12), value: 59 });
    // Automatic over 3 years: by month (the smallest bucket drawing it in about 120 points or fewer).
    expect(counted(aggregateSpec('line', LineConfig.parse({ dateField: 'released', range })), monthly, at(2026, 1)).series().bucket).toBe('month');
  });

  it('picks the automatic bucket of all time from the records\' own span, and keeps the latest 500 of a chosen one', () => {
    const all = counted(aggregateSpec('line', LineConfig.parse({ dateField: 'released' })), monthly, at(2026, 1));
    expect(all.series().bucket).toBe('month');
    expect(all.series().rows).toHaveLength(120);
    expect(all.series().rows[0].start).toBe(at(1990, 1));
    const byDay = counted(aggregateSpec('line', LineConfig.parse({ dateField: 'released', bucket: 'day' })), monthly, at(2026, 1)).series();
    expect(byDay.rows).toHaveLength(500);
    expect(byDay.buckets).toBeGreaterThan(3600);
    expect(byDay.rows.at(-1)).toEqual({ start: at(1999, 12, 1), value: 1 });
  });

  it('counts KPIs, bars and donuts in the range only, over the source\'s time field by default', () => {
    const range = { kind: 'fixed' as const, from: iso(at(1999, 1)), to: iso(at(2000, 1)) };
    const kpi = counted(aggregateSpec('kpi', KpiConfig.parse({ range }), undefined, 'released'), monthly, at(2026, 1));
    expect(kpi.value()).toBe(12);
    const bar = counted(aggregateSpec('bar', BarConfig.parse({ groupField: 'kind', range }), undefined, 'released'), monthly.map((m, i) => ({ ...m, kind: i % 2 ? 'odd' : 'even' })), at(2026, 1));
    expect(bar.top()).toEqual([{ key: 'even', value: 6 }, { key: 'odd', value: 6 }]);
    // All time reads no time at all.
    expect(aggregateSpec('kpi', KpiConfig.parse({}), undefined, 'released').dateField).toBeUndefined();
  });

  it('computes every KPI metric over a relative range: distinct, latest by date, rate per minute and hour', () => {
    const now = at(2026, 3, 10, 12, 30);
    const records = [
      { t: iso(now - 10 * MIN), v: 5, who: 'a' },
      { t: iso(now - 20 * MIN), v: 9, who: 'b' },
      { t: iso(now - 5 * MIN), v: 2, who: 'a' },
      { t: iso(now - 90 * MIN), v: 100, who: 'c' }, // before the last hour
    ];
    const kpi = (c: object) => counted(aggregateSpec('kpi', KpiConfig.parse({ range: { kind: 'relative', last: '1h' }, dateField: 't', ...c })), records, now).value();
    expect(kpi({})).toBe(3);
    expect(kpi({ metric: 'sum', valueField: 'v' })).toBe(16);
    expect(kpi({ metric: 'min', valueField: 'v' })).toBe(2);
    expect(kpi({ metric: 'max', valueField: 'v' })).toBe(9);
    expect(kpi({ metric: 'distinct', valueField: 'who' })).toBe(2);
    expect(kpi({ metric: 'latest', valueField: 'v' })).toBe(2);
    // The last hour is the last 60 minutes, the current one so far included.
    expect(kpi({ metric: 'perMinute' })).toBeCloseTo(3 / 60, 1);
    expect(kpi({ metric: 'perHour' })).toBeCloseTo(3, 0);
  });

  it('keeps the latest value, minimum and distinct count right through changes and removals', () => {
    const now = at(2026, 3, 10, 12, 30);
    const data = new Map<string, Data>([['1', { t: iso(now - MIN), v: 7 }], ['2', { t: iso(now - 2 * MIN), v: 3 }]]);
    const spec = aggregateSpec('kpi', KpiConfig.parse({ range: { kind: 'relative', last: '15m' }, dateField: 't', metric: 'latest', valueField: 'v' }));
    const a = new Aggregator(spec, () => held(data.values()), now);
    a.reset(held(data.values()));
    expect(a.value()).toBe(7);
    a.update(data.get('1'), undefined);
    data.delete('1');
    expect(a.value()).toBe(3);
  });

  it('slides a relative range by itself: records leave as they age out, equal to a recount at every step, without reading the records', () => {
    const start = at(2026, 3, 10, 9, 0, 30);
    const records = Array.from({ length: 300 }, (_, i) => ({ t: iso(start - i * 17_000), n: i % 7 }));
    for (const c of [
      KpiConfig.parse({ range: { kind: 'relative', last: '15m' }, dateField: 't', compare: true }),
      KpiConfig.parse({ range: { kind: 'relative', last: '1h' }, dateField: 't', metric: 'sum', valueField: 'n', sparkline: true }),
    ]) {
      const spec = aggregateSpec('kpi', c);
      let reads = 0;
      const a = new Aggregator(spec, () => (reads++, held(records)), start);
      a.reset(held(records));
      const first = a.value()!;
      for (let step = 1; step <= 40; step++) {
        const now = start + step * 30_000;
        const next = a.nextChange()!;
        expect(next).toBeGreaterThan(a.now);
        a.advance(now);
        const again = counted(spec, records, now);
        expect([a.value(), a.previous(), a.series().rows], `step ${step}`).toEqual([again.value(), again.previous(), again.series().rows]);
      }
      expect(a.value()).toBeLessThan(first);
      expect(reads).toBe(0);
    }
  });

  it('draws a relative range as whole buckets ending with the current one: 24 hours by hour', () => {
    const now = at(2026, 3, 10, 12, 30);
    const spec = aggregateSpec('line', LineConfig.parse({ dateField: 't', range: { kind: 'relative', last: '24h' } }));
    expect(slotBucket(spec)).toBe('minute');
    const a = counted(spec, [{ t: iso(now - 30 * MIN) }, { t: iso(now - 23.9 * 3_600_000) }, { t: iso(now - 25 * 3_600_000) }], now);
    const { rows, bucket } = a.series();
    expect(bucket).toBe('hour');
    expect(rows).toHaveLength(24);
    expect(rows[0]).toEqual({ start: at(2026, 3, 9, 13), value: 0 });
    expect(rows.at(-1)).toEqual({ start: at(2026, 3, 10, 12), value: 1 });
    expect(rows.reduce((s, r) => s + (r.value ?? 0), 0)).toBe(1);
  });

  it('compares a calendar period with the one before, and says "—" when that one is empty or 0', () => {
    const now = at(2026, 3, 10, 12);
    const records = [{ t: iso(at(2026, 3, 2)) }, { t: iso(at(2026, 3, 9)) }, { t: iso(at(2026, 3, 9, 5)) }, { t: iso(at(2026, 2, 20)) }, { t: iso(at(2026, 2, 28, 23, 59)) }];
    const a = counted(aggregateSpec('kpi', KpiConfig.parse({ range: { kind: 'calendar', period: 'month' }, dateField: 't', compare: true })), records, now);
    expect([a.value(), a.previous()]).toEqual([3, 2]);
    expect(comparison(3, 2)).toEqual({ previous: 2, percent: 50 });
    expect(comparison(1, 4).percent).toBe(-75);
    expect(comparison(5, 0).percent).toBeNull();
    expect(comparison(5, null).percent).toBeNull();
    // All time has no previous period.
    expect(counted(aggregateSpec('kpi', KpiConfig.parse({ dateField: 't', compare: true })), records, now).previous()).toBeNull();
  });
});

describe('time settings of a widget', () => {
  const issues = (configuration: object, type = 'line') => {
    const r = Widget.safeParse({ id: 'w', type, configuration });
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('refuses a chosen bucket that would draw more than 500 points over the range, before saving', () => {
    expect(issues({ dateField: 't', range: { kind: 'relative', last: '30d' }, bucket: 'minute' })).toEqual([
      'configuration.bucket: By minute, Last 30 days is 43,200 points; a chart draws at most 500. Pick a larger bucket or a shorter range.',
    ]);
    expect(issues({ dateField: 't', range: { kind: 'relative', last: '30d' }, bucket: 'hour' })).toHaveLength(1);
    expect(issues({ dateField: 't', range: { kind: 'relative', last: '7d' }, bucket: 'hour' })).toEqual([]);
    // Said at once, beside a missing date field.
    expect(issues({ range: { kind: 'relative', last: '30d' }, bucket: 'hour' })).toEqual(['configuration.dateField: Pick a date field', expect.stringMatching(/^configuration.bucket: By hour, Last 30 days is 720 points/)]);
    expect(issues({ range: { kind: 'calendar', period: 'year' }, bucket: 'hour', sparkline: true }, 'kpi')).toHaveLength(1);
    expect(issues({ dateField: 't', range: { kind: 'fixed', from: '2024-02-01', to: '2024-01-01' } })).toEqual(['configuration.range.from: from must be before to']);
  });

  it('reads line charts saved with interval and points as the shortest relative range at least as long, by the same bucket', () => {
    const read = (c: object) => LineConfig.parse({ dateField: 't', ...c });
    expect(read({ interval: 'day', points: 30 })).toMatchObject({ range: { kind: 'relative', last: '30d' }, bucket: 'day' });
    expect(read({ interval: 'hour', points: 24 })).toMatchObject({ range: { kind: 'relative', last: '24h' }, bucket: 'hour' });
    expect(read({ interval: 'week', points: 12 })).toMatchObject({ range: { kind: 'relative', last: '12mo' }, bucket: 'week' });
    expect(read({ interval: 'minute', points: 10 })).toMatchObject({ range: { kind: 'relative', last: '15m' }, bucket: 'minute' });
    // 500 minutes → the last 24 hours, whose 1,440 minutes are too many points: by the automatic bucket.
    expect(read({ interval: 'minute', points: 500 })).toMatchObject({ range: { kind: 'relative', last: '24h' }, bucket: 'auto' });
    expect(read({ interval: 'week', points: 500 })).toMatchObject({ range: { kind: 'all' }, bucket: 'week' });
    expect(read({ interval: 'day', points: 30 })).not.toHaveProperty('points');
    expect(migrateLineConfig({ dateField: 't', range: { kind: 'all' } })).toEqual({ dateField: 't', range: { kind: 'all' } });
  });
});
