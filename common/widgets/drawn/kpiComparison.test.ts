import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec } from '../aggregate';
import { kpiComparison } from './kpiComparison';
import { KpiConfig } from '../../schemas/widgets/widget';

type Data = Record<string, unknown>;
const held = (list: Iterable<Data>) => [...list].map((data) => ({ data }));
// Local-time dates, so the test holds in any time zone the machine runs in.
const at = (y: number, m: number, d = 1) => new Date(y, m - 1, d, 12).getTime();

function kpi(config: unknown, records: Data[], now: number) {
  const c = KpiConfig.parse(config);
  const a = new Aggregator(aggregateSpec('kpi', c), () => held(records), now);
  a.reset(held(records));
  return kpiComparison(a, c.range);
}

describe('what a KPI compares its number with', () => {
  // 24 months of 2014–2015, the value growing by 10 a month; the data ended long before "now".
  const monthly = Array.from({ length: 24 }, (_, i) => ({ month: new Date(at(2014, 1 + i)).toISOString(), jobs: 1000 + 10 * i }));
  const now = at(2026, 6);

  it('all time: the latest month in the data against the one before it', () => {
    const c = kpi({ metric: 'latest', valueField: 'jobs', dateField: 'month', compare: true }, monthly, now);
    expect(c).toMatchObject({ against: 'bucket', bucket: 'month', latest: new Date(2015, 11, 1).getTime(), before: new Date(2015, 10, 1).getTime(), value: 1230, previous: 1220 });
    expect(c!.percent).toBeCloseTo((10 / 1220) * 100, 6);
  });

  it('fixed dates whose previous period holds no record fall back to the latest bucket; a range counted from now keeps its previous period', () => {
    const recent = Array.from({ length: 6 }, (_, i) => ({ month: new Date(at(2026, 1 + i)).toISOString(), jobs: 100 + i }));
    const fixed = { kind: 'fixed', from: new Date(at(2026, 1)).toISOString(), to: new Date(at(2026, 7)).toISOString() };
    expect(kpi({ metric: 'sum', valueField: 'jobs', dateField: 'month', compare: true, range: fixed }, recent, now)).toMatchObject({ against: 'bucket' });
    // Counted back from now, the year before empty: compared with it all the same (nothing there: no percentage).
    const last365 = { kind: 'relative', last: '12mo' };
    expect(kpi({ metric: 'sum', valueField: 'jobs', dateField: 'month', compare: true, range: last365 }, recent, now)).toMatchObject({ against: 'period', percent: null });
    // With a record in the year before: the period before the range.
    const withBefore = [...recent, { month: new Date(at(2025, 3)).toISOString(), jobs: 50 }];
    expect(kpi({ metric: 'sum', valueField: 'jobs', dateField: 'month', compare: true, range: last365 }, withBefore, now))
      .toMatchObject({ against: 'period', previous: 50 });
  });

  it('compares by the records\' spacing (weekdays: the week), or by the sparkline\'s own bucket', () => {
    // Mondays to Fridays of two weeks: the latest week (Monday 8 Jun 2026 only, so far) against the one before.
    const weekdays = [1, 2, 3, 4, 5, 8].map((d) => ({ month: new Date(at(2026, 6, d)).toISOString() }));
    const byWeek = kpi({ metric: 'count', dateField: 'month', compare: true }, weekdays, at(2026, 7));
    expect(byWeek).toMatchObject({ against: 'bucket', bucket: 'week', value: 1, previous: 5, percent: -80 });
    // A sparkline by year: 2015 against 2014.
    const c = KpiConfig.parse({ metric: 'sum', valueField: 'jobs', dateField: 'month', compare: true, sparkline: true, bucket: 'year' });
    const a = new Aggregator(aggregateSpec('kpi', c), () => held(monthly), now);
    a.reset(held(monthly));
    const sum = (y: number) => monthly.filter((r) => r.month.startsWith(String(y))).reduce((s, r) => s + r.jobs, 0);
    expect(kpiComparison(a, c.range, 'year')).toMatchObject({ against: 'bucket', bucket: 'year', value: sum(2015), previous: sum(2014) });
  });

  it('nothing to compare: no record in the range, or only one bucket of them', () => {
    expect(kpi({ metric: 'count', dateField: 'month', compare: true }, [], now)).toBeNull();
    expect(kpi({ metric: 'count', dateField: 'month', compare: true }, [monthly[0]], now)).toBeNull();
  });
});
