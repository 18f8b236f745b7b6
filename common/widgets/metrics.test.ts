import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec } from './aggregate';
import { percentileOf } from './charts/groupTotal';
import { OTHER_GROUP } from './charts/groups';
import { BarConfig, DonutConfig, KpiConfig, LineConfig } from '../schemas/widgets/widget';

/**
 * Every metric and split against values computed here independently, plainly (sort and
 * interpolate, add and divide), over public data nobody here wrote (vega-datasets): stock prices
 * (symbol, "Jan 1 2000", price), natural disasters (Entity, Year as a number, Deaths) and cars (with
 * nulls). CSV files are read as the ingest reads them: every value as text.
 */
const require = createRequire(import.meta.url);
const dataFile = (name: string) => path.join(path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data'), name);
const csv = (name: string) => {
  const [head, ...rows] = fs.readFileSync(dataFile(name), 'utf8').trim().split('\n');
  const names = head.split(',');
  return rows.map((row) => Object.fromEntries(row.split(',').map((v, i) => [names[i], v.trim()])));
};
const stocks = csv('stocks.csv');
const disasters = csv('disasters.csv');
const cars = JSON.parse(fs.readFileSync(dataFile('cars.json'), 'utf8')) as Record<string, unknown>[];
const held = (list: Record<string, unknown>[]) => list.map((data) => ({ data }));

/** The reference: numpy's default percentile (Excel's PERCENTILE.INC), written out. */
function reference(values: number[], metric: string): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => {
    const h = (s.length - 1) * p;
    const lo = Math.floor(h);
    return lo + 1 < s.length ? s[lo] + (h - lo) * (s[lo + 1] - s[lo]) : s[lo];
  };
  switch (metric) {
    case 'count': return values.length;
    case 'sum': return values.reduce((a, b) => a + b, 0);
    case 'avg': return values.reduce((a, b) => a + b, 0) / values.length;
    case 'min': return s[0];
    case 'max': return s[s.length - 1];
    case 'median': return at(0.5);
    case 'p90': return at(0.9);
    case 'p95': return at(0.95);
    case 'p99': return at(0.99);
  }
  throw new Error(metric);
}
const ORDER_METRICS = ['sum', 'avg', 'min', 'max', 'median', 'p90', 'p95', 'p99'] as const;

describe('percentiles', () => {
  it('interpolate linearly between the closest ranks, as numpy and PERCENTILE.INC do', () => {
    // numpy.percentile([1, 2, 3, 4], [50, 90, 95, 99]) = 2.5, 3.7, 3.85, 3.97
    const s = [1, 2, 3, 4];
    expect([0.5, 0.9, 0.95, 0.99].map((p) => percentileOf(s, p))).toEqual([2.5, expect.closeTo(3.7, 12), expect.closeTo(3.85, 12), expect.closeTo(3.97, 12)]);
    expect(percentileOf([7], 0.95)).toBe(7);
    expect(percentileOf([], 0.5)).toBeNull();
  });
});

