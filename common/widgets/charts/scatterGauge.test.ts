import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec } from '../aggregate';
import { percentOfGoal } from './gauge';
import { scatterPoints } from './scatter';
import { GaugeConfig, ScatterConfig } from '../../schemas/widgets/widget';

/** vega-datasets' cars (406 cars, some without horsepower or mileage), computed here plainly and through the widget code. */
const require = createRequire(import.meta.url);
const carsFile = path.join(path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data'), 'cars.json');
type Car = { Horsepower: number | null; Miles_per_Gallon: number | null; Origin: string; Cylinders: number };
const cars = JSON.parse(fs.readFileSync(carsFile, 'utf8')) as Car[];
const records = cars.map((data) => ({ data: data as unknown as Record<string, unknown> }));

describe('scatter points (cars: horsepower × miles per gallon by origin)', () => {
  const config = ScatterConfig.parse({ xField: 'Horsepower', yField: 'Miles_per_Gallon', splitField: 'Origin' });

  it('draws one point per car with both numbers, one series per origin, A to Z', () => {
    const both = cars.filter((c) => typeof c.Horsepower === 'number' && typeof c.Miles_per_Gallon === 'number');
    const origins = [...new Set(both.map((c) => c.Origin))].sort();
    const got = scatterPoints(records, config);
    expect(got.total).toBe(both.length);
    expect(got.drawn).toBe(both.length);
    expect(got.series.map((s) => s.key)).toEqual(origins);
    for (const s of got.series) {
      expect(s.points.map((p) => [p.x, p.y])).toEqual(both.filter((c) => c.Origin === s.key).map((c) => [c.Horsepower, c.Miles_per_Gallon]));
    }
    // Cars without horsepower are left out, not drawn at 0.
    expect(both.length).toBeLessThan(cars.length);
  });

  it('keeps the newest points over its cap, says how many there were, and follows the filters and the size field', () => {
    const both = cars.filter((c) => typeof c.Horsepower === 'number' && typeof c.Miles_per_Gallon === 'number');
    const capped = scatterPoints(records, config, undefined, 100);
    expect([capped.total, capped.drawn]).toEqual([both.length, 100]);
    const newest = both.slice(-100);
    expect(capped.series.flatMap((s) => s.points.map((p) => `${s.key}:${p.x}:${p.y}`)).sort()).toEqual(newest.map((c) => `${c.Origin}:${c.Horsepower}:${c.Miles_per_Gallon}`).sort());
    const japan = scatterPoints(records, ScatterConfig.parse({ xField: 'Horsepower', yField: 'Miles_per_Gallon', sizeField: 'Cylinders', filters: [{ field: 'Origin', value: 'Japan' }] }));
    const japanese = both.filter((c) => c.Origin === 'Japan');
    expect(japan.series).toEqual([{ key: '', points: japanese.map((c) => ({ x: c.Horsepower, y: c.Miles_per_Gallon, size: c.Cylinders })) }]);
  });
});

describe('gauge (average horsepower against a goal)', () => {
  it('computes the KPI metric and its percent of the goal from the start', () => {
    const hp = cars.map((c) => c.Horsepower).filter((v): v is number => typeof v === 'number');
    const mean = hp.reduce((a, b) => a + b, 0) / hp.length;
    const config = GaugeConfig.parse({ metric: 'avg', valueField: 'Horsepower', goal: 150, min: 50 });
    const agg = new Aggregator(aggregateSpec('gauge', config));
    agg.reset(records);
    expect(agg.value()).toBeCloseTo(mean, 9);
    expect(percentOfGoal(agg.value(), config.goal, config.min)).toBeCloseTo(((mean - 50) / 100) * 100, 9);
    // A pushed car moves the value and its percent.
    agg.update(undefined, { Horsepower: 1000, Origin: 'USA' });
    const after = (hp.reduce((a, b) => a + b, 0) + 1000) / (hp.length + 1);
    expect(percentOfGoal(agg.value(), 150)).toBeCloseTo((after / 150) * 100, 9);
    expect(percentOfGoal(null, 150)).toBeNull();
  });
});
