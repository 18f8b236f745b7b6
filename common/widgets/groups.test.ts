import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec } from './aggregate';
import { OTHER_GROUP, stackGroups, topGroups } from './groups';
import { BarConfig, DonutConfig } from '../schemas/widget';

const rows = (o: Record<string, number>) => Object.entries(o).map(([key, value]) => ({ key, value }));
const GENRES = { Drama: 40, Comedy: 30, Action: 20, Horror: 5, Western: 3, Musical: 2 };

describe('top groups of bars and slices', () => {
  it('keeps the largest N by value, largest first, and adds up the rest as "Other" at the end', () => {
    expect(topGroups(rows(GENRES), 3)).toEqual(rows({ Drama: 40, Comedy: 30, Action: 20, [OTHER_GROUP]: 10 }));
  });

  it('orders the same top N by label (as read: case-blind, 2 before 10), "Other" still last', () => {
    expect(topGroups(rows(GENRES), 3, 'label').map((r) => r.key)).toEqual(['Action', 'Comedy', 'Drama', OTHER_GROUP]);
    expect(topGroups(rows({ '10': 1, '2': 1, b: 1, A: 1 }), undefined, 'label').map((r) => r.key)).toEqual(['2', '10', 'A', 'b']);
  });

  it('has no "Other" when every group fits, and breaks ties by label', () => {
    expect(topGroups(rows({ b: 1, a: 1, c: 2 }), 3)).toEqual(rows({ c: 2, a: 1, b: 1 }));
    expect(topGroups(rows({ b: 1, a: 1 }), undefined)).toEqual(rows({ a: 1, b: 1 }));
  });
});

describe('stacked bars', () => {
  it('splits each of the top groups by the stack field, the rest of both as "Other"', () => {
    const s = stackGroups(rows({ 'Drama\u001fR': 10, 'Drama\u001fPG': 5, 'Comedy\u001fPG': 8, 'Horror\u001fR': 2 }), 2);
    expect(s.categories).toEqual(['Drama', 'Comedy', OTHER_GROUP]);
    expect(s.stacks).toEqual([{ key: 'PG', values: [5, 8, 0] }, { key: 'R', values: [10, 0, 2] }]);
  });

  it('tells at most 10 stack values apart; the rest are one "Other" part of each bar', () => {
    const many: Record<string, number> = {};
    for (let i = 0; i < 12; i++) many[`g\u001fs${String(i).padStart(2, '0')}`] = 100 - i;
    const s = stackGroups(rows(many), 5);
    expect(s.stacks).toHaveLength(11);
    expect(s.stacks.at(-1)).toEqual({ key: OTHER_GROUP, values: [90 + 89] });
  });

  it('follows record changes: an incremental count equals a fresh one', () => {
    const spec = aggregateSpec('bar', BarConfig.parse({ groupField: 'genre', stackField: 'rating' }));
    const data = new Map<string, Record<string, unknown>>([['1', { genre: 'Drama', rating: 'R' }], ['2', { genre: 'Drama', rating: 'PG' }], ['3', { genre: 'Comedy' }]]);
    const a = new Aggregator(spec);
    a.reset([...data.values()].map((d) => ({ data: d })));
    expect(a.stacked(8)).toEqual({ categories: ['Drama', 'Comedy'], stacks: [{ key: 'PG', values: [1, 0] }, { key: 'R', values: [1, 0] }, { key: 'Unassigned', values: [0, 1] }] });
    a.update(data.get('2'), { genre: 'Comedy', rating: 'R' });
    expect(a.stacked(8)).toEqual({ categories: ['Comedy', 'Drama'], stacks: [{ key: 'R', values: [1, 1] }, { key: 'Unassigned', values: [1, 0] }] });
  });

  it('is off for donuts and for bars without a second field; both default to ordering by value', () => {
    expect(aggregateSpec('donut', DonutConfig.parse({ groupField: 'genre' })).stackField).toBeUndefined();
    expect(BarConfig.parse({ groupField: 'genre' }).order).toBe('value');
    const a = new Aggregator(aggregateSpec('bar', BarConfig.parse({ groupField: 'genre' })));
    a.reset([{ data: { genre: 'b' } }, { data: { genre: 'a' } }, { data: { genre: 'b' } }]);
    expect(a.top(8)).toEqual(rows({ b: 2, a: 1 }));
    expect(a.top(8, 'label')).toEqual(rows({ a: 1, b: 2 }));
  });
});
