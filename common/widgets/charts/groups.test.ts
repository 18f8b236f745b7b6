import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec } from '../aggregate';
import { OTHER_GROUP } from './groups';
import { BarConfig, DonutConfig } from '../../schemas/widgets/widget';

const rows = (o: Record<string, number>) => Object.entries(o).map(([key, value]) => ({ key, value }));
const GENRES = { Drama: 40, Comedy: 30, Action: 20, Horror: 5, Western: 3, Musical: 2 };

const top = (values: Record<string, number>, n: number | undefined, order?: 'value' | 'label') => {
  const a = new Aggregator(aggregateSpec('bar', BarConfig.parse({ groupField: 'g', metric: 'sum', valueField: 'v' })));
  a.reset(Object.entries(values).map(([g, v]) => ({ data: { g, v } })));
  return a.top(n, order);
};

describe('top groups of bars and slices', () => {
  it('keeps the largest N by value, largest first, and adds up the rest as "Other" at the end, saying how many it holds', () => {
    expect(top(GENRES, 3)).toEqual([...rows({ Drama: 40, Comedy: 30, Action: 20 }), { key: OTHER_GROUP, value: 10, others: 3 }]);
  });

  it('orders the same top N by label (as read: case-blind, 2 before 10), "Other" still last', () => {
    expect(top(GENRES, 3, 'label').map((r) => r.key)).toEqual(['Action', 'Comedy', 'Drama', OTHER_GROUP]);
    expect(top({ '10': 1, '2': 1, b: 1, A: 1 }, undefined, 'label').map((r) => r.key)).toEqual(['2', '10', 'A', 'b']);
  });

  it('has no "Other" when every group fits, and breaks ties by label', () => {
    expect(top({ b: 1, a: 1, c: 2 }, 3)).toEqual(rows({ c: 2, a: 1, b: 1 }));
    expect(top({ b: 1, a: 1 }, undefined)).toEqual(rows({ a: 1, b: 1 }));
  });

  it('computes "Other" as the same metric over its records: an average of the rest, not a sum of averages', () => {
    const a = new Aggregator(aggregateSpec('bar', BarConfig.parse({ groupField: 'g', metric: 'avg', valueField: 'v' })));
    a.reset([['a', 10], ['b', 4], ['c', 1], ['c', 3], ['d', 8]].map(([g, v]) => ({ data: { g, v } })));
    expect(a.top(2)).toEqual([{ key: 'a', value: 10 }, { key: 'd', value: 8 }, { key: OTHER_GROUP, value: (4 + 1 + 3) / 3, others: 2 }]);
  });
});

const splitBars = (values: Record<string, number>, topN: number, limit?: number) => {
  const a = new Aggregator(aggregateSpec('bar', BarConfig.parse({ groupField: 'g', splitField: 's', metric: 'sum', valueField: 'v' })));
  a.reset(Object.entries(values).map(([k, v]) => ({ data: { g: k.split('/')[0], s: k.split('/')[1], v } })));
  return a.split(topN, 'value', limit);
};

describe('split bars', () => {
  it('splits each of the top groups by the split field, the rest of both as "Other"', () => {
    const s = splitBars({ 'Drama/R': 10, 'Drama/PG': 5, 'Comedy/PG': 8, 'Horror/R': 2 }, 2);
    expect(s.categories).toEqual(['Drama', 'Comedy', OTHER_GROUP]);
    expect(s.series).toEqual([{ key: 'PG', values: [5, 8, 0] }, { key: 'R', values: [10, 0, 2] }]);
  });

  it('tells at most `seriesLimit` split values apart; the rest are one "Other" part of each bar', () => {
    const many: Record<string, number> = {};
    for (let i = 0; i < 12; i++) many[`g/s${String(i).padStart(2, '0')}`] = 100 - i;
    const s = splitBars(many, 5, 10);
    expect(s.series).toHaveLength(11);
    expect(s.series.at(-1)).toEqual({ key: OTHER_GROUP, values: [90 + 89] });
    expect(s.leftSeries).toBe(2);
  });

  it('follows record changes: an incremental count equals a fresh one; a saved stackField is read as a stacked split', () => {
    const spec = aggregateSpec('bar', BarConfig.parse({ groupField: 'genre', stackField: 'rating' }));
    expect(BarConfig.parse({ groupField: 'genre', stackField: 'rating' })).toMatchObject({ splitField: 'rating', stack: true });
    const data = new Map<string, Record<string, unknown>>([['1', { genre: 'Drama', rating: 'R' }], ['2', { genre: 'Drama', rating: 'PG' }], ['3', { genre: 'Comedy' }]]);
    const a = new Aggregator(spec);
    a.reset([...data.values()].map((d) => ({ data: d })));
    expect(a.split(8)).toMatchObject({ categories: ['Drama', 'Comedy'], series: [{ key: 'PG', values: [1, 0] }, { key: 'R', values: [1, 0] }, { key: 'Unassigned', values: [0, 1] }] });
    a.update(data.get('2'), { genre: 'Comedy', rating: 'R' });
    expect(a.split(8)).toMatchObject({ categories: ['Comedy', 'Drama'], series: [{ key: 'R', values: [1, 1] }, { key: 'Unassigned', values: [1, 0] }] });
  });

  it('is off for donuts and for bars without a second field; both default to ordering by value', () => {
    expect(aggregateSpec('donut', DonutConfig.parse({ groupField: 'genre' })).splitField).toBeUndefined();
    expect(BarConfig.parse({ groupField: 'genre' }).order).toBe('value');
    const a = new Aggregator(aggregateSpec('bar', BarConfig.parse({ groupField: 'genre' })));
    a.reset([{ data: { genre: 'b' } }, { data: { genre: 'a' } }, { data: { genre: 'b' } }]);
    expect(a.top(8)).toEqual(rows({ b: 2, a: 1 }));
    expect(a.top(8, 'label')).toEqual(rows({ a: 1, b: 2 }));
  });
});
