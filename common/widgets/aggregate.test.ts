import { describe, expect, it } from 'vitest';
import { Aggregator, aggregateSpec } from './aggregate';
import { matchesFilter, toNumber } from './filters';
import { parseTime } from '../types/dates';
import { bucketStart } from '../time/timeRanges';
import { BarConfig, KpiConfig, LineConfig } from '../schemas/widgets/widget';

type Data = Record<string, unknown>;

/** Records as the viewer holds them: data inside. */
const held = (list: Iterable<Data>) => [...list].map((data) => ({ data }));

/** Recounts from scratch: what the incremental totals must always equal. */
function fresh(spec: ConstructorParameters<typeof Aggregator>[0], records: Map<string, Data>) {
  const a = new Aggregator(spec);
  a.reset(held(records.values()));
  return a;
}

/** An aggregator over a map of records, changed the way the viewer changes it: before and after. */
function live(spec: ConstructorParameters<typeof Aggregator>[0], initial: [string, Data][] = []) {
  const data = new Map(initial);
  const a = new Aggregator(spec, () => held(data.values()));
  a.reset(held(data.values()));
  return {
    a,
    data,
    upsert: (id: string, d: Data) => {
      a.update(data.get(id), d);
      data.set(id, d);
    },
    remove: (id: string) => {
      a.update(data.get(id), undefined);
      data.delete(id);
    },
  };
}

