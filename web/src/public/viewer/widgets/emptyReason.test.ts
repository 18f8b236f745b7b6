import { describe, expect, it } from 'vitest';
import type { DashboardFilter, FilterChoices } from '@common/schemas/widgets/dashboardFilter';
import { emptyReason, NO_NARROWING, pageNarrowing, showsNothing, widgetFilters } from './emptyReason';

const label = (f: string) => ({ sym: 'Symbol' })[f] ?? f;
const ibm = { field: 'sym', operator: 'eq', value: 'IBM' } as const;

describe('why a widget is empty', () => {
  it('names the widget filters, the range and what the page narrows by', () => {
    expect(emptyReason({ filters: [ibm], narrowing: NO_NARROWING, total: 5, label })).toBe('No records match: Symbol = IBM');
    expect(emptyReason({ filters: [], range: { kind: 'relative', last: '24h' }, narrowing: NO_NARROWING, total: 5, label })).toBe('No records in the last 24 hours');
    expect(emptyReason({ filters: [], range: { kind: 'calendar', period: 'day', previous: false }, narrowing: NO_NARROWING, total: 5, label })).toBe('No records today');
    expect(emptyReason({ filters: [ibm], range: { kind: 'calendar', period: 'month', previous: true }, narrowing: { locked: ['price > 100'], bar: ['Date in the last 7 days'] }, total: 5, label }))
      .toBe('No records match: Symbol = IBM, price > 100, Date in the last 7 days, in the previous month');
    expect(emptyReason({ filters: [], narrowing: NO_NARROWING, total: 0, label })).toBe('No records yet');
    // A share link whose locked filters match nothing has no records at all: the locks are the reason.
    expect(emptyReason({ filters: [], narrowing: { locked: ['sym = MSFT'], bar: [] }, total: 0, label })).toBe('No records match: sym = MSFT');
  });

  it('reads the filter bar choices and a share link locks as a person would', () => {
    const filters: DashboardFilter[] = [
      { id: 'sym', kind: 'category', field: 'sym' },
      { id: 'when', kind: 'date', field: 'date', label: 'Date', range: { kind: 'all' } },
      { id: 'price', kind: 'number', field: 'price' },
      { id: 'unset', kind: 'category', field: 'other' },
    ];
    const choices: FilterChoices = { sym: { kind: 'category', values: ['IBM'] }, when: { kind: 'date', range: { kind: 'relative', last: '7d' } }, price: { kind: 'number', min: 10, max: null } };
    expect(pageNarrowing([{ field: 'sym', operator: 'in', value: '', values: ['MSFT', 'AAPL'] }], filters, choices, label)).toEqual({
      locked: ['Symbol is one of MSFT, AAPL'],
      bar: ['Symbol = IBM', 'Date in the last 7 days', 'price ≥ 10'],
    });
  });

  it('reads both a saved single filter and a list of filters', () => {
    expect(widgetFilters({ filter: ibm })).toEqual([ibm]);
    expect(widgetFilters({ filters: [ibm, ibm] })).toHaveLength(2);
    expect(widgetFilters({})).toEqual([]);
  });

  it('tells an empty widget from one showing zero or nothing yet', () => {
    expect(showsNothing({ type: 'kpi', value: null, config: { metric: 'avg' } })).toBe(true);
    expect(showsNothing({ type: 'kpi', value: 0, config: { metric: 'count' } })).toBe(true);
    expect(showsNothing({ type: 'kpi', value: 0, config: { metric: 'sum' } })).toBe(false);
    expect(showsNothing({ type: 'line', series: [{ values: [0, null] }, { values: [0] }], config: {} })).toBe(true);
    expect(showsNothing({ type: 'line', series: [{ values: [0, null] }, { values: [0, 4] }], config: {} })).toBe(false);
    expect(showsNothing({ type: 'line', series: [], config: {} })).toBe(true);
    expect(showsNothing({ type: 'bar', rows: [], split: { series: [{ values: [null, 2] }] }, config: {} })).toBe(false);
    expect(showsNothing({ type: 'bar', rows: [], config: {} })).toBe(true);
    expect(showsNothing({ type: 'bar', rows: [{ value: 0 }, { value: 3 }], config: {} })).toBe(false);
    // A gauge reads like a KPI; a scatter has points, not rows.
    expect(showsNothing({ type: 'gauge', value: 140, config: { metric: 'avg' } })).toBe(false);
    expect(showsNothing({ type: 'gauge', value: null, config: { metric: 'avg' } })).toBe(true);
    expect(showsNothing({ type: 'scatter', total: 12, config: {} })).toBe(false);
    expect(showsNothing({ type: 'scatter', total: 0, config: {} })).toBe(true);
  });
});
