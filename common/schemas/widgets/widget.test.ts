import { describe, expect, it } from 'vitest';
import { DashboardTab, Widget } from '../dashboard';

const issues = (input: unknown) => {
  const r = Widget.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('Widget schema', () => {
  it('fills a chart configuration with its defaults', () => {
    const w = Widget.parse({ id: 'w1', type: 'bar', configuration: { groupField: 'priority' }, layout: { x: 0, y: 0, w: 6, h: 4 } });
    expect(w.configuration).toMatchObject({ groupField: 'priority', metric: 'count', topN: 8 });
  });

  it('compares a KPI with higher as good news unless told lower is', () => {
    const kpi = (configuration: object) => Widget.parse({ id: 'k', type: 'kpi', configuration, layout: { x: 0, y: 0, w: 4, h: 3 } }).configuration;
    expect(kpi({ compare: true })).toMatchObject({ compare: true, better: 'higher' });
    expect(kpi({ compare: true, better: 'lower' })).toMatchObject({ better: 'lower' });
    expect(issues({ id: 'k', type: 'kpi', configuration: { better: 'sideways' } })).toHaveLength(1);
  });

  it('names the missing field of an incomplete widget', () => {
    expect(issues({ id: 'w', type: 'bar', configuration: {} })).toEqual(['configuration.groupField: Pick a field to group by']);
    expect(issues({ id: 'w', type: 'line', configuration: { dateField: 'at', metric: 'sum' } })).toEqual(['configuration.valueField: Pick a numeric field to sum']);
    expect(issues({ id: 'w', type: 'kpi', configuration: { metric: 'avg' } })).toEqual(['configuration.valueField: Pick a numeric field to compute']);
    expect(issues({ id: 'w', type: 'kpi', configuration: { filter: { field: '', operator: 'eq', value: 'x' } } })).toEqual(['configuration.filters.0.field: Pick a field to filter on']);
  });

  it('takes an "is one of" filter with its values and asks for at least one', () => {
    const kpi = (filter: unknown) => ({ id: 'w', type: 'kpi', configuration: { filter } });
    expect(Widget.parse(kpi({ field: 'status', operator: 'in', values: [' new', 'open'] })).configuration).toMatchObject({ filters: [{ field: 'status', operator: 'in', value: '', values: ['new', 'open'] }] });
    expect(issues(kpi({ field: 'status', operator: 'in' }))).toEqual(['configuration.filters.0.values: Pick at least one value']);
    expect(issues(kpi({ field: 'status', operator: 'in', values: [] }))).toEqual(['configuration.filters.0.values: Pick at least one value']);
    expect(issues(kpi({ field: 'status', operator: 'in', values: ['open', ' '] }))).toEqual(['configuration.filters.0.values.1: A value cannot be empty']);
    expect(issues(kpi({ field: 'status', operator: 'in', values: Array.from({ length: 51 }, (_, i) => `v${i}`) }))).toEqual(['configuration.filters.0.values: Pick at most 50 values']);
    expect(issues({ id: 'w', type: 'bar', configuration: { groupField: 'p', filter: { field: 's', operator: 'in', values: ['a'] } } })).toEqual([]);
  });

  it('reads a stored single filter as it was, and saves it back as filters', () => {
    const stored = { id: 'w', type: 'kpi', configuration: { metric: 'count', filter: { field: 'status', operator: 'eq', value: 'open' } } };
    const configuration = Widget.parse(stored).configuration as { filters: object[] };
    expect(configuration).toMatchObject({ filters: [{ field: 'status', operator: 'eq', value: 'open' }] });
    expect(configuration).not.toHaveProperty('filter');
    expect(configuration.filters[0]).not.toHaveProperty('values');
  });

  it('refuses a layout outside the 12 columns', () => {
    expect(issues({ id: 'w', type: 'kpi', layout: { x: 8, y: 0, w: 6, h: 2 } })).toEqual(['layout.w: A widget must fit in 12 columns']);
  });

  it('keeps table, bucket and unknown widgets as they are', () => {
    expect(Widget.parse({ id: 'w', type: 'something', configuration: { bucketKey: 'status' } }).configuration).toEqual({ bucketKey: 'status' });
  });

  it('refuses two widgets with one id in a tab', () => {
    const r = DashboardTab.safeParse({ id: 't', name: 'T', widgets: [{ id: 'a', type: 'kpi' }, { id: 'a', type: 'kpi' }] });
    expect(r.success).toBe(false);
  });
});
