import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec, readsTime } from '../aggregate';
import { isNumberAxisField, numberLine } from './numberAxis';
import { LineConfig } from '../../schemas/widgets/widget';

const require = createRequire(import.meta.url);
const dataDir = path.join(path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data'));
type Car = { Horsepower: number | null; Miles_per_Gallon: number | null; Origin: string; Year: string };
const cars = JSON.parse(fs.readFileSync(path.join(dataDir, 'cars.json'), 'utf8')) as Car[];
const records = cars.map((data) => ({ data: data as unknown as Record<string, unknown> }));
// disasters.csv: Entity,Year,Deaths — Year is whole years (time), Deaths plain numbers.
const disasters = fs.readFileSync(path.join(dataDir, 'disasters.csv'), 'utf8').trim().split('\n').slice(1).map((line) => {
  const [Entity, Year, Deaths] = line.split(',');
  return { data: { Entity, Year: Number(Year), Deaths: Number(Deaths) } as Record<string, unknown> };
});

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The line a widget draws over a number field, as the viewer computes it. */
function drawn(raw: unknown, binWidth?: number) {
  const c = LineConfig.parse(raw);
  const agg = new Aggregator({ ...aggregateSpec('line', c), ...(binWidth ? { binWidth } : {}) });
  agg.reset(records);
  const empty = c.metric === 'count' ? 0 : null;
  if (c.splitField) return numberLine(agg.split(undefined, 'label', c.seriesLimit, c.otherSeries), binWidth ?? null, empty);
  const rows = agg.top(undefined, 'label');
  return numberLine({ categories: rows.map((r) => r.key), series: [{ key: '', values: rows.map((r) => r.value) }], leftSeries: 0, omitted: false }, binWidth ?? null, empty);
}

describe('a line over a number axis (cars: mileage by horsepower)', () => {
  it('draws the average per horsepower value, in ascending order, cars without horsepower left out', () => {
    const line = drawn({ xField: 'Horsepower', metric: 'avg', valueField: 'Miles_per_Gallon' });
    const hps = [...new Set(cars.map((c) => c.Horsepower).filter((v): v is number => v !== null))].sort((a, b) => a - b);
    expect(line.xs).toEqual(hps);
    expect(line.binWidth).toBeNull();
    const at = (hp: number) => line.series[0].values[line.xs.indexOf(hp)];
    for (const hp of [46, 88, 150, 230]) {
      const mpg = cars.filter((c) => c.Horsepower === hp && c.Miles_per_Gallon !== null).map((c) => c.Miles_per_Gallon!);
      expect(at(hp)).toBeCloseTo(mean(mpg), 9);
    }
  });

  it('groups into ranges: every range from the lowest to the highest, an empty one a gap for an average and 0 for a count', () => {
    const avg = drawn({ xField: 'Horsepower', bins: 25, metric: 'avg', valueField: 'Miles_per_Gallon' }, 25);
    expect(avg.xs[0]).toBe(25);
    expect(avg.xs.at(-1)).toBe(225);
    expect(avg.xs).toEqual(Array.from({ length: 9 }, (_, i) => 25 + i * 25));
    const inRange = cars.filter((c) => c.Horsepower !== null && c.Horsepower >= 100 && c.Horsepower < 125 && c.Miles_per_Gallon !== null).map((c) => c.Miles_per_Gallon!);
    expect(avg.series[0].values[3]).toBeCloseTo(mean(inRange), 9);
    const count = drawn({ xField: 'Horsepower', bins: 25 }, 25);
    expect(count.series[0].values.reduce((a, b) => a! + b!, 0)).toBe(cars.filter((c) => c.Horsepower !== null).length);
    // A range no car falls in: a gap in an average, 0 in a count.
    const sparse = numberLine({ categories: ['0', '20'], series: [{ key: '', values: [3, 5] }], leftSeries: 0, omitted: false }, 10, null);
    expect(sparse).toMatchObject({ xs: [0, 10, 20], series: [{ values: [3, null, 5] }] });
  });

  it('splits into one series per origin over the same x values', () => {
    const line = drawn({ xField: 'Horsepower', bins: 50, splitField: 'Origin', metric: 'max', valueField: 'Miles_per_Gallon' }, 50);
    expect(line.series.map((s) => s.key)).toEqual(['Europe', 'Japan', 'USA']);
    const i = line.xs.indexOf(50);
    const japan = cars.filter((c) => c.Origin === 'Japan' && c.Horsepower !== null && c.Horsepower >= 50 && c.Horsepower < 100 && c.Miles_per_Gallon !== null);
    expect(line.series[1].values[i]).toBe(Math.max(...japan.map((c) => c.Miles_per_Gallon!)));
  });

  it('draws at most the lowest MAX points and says how many more there were', () => {
    const line = numberLine({ categories: ['3', '1', '2', ''], series: [{ key: '', values: [30, 10, 20, 99] }], leftSeries: 0, omitted: false }, null, 0, 2);
    expect(line).toMatchObject({ xs: [1, 2], series: [{ values: [10, 20] }], left: 1 });
  });

  it('is chosen for number fields, never for whole years, dates or a date-time field', () => {
    expect(isNumberAxisField(records, 'Horsepower')).toBe(true);
    expect(isNumberAxisField(records, 'Year')).toBe(false); // "1970-01-01"
    expect(isNumberAxisField(disasters, 'Deaths')).toBe(true);
    expect(isNumberAxisField(disasters, 'Year')).toBe(false); // 1900–2017: drawn by year
    expect(isNumberAxisField(disasters, 'Deaths', { fieldTypes: { Deaths: 'datetime' }, dateOrder: 'mdy' })).toBe(false);
    expect(isNumberAxisField([], 'Deaths', { fieldTypes: { Deaths: 'number' }, dateOrder: 'mdy' })).toBe(true);
    // Untyped epoch seconds or milliseconds stay time.
    expect(isNumberAxisField([{ data: { ts: 1_700_000_000 } }, { data: { ts: 1_700_086_400 } }], 'ts')).toBe(false);
    expect(isNumberAxisField([{ data: { ts: 1_700_000_000_000 } }], 'ts')).toBe(false);
  });

  it('needs a date field or a number field; a number axis reads no time unless it has a range', () => {
    expect(LineConfig.safeParse({}).error?.issues[0]).toMatchObject({ path: ['dateField'], message: 'Pick a date field' });
    const c = LineConfig.parse({ xField: 'Deaths' });
    expect(readsTime('line', c)).toBe(false);
    expect(aggregateSpec('line', c)).toMatchObject({ groupField: 'Deaths', numberGroups: true });
    expect(aggregateSpec('line', c).bucket).toBeUndefined();
    const ranged = LineConfig.parse({ xField: 'Deaths', range: { kind: 'relative', last: '24h' } });
    expect(aggregateSpec('line', ranged, undefined, 'created_at')).toMatchObject({ dateField: 'created_at', groupField: 'Deaths' });
  });
});