describe('stocks.csv: price per symbol over time', () => {
  const yearOf = (d: string) => Number(d.slice(-4));
  const symbols = [...new Set(stocks.map((r) => r.symbol))].sort();

  it.each(ORDER_METRICS)('%s of price by year, one series per symbol, equals the plain computation', (metric) => {
    const a = new Aggregator(aggregateSpec('line', LineConfig.parse({ dateField: 'date', bucket: 'year', metric, valueField: 'price', splitField: 'symbol' })));
    a.reset(held(stocks));
    const { starts, series, leftSeries } = a.lines(10);
    expect(series.map((s) => s.key)).toEqual(symbols);
    expect(leftSeries).toBe(0);
    const years = starts.map((s) => new Date(s).getUTCFullYear());
    expect(years[0]).toBe(2000);
    expect(years.at(-1)).toBe(2010);
    for (const s of series) {
      // A year without records: 0 for a sum, a gap for the others.
      const expected = years.map((y) => reference(stocks.filter((r) => r.symbol === s.key && yearOf(r.date) === y).map((r) => Number(r.price)), metric) ?? (metric === 'sum' ? 0 : null));
      s.values.forEach((v, i) => (expected[i] === null ? expect(v, `${s.key} ${years[i]}`).toBeNull() : expect(v, `${s.key} ${years[i]}`).toBeCloseTo(expected[i]!, 9)));
    }
  });

  it('average price by month per symbol: one record a month, so each point is that month\'s price; IBM starts in 2000, GOOG in 2004 (gaps before)', () => {
    const a = new Aggregator(aggregateSpec('line', LineConfig.parse({ dateField: 'date', bucket: 'month', metric: 'avg', valueField: 'price', splitField: 'symbol' })));
    a.reset(held(stocks));
    const { starts, series } = a.lines(10);
    const goog = series.find((s) => s.key === 'GOOG')!;
    const firstGoog = stocks.find((r) => r.symbol === 'GOOG')!;
    const at = starts.indexOf(Date.parse(`${firstGoog.date} UTC`));
    expect(at).toBeGreaterThan(0);
    expect(goog.values[at]).toBe(Number(firstGoog.price));
    // Before GOOG's first record: gaps (no average), never 0.
    expect(goog.values.slice(0, at).every((v) => v === null)).toBe(true);
  });

  it('draws the largest series and combines the rest as "Other" with the same metric over their records, or leaves them out and says how many', () => {
    const spec = aggregateSpec('line', LineConfig.parse({ dateField: 'date', bucket: 'year', metric: 'avg', valueField: 'price', splitField: 'symbol', seriesLimit: 2 }));
    const a = new Aggregator(spec);
    a.reset(held(stocks));
    // Largest average price over all time: GOOG, then AAPL (drawn in label order).
    const avg = (sym: string) => reference(stocks.filter((r) => r.symbol === sym).map((r) => Number(r.price)), 'avg')!;
    const ranked = [...symbols].sort((x, y) => avg(y) - avg(x));
    const combined = a.lines(2, 'combine');
    expect(combined.series.map((s) => s.key)).toEqual([...ranked.slice(0, 2).sort(), OTHER_GROUP]);
    expect(combined.leftSeries).toBe(symbols.length - 2);
    const rest = stocks.filter((r) => !ranked.slice(0, 2).includes(r.symbol) && r.date.endsWith('2005')).map((r) => Number(r.price));
    const y2005 = combined.starts.findIndex((s) => new Date(s).getUTCFullYear() === 2005);
    expect(combined.series.at(-1)!.values[y2005]).toBeCloseTo(reference(rest, 'avg')!, 9);
    const omitted = a.lines(2, 'omit');
    expect(omitted.series.map((s) => s.key)).toEqual(ranked.slice(0, 2).sort());
    expect(omitted).toMatchObject({ leftSeries: symbols.length - 2, omitted: true });
  });

  it('keeps a split line equal to a recount through pushes and removals (min, max, median and latest survive removals; "Other" follows)', () => {
    for (const [metric, limit, bucket] of [['min', 10, 'year'], ['max', 2, 'year'], ['p90', 2, 'month'], ['latest', 10, 'year'], ['avg', 2, 'month'], ['count', 3, 'month']] as const) {
      const spec = aggregateSpec('line', LineConfig.parse({ dateField: 'date', bucket, metric, valueField: 'price', splitField: 'symbol', seriesLimit: limit }));
      const data = new Map(stocks.map((r, i) => [String(i), r]));
      const a = new Aggregator(spec);
      a.reset(held([...data.values()]));
      a.lines(limit); // read once: the numbers are sorted from here on, kept sorted by each change; later reads patch this one
      let seed = 11;
      const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
      for (let step = 0; step < 200; step++) {
        const id = String(rand(stocks.length + 50));
        const before = data.get(id);
        if (before && rand(3) === 0) {
          a.update(before, undefined);
          data.delete(id);
        } else {
          const src = stocks[rand(stocks.length)];
          const after = { ...src, price: String(Number(src.price) + rand(400) - 50) };
          a.update(before, after);
          data.set(id, after);
        }
        if (step % 7 === 0) {
          const b = new Aggregator(spec);
          b.reset(held([...data.values()]));
          // Sums kept by adding and taking away may differ from a fresh sum in the last bits.
          const rounded = (x: ReturnType<Aggregator['lines']>) => ({ ...x, series: x.series.map((s) => ({ ...s, values: s.values.map((v) => (v === null ? null : Number(v.toFixed(9)))) })) });
          expect(rounded(a.lines(limit)), `${metric} at step ${step}`).toEqual(rounded(b.lines(limit)));
        }
      }
    }
  });
});

