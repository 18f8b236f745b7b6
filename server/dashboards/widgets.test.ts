import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';

let s: TestServer;
let dashboardId: string;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.reset();
  const source = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
  dashboardId = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Ops', dataSourceId: source.id, isPublished: true } })).body.id;
});

const tabWith = (widgets: unknown[]) => ({ configuration: { tabs: [{ id: 'tab1', name: 'Overview', style: null, configuration: {}, widgets }] } });

describe('widgets in a tab configuration', () => {
  it('stores chart widgets with their layout and defaults, and shows them to the public viewer', async () => {
    const widgets = [
      { id: 'open', name: 'Open', type: 'kpi', configuration: { filter: { field: 'status', value: 'open' } }, layout: { x: 0, y: 0, w: 3, h: 2 } },
      { id: 'bar', name: 'By priority', type: 'bar', configuration: { groupField: 'priority', topN: 5 }, layout: { x: 3, y: 0, w: 9, h: 5 } },
    ];
    const res = await s.http('PATCH', `/api/admin/dashboards/${dashboardId}`, { body: tabWith(widgets) });
    expect(res.status).toBe(200);
    expect(res.body.configuration.tabs[0].widgets[0]).toMatchObject({ type: 'kpi', configuration: { metric: 'count', filters: [{ field: 'status', operator: 'eq', value: 'open' }] }, layout: { x: 0, y: 0, w: 3, h: 2 } });
    // One saved `filter` is saved back as `filters`.
    expect(res.body.configuration.tabs[0].widgets[0].configuration).not.toHaveProperty('filter');
    const view = await s.http('GET', `/api/dashboards/${dashboardId}`, { token: null });
    expect(view.body.tabs[0].widgets.map((w: { id: string; layout: unknown }) => [w.id, w.layout])).toEqual([['open', { x: 0, y: 0, w: 3, h: 2 }], ['bar', { x: 3, y: 0, w: 9, h: 5 }]]);
  });

  it('refuses an incomplete widget with a 400 naming the field at fault, and keeps the old tabs', async () => {
    const res = await s.http('PATCH', `/api/admin/dashboards/${dashboardId}`, {
      body: tabWith([{ id: 'sum', name: 'Revenue', type: 'line', configuration: { dateField: 'closed_at', metric: 'sum' }, layout: { x: 6, y: 0, w: 8, h: 4 } }]),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toEqual(expect.arrayContaining([
      { path: 'configuration.tabs.0.widgets.0.configuration.valueField', message: 'Pick a numeric field to sum' },
      { path: 'configuration.tabs.0.widgets.0.layout.w', message: 'A widget must fit in 12 columns' },
    ]));
    const after = await s.http('GET', `/api/admin/dashboards/${dashboardId}`);
    expect(after.body.configuration.tabs[0].widgets).toEqual([]);
  });

  it('stores a scatter and a gauge with their defaults, and refuses them without their fields or with a goal at or below the start', async () => {
    const ok = await s.http('PATCH', `/api/admin/dashboards/${dashboardId}`, {
      body: tabWith([
        { id: 'sc', name: 'Power vs economy', type: 'scatter', configuration: { xField: 'Horsepower', yField: 'Miles_per_Gallon', splitField: 'Origin' }, layout: { x: 0, y: 0, w: 6, h: 5 } },
        { id: 'g', name: 'Power goal', type: 'gauge', configuration: { metric: 'avg', valueField: 'Horsepower', goal: 150 }, layout: { x: 6, y: 0, w: 3, h: 3 } },
      ]),
    });
    expect(ok.status).toBe(200);
    const [scatter, gauge] = ok.body.configuration.tabs[0].widgets;
    expect(scatter.configuration).toEqual({ xField: 'Horsepower', yField: 'Miles_per_Gallon', splitField: 'Origin', filters: [] });
    expect(gauge.configuration).toMatchObject({ metric: 'avg', valueField: 'Horsepower', goal: 150, min: 0, style: 'gauge' });

    const bad = await s.http('PATCH', `/api/admin/dashboards/${dashboardId}`, {
      body: tabWith([
        { id: 'sc', name: 'Scatter', type: 'scatter', configuration: { xField: 'Horsepower' }, layout: { x: 0, y: 0, w: 6, h: 5 } },
        { id: 'g1', name: 'No goal', type: 'gauge', configuration: { metric: 'sum' }, layout: { x: 6, y: 0, w: 3, h: 3 } },
        { id: 'g2', name: 'Goal below start', type: 'gauge', configuration: { goal: 10, min: 20, style: 'dial' }, layout: { x: 9, y: 0, w: 3, h: 3 } },
      ]),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    const at = (i: number, f: string) => `configuration.tabs.0.widgets.${i}.configuration.${f}`;
    expect(bad.body.error.fields).toEqual(expect.arrayContaining([
      { path: at(0, 'yField'), message: 'Pick a numeric field for the vertical axis' },
      { path: at(1, 'goal'), message: 'Set a goal: a number' },
      { path: at(2, 'style'), message: 'style must be gauge or bar' },
    ]));
    // A goal at or below the start is refused once the rest of the gauge is valid.
    const low = await s.http('PATCH', `/api/admin/dashboards/${dashboardId}`, {
      body: tabWith([{ id: 'g2', name: 'Goal below start', type: 'gauge', configuration: { goal: 10, min: 20 }, layout: { x: 0, y: 0, w: 3, h: 3 } }]),
    });
    expect(low.status).toBe(400);
    expect(low.body.error.fields).toEqual([{ path: 'configuration.tabs.0.widgets.0.configuration.goal', message: 'The goal must be larger than the start (20)' }]);
  });
});