describe('Aggregator', () => {
  it('counts, sums, averages and finds min and max of a numeric field, strings that are numbers included', () => {
    const records = [{ amount: 10 }, { amount: '30' }, { amount: 'n/a' }, {}];
    const of = (metric: KpiConfig['metric']) => {
      const a = new Aggregator({ metric, valueField: 'amount' });
      a.reset(held(records));
      return a.value();
    };
    expect([of('count'), of('sum'), of('avg'), of('min'), of('max')]).toEqual([4, 40, 20, 10, 30]);
  });

  it('has no average, minimum or maximum without numbers', () => {
    const a = new Aggregator({ metric: 'avg', valueField: 'amount' });
    a.reset(held([{ amount: 'x' }]));
    expect(a.value()).toBeNull();
  });

  it('keeps the same totals as a recount through upserts, moves between groups and removals', () => {
    const spec = { metric: 'sum' as const, groupField: 'status', valueField: 'amount' };
    const { a, data, upsert, remove } = live(spec);
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 2000; step++) {
      const id = String(rand(60));
      if (rand(5) === 0) remove(id);
      else upsert(id, { status: ['open', 'closed', ''][rand(3)], amount: rand(100) });
    }
    expect(a.top()).toEqual(fresh(spec, data).top());
    expect(a.size).toBe(data.size);
  });

  it('keeps a chart over time equal to a recount, per minute and per day, records in and out of date order', () => {
    const base = Date.UTC(2026, 2, 28, 22);
    for (const interval of ['minute', 'day'] as const) {
      const spec = aggregateSpec('line', LineConfig.parse({ dateField: 'at', bucket: interval, metric: 'sum', valueField: 'n' }));
      const { a, data, upsert, remove } = live(spec);
      let seed = 3;
      const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
      for (let step = 0; step < 2000; step++) {
        const id = String(rand(80));
        // Mostly in date order (consecutive records share a group), sometimes anywhere in 3 days, sometimes no date.
        const at = rand(4) === 0 ? base + rand(3 * 1440) * 60_000 : base + step * 20_000;
        if (rand(6) === 0) remove(id);
        else upsert(id, { at: rand(10) === 0 ? 'soon' : new Date(at).toISOString(), n: rand(9) });
      }
      // All time: per minute the last 500 minutes (the most a chart draws), per day every day.
      expect(a.series(), interval).toEqual(fresh(spec, data).series());
      expect(a.series().rows.reduce((s, p) => s + (p.value ?? 0), 0), interval).toBeGreaterThan(0);
    }
  });

  it('recomputes the minimum when the record holding it changes', () => {
    const { a, upsert, remove } = live({ metric: 'min', valueField: 'v' }, [['a', { v: 1 }], ['b', { v: 5 }]]);
    expect(a.value()).toBe(1);
    upsert('a', { v: 9 });
    expect(a.value()).toBe(5);
    upsert('c', { v: -2 });
    expect(a.value()).toBe(-2);
    remove('c');
    expect(a.value()).toBe(5);
  });

  it('groups the rest as "Other" after the top N, and empty values as "Unassigned"', () => {
    const a = new Aggregator(aggregateSpec('bar', BarConfig.parse({ groupField: 'p', topN: 2 })));
    a.reset(held(['a', 'a', 'a', 'b', 'b', 'c', '', 'd'].map((p) => ({ p }))));
    expect(a.top(2)).toEqual([{ key: 'a', value: 3 }, { key: 'b', value: 2 }, { key: 'Other', value: 3, others: 3 }]);
    expect(a.top().map((r) => r.key)).toContain('Unassigned');
  });

  it('applies the filter, with custom fields read from custom_fields', () => {
    const { a, upsert } = live({ metric: 'count', filters: [{ field: 'custom_7', operator: 'eq', value: 'EMEA' }] }, [
      ['1', { custom_fields: [{ id: 7, value: 'emea' }] }], ['2', { custom_fields: [{ id: 7, value: 'APAC' }] }],
    ]);
    expect(a.value()).toBe(1);
    upsert('2', { custom_fields: [{ id: 7, value: 'EMEA' }] });
    expect(a.value()).toBe(2);
    upsert('1', { custom_fields: [] });
    expect([a.value(), a.size]).toEqual([1, 1]);
  });

  it('buckets dates per day with empty days as zeros, ending with the current day', () => {
    const spec = aggregateSpec('line', LineConfig.parse({ dateField: 'at', range: { kind: 'relative', last: '7d' }, bucket: 'day' }));
    const now = new Date(2026, 4, 10, 15, 0).getTime();
    const a = new Aggregator(spec, () => [], now);
    a.reset(held([{ at: new Date(2026, 4, 10, 9).toISOString() }, { at: new Date(2026, 4, 8, 23).toISOString() }, { at: 'not a date' }]));
    expect(a.series().rows).toHaveLength(7);
    expect(a.series().rows.slice(-3)).toEqual([
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

  it('"is one of" matches any of its values, text without case or spaces around, numbers as numbers', () => {
    const oneOf = (values: string[], field = 's') => ({ field, operator: 'in' as const, value: '', values });
    const statuses = ['new', 'Open', ' pending ', 'hold', 'solved', 'closed', '', undefined];
    expect(statuses.map((s) => matchesFilter({ s }, oneOf(['NEW', 'open '])))).toEqual([true, true, false, false, false, false, false, false]);
    expect(statuses.map((s) => matchesFilter({ s }, oneOf(['pending', 'Hold'])))).toEqual([false, false, true, true, false, false, false, false]);
    expect([1, '2.0', 3, 'x'].map((n) => matchesFilter({ n }, oneOf(['1', '2'], 'n')))).toEqual([true, true, false, false]);
    // A custom field (custom_<id>), and a filter with no values that matches nothing.
    expect(matchesFilter({ custom_fields: [{ id: 7, value: 'Chat' }] }, oneOf(['email', 'chat'], 'custom_7'))).toBe(true);
    expect(matchesFilter({ s: 'open' }, oneOf([]))).toBe(false);
  });

  it('counts the records whose field is one of the values, and follows records moving in and out', () => {
    const filter = { field: 'status', operator: 'in' as const, value: '', values: ['new', 'open'] };
    const { a, upsert, remove } = live({ metric: 'count', filters: [filter] }, [['1', { status: 'new' }], ['2', { status: 'Open' }], ['3', { status: 'solved' }]]);
    expect(a.value()).toBe(2);
    upsert('3', { status: 'open' });
    upsert('1', { status: 'pending' });
    remove('2');
    expect(a.value()).toBe(1);
  });

  it('reads dates by the one date reader (common/types/dates), the common UTC form on a fast path', () => {
    for (const text of ['1969-12-31T23:59:59Z', '2000-02-28T23:59:59.999Z', '2026-03-01T00:00:00Z', '2026-01-05T13:45:07Z', '2026-01-05T13:45:07.123Z', '2026-01-05T13:45:07+02:00']) {
      expect(parseTime(text), text).toEqual(Date.parse(text));
    }
    // Texts without a zone are UTC; impossible days and other text are no date (Date.parse differs by engine).
    expect(parseTime('2026-01-05')).toBe(Date.UTC(2026, 0, 5));
    expect(parseTime('Jan 5, 2026 10:00')).toBe(Date.UTC(2026, 0, 5, 10));
    for (const text of ['2026-02-30T00:00:00Z', 'nonsense', '2026-1x-05T13:45:07Z']) expect(parseTime(text), text).toBeNaN();
  });

  it('puts dates of any written form and epoch seconds on a chart over time, by the source\'s day/month order', () => {
    const spec = { ...aggregateSpec('line', LineConfig.parse({ dateField: 'd', bucket: 'day', metric: 'count' })), typing: { fieldTypes: { d: 'datetime' as const }, dateOrder: 'dmy' as const } };
    const a = new Aggregator(spec);
    a.reset(['Jun 12 1998', '12/06/1998', 897_609_600, '1998-06-12T10:00:00Z', 'garbage', null].map((d) => ({ data: { d } })));
    expect(a.size).toBe(4);
  });

  it('filters a date-time field by date, whatever form the filter and the values are written in', () => {
    const typing = { fieldTypes: { d: 'datetime' as const }, dateOrder: 'mdy' as const };
    const after = { field: 'd', operator: 'gt' as const, value: '2024-01-15' };
    expect(['Jan 20 2024', '01/10/2024', '2024-02-01T00:00:00Z', '', 'x'].map((d) => matchesFilter({ d }, after, typing))).toEqual([true, false, true, false, false]);
  });

  it('starts weeks on Monday and hours on the hour', () => {
    const thursday = new Date(2026, 0, 8, 13, 45).getTime();
    expect(bucketStart(thursday, 'week')).toBe(new Date(2026, 0, 5).getTime());
    expect(bucketStart(thursday, 'hour')).toBe(new Date(2026, 0, 8, 13).getTime());
  });
});