describe('disasters.csv: deaths per year, Year a number', () => {
  const all = disasters.filter((r) => r.Entity === 'All natural disasters');

  it('reads whole years as those years (never seconds after 1970), one point per year', () => {
    const c = LineConfig.parse({ dateField: 'Year', metric: 'sum', valueField: 'Deaths', filters: [{ field: 'Entity', operator: 'eq', value: 'All natural disasters' }] });
    const a = new Aggregator(aggregateSpec('line', c));
    a.reset(held(disasters));
    const { starts, bucket, series } = a.lines(1);
    expect(bucket).toBe('year');
    const years = starts.map((s) => new Date(s).getUTCFullYear());
    expect(years[0]).toBe(Number(all[0].Year));
    expect(years.at(-1)).toBe(Number(all.at(-1)!.Year));
    expect(years).toEqual(Array.from({ length: years.length }, (_, i) => years[0] + i));
    for (const r of all) expect(series[0].values[years.indexOf(Number(r.Year))], r.Year).toBe(Number(r.Deaths));
    // Years with no record: 0 for a sum.
    const missing = years.filter((y) => !all.some((r) => Number(r.Year) === y));
    expect(missing.length).toBeGreaterThan(0);
    for (const y of missing) expect(series[0].values[years.indexOf(y)]).toBe(0);
  });

  it('draws whole years by year with the automatic bucket, however few years they span', () => {
    const a = new Aggregator(aggregateSpec('line', LineConfig.parse({ dateField: 'Year', metric: 'sum', valueField: 'Deaths' })));
    a.reset(held(all.filter((r) => Number(r.Year) <= 1905)));
    const { starts, bucket, series } = a.lines(1);
    expect(bucket).toBe('year');
    expect(starts.map((s) => new Date(s).getUTCFullYear())).toEqual([1900, 1901, 1902, 1903, 1904, 1905]);
    // No record for 1904: 0 for a sum.
    expect(series[0].values).toEqual([1900, 1901, 1902, 1903, 1904, 1905].map((y) => Number(all.find((r) => Number(r.Year) === y)?.Deaths ?? 0)));
  });

  it('leaves an empty year a gap for an average, and 0 when the widget says so', () => {
    const base = { dateField: 'Year', metric: 'avg', valueField: 'Deaths', filters: [{ field: 'Entity', operator: 'eq', value: 'All natural disasters' }] };
    const gap = new Aggregator(aggregateSpec('line', LineConfig.parse(base)));
    const zero = new Aggregator(aggregateSpec('line', LineConfig.parse({ ...base, emptyAs: 'zero' })));
    gap.reset(held(disasters));
    zero.reset(held(disasters));
    const g = gap.lines(1);
    const year = (y: number) => g.starts.findIndex((s) => new Date(s).getUTCFullYear() === y);
    const missing = g.starts.map((s) => new Date(s).getUTCFullYear()).find((y) => !all.some((r) => Number(r.Year) === y))!;
    expect(g.series[0].values[year(missing)]).toBeNull();
    expect(zero.lines(1).series[0].values[year(missing)]).toBe(0);
  });

  it('splits deaths per year by disaster type (several filters, all must match), the 3 largest drawn', () => {
    const c = LineConfig.parse({
      dateField: 'Year', bucket: 'year', metric: 'max', valueField: 'Deaths', splitField: 'Entity', seriesLimit: 3, otherSeries: 'omit',
      filters: [{ field: 'Entity', operator: 'neq', value: 'All natural disasters' }, { field: 'Year', operator: 'gte', value: '1950' }],
    });
    const a = new Aggregator(aggregateSpec('line', c));
    a.reset(held(disasters));
    const kept = disasters.filter((r) => r.Entity !== 'All natural disasters' && Number(r.Year) >= 1950);
    const maxOf = (e: string) => Math.max(...kept.filter((r) => r.Entity === e).map((r) => Number(r.Deaths)));
    const entities = [...new Set(kept.map((r) => r.Entity))].sort((x, y) => maxOf(y) - maxOf(x));
    const { series, leftSeries, starts } = a.lines(3, 'omit');
    expect(series.map((s) => s.key)).toEqual(entities.slice(0, 3).sort());
    expect(leftSeries).toBe(entities.length - 3);
    expect(new Date(starts[0]).getUTCFullYear()).toBe(1950);
  });
});

