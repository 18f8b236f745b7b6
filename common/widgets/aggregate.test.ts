import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec, bucketStart, matchesFilter, toNumber } from './aggregate';
import { BarConfig, KpiConfig, LineConfig } from '../schemas/widget';

const rec = (recordId: string, data: Record<string, unknown>) => ({ recordId, data });

/** Recounts from scratch: what the incremental totals must always equal. */
function fresh(spec: ConstructorParameters<typeof Aggregator>[0], records: Map<string, Record<string, unknown>>) {
  const a = new Aggregator(spec);
  a.reset([...records].map(([id, data]) => rec(id, data)));
  return a;
}

describe('Aggregator', () => {
  it('counts, sums, averages and finds min and max of a numeric field, strings that are numbers included', () => {
    const records = [rec('1', { amount: 10 }), rec('2', { amount: '30' }), rec('3', { amount: 'n/a' }), rec('4', {})];
    const of = (metric: KpiConfig['metric']) => {
      const a = new Aggregator({ metric, valueField: 'amount' });
      a.reset(records);
      return a.value();
    };
    expect([of('count'), of('sum'), of('avg'), of('min'), of('max')]).toEqual([4, 40, 20, 10, 30]);
  });

  it('has no average, minimum or maximum without numbers', () => {
    const a = new Aggregator({ metric: 'avg', valueField: 'amount' });
    a.reset([rec('1', { amount: 'x' })]);
    expect(a.value()).toBeNull();
  });

  it('keeps the same totals as a recount through upserts, moves between groups and removals', () => {
    const spec = { metric: 'sum' as const, groupField: 'status', valueField: 'amount' };
    const data = new Map<string, Record<string, unknown>>();
    const a = new Aggregator(spec);
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 2000; step++) {
      const id = String(rand(60));
      if (rand(5) === 0) {
        data.delete(id);
        a.remove(id);
      } else {
        const d = { status: ['open', 'closed', ''][rand(3)], amount: rand(100) };
        data.set(id, d);
        a.upsert(id, d);
      }
    }
    expect(a.top()).toEqual(fresh(spec, data).top());
    expect(a.size).toBe(data.size);
  });

  it('recomputes the minimum when the record holding it changes', () => {
    const a = new Aggregator({ metric: 'min', valueField: 'v' });
    a.reset([rec('a', { v: 1 }), rec('b', { v: 5 })]);
    expect(a.value()).toBe(1);
    a.upsert('a', { v: 9 });
    expect(a.value()).toBe(5);
    a.upsert('c', { v: -2 });
    expect(a.value()).toBe(-2);
    a.remove('c');
    expect(a.value()).toBe(5);
  });

  it('groups the rest as "Other" after the top N, and empty values as "Unassigned"', () => {
    const a = new Aggregator(aggregateSpec('bar', BarConfig.parse({ groupField: 'p', topN: 2 })));
    a.reset(['a', 'a', 'a', 'b', 'b', 'c', '', 'd'].map((p, i) => rec(String(i), { p })));
    expect(a.top(2)).toEqual([{ key: 'a', value: 3 }, { key: 'b', value: 2 }, { key: 'Other', value: 3 }]);
    expect(a.top().map((r) => r.key)).toContain('Unassigned');
  });

  it('applies the filter, with custom fields read from custom_fields', () => {
    const a = new Aggregator({ metric: 'count', filter: { field: 'custom_7', operator: 'eq', value: 'EMEA' } });
    a.reset([rec('1', { custom_fields: [{ id: 7, value: 'emea' }] }), rec('2', { custom_fields: [{ id: 7, value: 'APAC' }] })]);
    expect(a.value()).toBe(1);
    a.upsert('2', { custom_fields: [{ id: 7, value: 'EMEA' }] });
    expect(a.value()).toBe(2);
  });

  it('buckets dates per day with empty days as zeros, ending with the current day', () => {
    const spec = aggregateSpec('line', LineConfig.parse({ dateField: 'at', interval: 'day', points: 3 }));
    const a = new Aggregator(spec);
    const now = new Date(2026, 4, 10, 15, 0).getTime();
    a.reset([rec('1', { at: new Date(2026, 4, 10, 9).toISOString() }), rec('2', { at: new Date(2026, 4, 8, 23).toISOString() }), rec('3', { at: 'not a date' })]);
    expect(a.series(3, now)).toEqual([
      { start: new Date(2026, 4, 8).getTime(), value: 1 },
      { start: new Date(2026, 4, 9).getTime(), value: 0 },
      { start: new Date(2026, 4, 10).getTime(), value: 1 },
    ]);
  });
});

describe('helpers', () => {
  it('reads numbers from numbers and numeric strings only', () => {
    expect([toNumber(3), toNumber(' 4.5 '), toNumber(''), toNumber('x'), toNumber(null), toNumber(Infinity)]).toEqual([3, 4.5, null, null, null, null]);
  });

  it('compares numbers as numbers and text without case', () => {
    expect(matchesFilter({ n: '10' }, { field: 'n', operator: 'gt', value: '9' })).toBe(true);
    expect(matchesFilter({ s: 'In Progress' }, { field: 's', operator: 'eq', value: 'in progress' })).toBe(true);
    expect(matchesFilter({ s: 'Closed' }, { field: 's', operator: 'neq', value: 'closed' })).toBe(false);
    expect(matchesFilter({ s: 'Printer on fire' }, { field: 's', operator: 'contains', value: 'FIRE' })).toBe(true);
  });

  it('starts weeks on Monday and hours on the hour', () => {
    const thursday = new Date(2026, 0, 8, 13, 45).getTime();
    expect(bucketStart(thursday, 'week')).toBe(new Date(2026, 0, 5).getTime());
    expect(bucketStart(thursday, 'hour')).toBe(new Date(2026, 0, 8, 13).getTime());
  });
});
