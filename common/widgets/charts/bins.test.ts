import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec } from '../aggregate';
import { autoBinWidth, binStart, continuousBins, numberSpan } from './bins';
import { BarConfig } from '../../schemas/widgets/widget';

const require = createRequire(import.meta.url);
const carsFile = path.join(path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data'), 'cars.json');
const cars = JSON.parse(fs.readFileSync(carsFile, 'utf8')) as { Horsepower: number | null; Miles_per_Gallon: number | null }[];
const records = cars.map((data) => ({ data: data as unknown as Record<string, unknown> }));

describe('bars over number ranges (cars: count and average mileage per 20 horsepower)', () => {
  it('counts each range from the lowest to the highest, empty ranges 0, in order', () => {
    const config = BarConfig.parse({ groupField: 'Horsepower', bins: 20 });
    const agg = new Aggregator({ ...aggregateSpec('bar', config), binWidth: 20 });
    agg.reset(records);
    const { rows, left } = continuousBins(agg.top(undefined, 'label'), 20, 0);
    const hp = cars.map((c) => c.Horsepower).filter((v): v is number => v !== null);
    const lo = Math.floor(Math.min(...hp) / 20) * 20;
    const hi = Math.floor(Math.max(...hp) / 20) * 20;
    const expected = [];
    for (let s = lo; s <= hi; s += 20) expected.push({ key: `${s}–${s + 20}`, value: hp.filter((v) => v >= s && v < s + 20).length });
    expect(rows).toEqual(expected);
    expect(left).toBe(0);
    // Cars without horsepower are in no range.
    expect(rows.reduce((a, r) => a + (r.value ?? 0), 0)).toBe(hp.length);
  });

  it('averages per range, an empty range a gap; picks a round automatic width; keeps decimals exact', () => {
    const agg = new Aggregator({ ...aggregateSpec('bar', BarConfig.parse({ groupField: 'Horsepower', bins: 50, metric: 'avg', valueField: 'Miles_per_Gallon' })), binWidth: 50 });
    agg.reset(records);
    const { rows } = continuousBins(agg.top(undefined, 'label'), 50, null);
    const inRange = cars.filter((c) => c.Horsepower !== null && c.Horsepower >= 50 && c.Horsepower < 100 && c.Miles_per_Gallon !== null).map((c) => c.Miles_per_Gallon!);
    expect(rows.find((r) => r.key === '50–100')!.value).toBeCloseTo(inRange.reduce((a, b) => a + b, 0) / inRange.length, 9);
    const span = numberSpan(records, 'Horsepower')!;
    expect(autoBinWidth(span.min, span.max)).toBe(10); // 46–230 in about 20 ranges
    expect(binStart(0.3, 0.1)).toBe(0.3);
    expect(continuousBins([{ key: '0', value: 1 }, { key: '0.3', value: 2 }], 0.1, 0).rows.map((r) => r.key)).toEqual(['0–0.1', '0.1–0.2', '0.2–0.3', '0.3–0.4']);
  });

  it('refuses a width of 0 and a split of number ranges', () => {
    expect(BarConfig.safeParse({ groupField: 'Horsepower', bins: 0 }).error?.issues[0].message).toBe('A range width must be above 0');
    expect(BarConfig.safeParse({ groupField: 'Horsepower', bins: 'auto', splitField: 'Origin' }).error?.issues[0].message).toBe('A bar chart of number ranges cannot be split: leave "Split by" empty');
  });
});
