// Charts bucket by the viewer's days, months and years: read here as a viewer west of UTC would.
// Node reads TZ again when it is set; it is unset again after this file (test files share workers).
process.env.TZ = 'America/Los_Angeles';

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec } from './aggregate';
import { LineConfig } from '../schemas/widgets/widget';
import { onLocalClock, timeOf } from '../types/dates';

afterAll(() => {
  delete process.env.TZ;
});

const require = createRequire(import.meta.url);
const dataDir = path.join(path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data'));
// disasters.csv: Entity,Year,Deaths; Year a plain number.
const disasters = fs.readFileSync(path.join(dataDir, 'disasters.csv'), 'utf8').trim().split('\n').slice(1).map((line) => {
  const [Entity, Year, Deaths] = line.split(',');
  return { data: { Entity, Year: Number(Year), Deaths: Number(Deaths) } as Record<string, unknown> };
});

const line = (config: unknown, records: { data: Record<string, unknown> }[]) => {
  const agg = new Aggregator(aggregateSpec('line', LineConfig.parse(config)));
  agg.reset(records);
  return agg.lines(1);
};

describe('buckets west of UTC (America/Los_Angeles)', () => {
  it('runs in a western zone', () => {
    expect(new Date(Date.UTC(2024, 0, 1)).getTimezoneOffset()).toBe(480);
  });

  it('draws deaths per year on the years written: 1900 is 1900, not 1899', () => {
    const { starts, bucket, series } = line({ dateField: 'Year', metric: 'sum', valueField: 'Deaths', filters: [{ field: 'Entity', value: 'All natural disasters' }] }, disasters);
    expect(bucket).toBe('year');
    const years = starts.map((s) => new Date(s).getFullYear());
    const all = disasters.filter((r) => r.data.Entity === 'All natural disasters');
    expect(years[0]).toBe(Math.min(...all.map((r) => r.data.Year as number)));
    expect(years.at(-1)).toBe(2017);
    const y1900 = all.find((r) => r.data.Year === 1900)!.data.Deaths;
    expect(series[0].values[years.indexOf(1900)]).toBe(y1900);
  });

  it('puts a date without a zone in its own month and day; a zoned instant stays in the viewer\'s day', () => {
    const records = [{ data: { d: '2024-03-01' } }, { data: { d: '2024-03-01' } }, { data: { d: '2024-03-02T06:30:00Z' } }];
    const byMonth = line({ dateField: 'd', bucket: 'month' }, records);
    expect(byMonth.starts.map((s) => new Date(s).getMonth())).toEqual([2]);
    const byDay = line({ dateField: 'd', bucket: 'day' }, records);
    // 06:30 UTC on 2 March is 22:30 on 1 March in Los Angeles.
    expect(byDay.starts.map((s) => new Date(s).getDate())).toEqual([1]);
    expect(byDay.series[0].values).toEqual([3]);
  });

  it('reads an unzoned time on the local clock, a zoned one as its instant', () => {
    const local = timeOf('2024-07-04 10:00', { local: true });
    expect([new Date(local).getHours(), new Date(local).getDate()]).toEqual([10, 4]);
    expect(timeOf('2024-07-04T10:00:00Z', { local: true })).toBe(Date.UTC(2024, 6, 4, 10));
    expect(timeOf(1900, { epoch: true, local: true })).toBe(new Date(1900, 0, 1).getTime());
    // Without `local` (tables, CSV): the UTC reading, shown as written.
    expect(timeOf('2024-07-04 10:00')).toBe(Date.UTC(2024, 6, 4, 10));
    expect(onLocalClock(Date.UTC(2024, 0, 1))).toBe(new Date(2024, 0, 1).getTime());
  });
});