describe('cars.json: messy records (nulls), KPIs, bars and donuts', () => {
  const numbers = (list: Record<string, unknown>[], f: string) => list.map((r) => r[f]).filter((v): v is number => typeof v === 'number');

  it.each(ORDER_METRICS)('KPI %s of horsepower skips the nulls', (metric) => {
    const a = new Aggregator(aggregateSpec('kpi', KpiConfig.parse({ metric, valueField: 'Horsepower' })));
    a.reset(held(cars));
    expect(cars.some((r) => r.Horsepower === null)).toBe(true);
    expect(a.value()).toBeCloseTo(reference(numbers(cars, 'Horsepower'), metric)!, 9);
  });

  it('KPI with several filters: all must match, every operator', () => {
    const filters = [
      { field: 'Origin', operator: 'in', values: ['USA', 'Europe'] }, { field: 'Cylinders', operator: 'gte', value: '6' },
      { field: 'Name', operator: 'contains', value: 'ford' }, { field: 'Horsepower', operator: 'lt', value: '200' }, { field: 'Miles_per_Gallon', operator: 'neq', value: '15' },
    ];
    const a = new Aggregator(aggregateSpec('kpi', KpiConfig.parse({ metric: 'p95', valueField: 'Weight_in_lbs', filters })));
    a.reset(held(cars));
    const kept = cars.filter((r) => ['USA', 'Europe'].includes(r.Origin as string) && (r.Cylinders as number) >= 6 && String(r.Name).includes('ford')
      && typeof r.Horsepower === 'number' && r.Horsepower < 200 && r.Miles_per_Gallon !== 15);
    expect(kept.length).toBeGreaterThan(5);
    expect(a.value()).toBeCloseTo(reference(numbers(kept, 'Weight_in_lbs'), 'p95')!, 9);
  });

  it('bar of median MPG by origin, split by cylinders side by side; the "Other" category is the median of its records', () => {
    const c = BarConfig.parse({ groupField: 'Origin', metric: 'median', valueField: 'Miles_per_Gallon', splitField: 'Cylinders', stack: false, topN: 1 });
    const a = new Aggregator(aggregateSpec('bar', c));
    a.reset(held(cars));
    const top = a.top(1);
    const median = (origin: string) => reference(numbers(cars.filter((r) => r.Origin === origin), 'Miles_per_Gallon'), 'median')!;
    const [first] = ['USA', 'Europe', 'Japan'].sort((x, y) => median(y) - median(x));
    expect(top).toEqual([
      { key: first, value: median(first) },
      { key: OTHER_GROUP, value: reference(numbers(cars.filter((r) => r.Origin !== first), 'Miles_per_Gallon'), 'median'), others: 2 },
    ]);
    const split = a.split(1, 'value', 10);
    expect(split.categories).toEqual([first, OTHER_GROUP]);
    const eight = split.series.find((s) => s.key === '8')!;
    // No Japanese car has 8 cylinders: a median of nothing is no bar (not 0).
    expect(first).toBe('Japan');
    expect(eight.values[0]).toBeNull();
    expect(eight.values[1]).toBe(reference(numbers(cars.filter((r) => r.Origin !== 'Japan' && r.Cylinders === 8), 'Miles_per_Gallon'), 'median'));
  });

  it('donut of distinct names per origin', () => {
    const a = new Aggregator(aggregateSpec('donut', DonutConfig.parse({ groupField: 'Origin', metric: 'distinct', valueField: 'Name' })));
    a.reset(held(cars));
    for (const r of a.top()) expect(r.value).toBe(new Set(cars.filter((x) => x.Origin === r.key).map((x) => x.Name)).size);
  });
});

describe('saved charts keep working', () => {
  it('reads one saved `filter` as `filters`, a bar\'s `stackField` as a stacked split, and an old line\'s interval and points', () => {
    const filter = { field: 'status', operator: 'eq', value: 'open' };
    expect(KpiConfig.parse({ filter })).toMatchObject({ filters: [filter], metric: 'count' });
    expect(KpiConfig.parse({ filter })).not.toHaveProperty('filter');
    expect(DonutConfig.parse({ groupField: 'g', filter })).toMatchObject({ filters: [filter] });
    expect(BarConfig.parse({ groupField: 'g', stackField: 's', filter })).toMatchObject({ splitField: 's', stack: true, filters: [filter], seriesLimit: 10, otherSeries: 'combine' });
    expect(LineConfig.parse({ dateField: 'at', interval: 'day', points: 30, metric: 'sum', valueField: 'n', filter })).toMatchObject({ range: { kind: 'relative', last: '30d' }, filters: [filter] });
    expect(LineConfig.parse({ dateField: 'at' })).toMatchObject({ filters: [], seriesLimit: 10 });
  });

  it('takes every metric on every chart, refuses rates on charts and more than 20 series', () => {
    for (const metric of ['avg', 'median', 'p90', 'p95', 'p99', 'distinct', 'latest']) {
      expect(LineConfig.safeParse({ dateField: 'at', metric, valueField: 'n' }).success, metric).toBe(true);
      expect(BarConfig.safeParse({ groupField: 'g', metric, valueField: 'n' }).success, metric).toBe(true);
    }
    expect(LineConfig.safeParse({ dateField: 'at', metric: 'p95' }).error?.issues[0].path).toEqual(['valueField']);
    expect(BarConfig.safeParse({ groupField: 'g', metric: 'perHour' }).success).toBe(false);
    expect(LineConfig.safeParse({ dateField: 'at', splitField: 's', seriesLimit: 21 }).error?.issues[0].message).toBe('Draw at most 20 series');
  });
});
