import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildDashboard, buildSource } from '../test/factories';
import { startTestServer, type TestServer } from '../test/harness';

/** The dashboard's filter bar: stored on the dashboard, validated, shown to viewers. */
let s: TestServer;
let ds: { id: string; sourceId: string };
let dashboard: { id: string };

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.reset();
  ds = await buildSource(s, { name: 'Movies', primaryKey: 'id', records: [{ id: 1, genre: 'Drama', released: '1998-06-12', rating: 7.5 }] });
  dashboard = await buildDashboard(s, { source: ds, name: 'Movies', published: true });
});

const setFilters = (filters: unknown) => s.http('PATCH', `/api/admin/dashboards/${dashboard.id}`, { body: { configuration: { filters } } });
const FILTERS = [
  { id: 'genre', kind: 'category', field: 'genre', label: 'Genre' },
  { id: 'released', kind: 'date', field: 'released', range: { kind: 'relative', last: '12mo' } },
  { id: 'rating', kind: 'number', field: 'rating' },
];

describe('dashboard filters', () => {
  it('are saved on the dashboard and reach the public view (a date filter defaults to all time)', async () => {
    const res = await setFilters([...FILTERS, { id: 'd2', kind: 'date', field: 'released' }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.configuration.filters).toHaveLength(4);
    expect(res.body.configuration.filters[3].range).toEqual({ kind: 'all' });
    const view = (await s.http('GET', `/api/dashboards/${dashboard.id}`, { token: null })).body;
    expect(view.dashboard.configuration.filters.map((f: { id: string }) => f.id)).toEqual(['genre', 'released', 'rating', 'd2']);
  });

  it('refuses a sixth filter, a bad field path, an unknown kind and a bad range, naming the field', async () => {
    const six = await setFilters(Array.from({ length: 6 }, (_, i) => ({ id: `f${i}`, kind: 'number', field: 'rating' })));
    expect(six.status).toBe(400);
    expect(six.body.error.code).toBe('validation_failed');
    expect(six.body.error.message).toContain('at most 5 filters');
    const path = await setFilters([{ id: 'g', kind: 'category', field: 'genre..name' }]);
    expect(path.status).toBe(400);
    expect(path.body.error.fields[0].path).toBe('configuration.filters.0.field');
    expect(path.body.error.fields[0].message).toContain('genre..name');
    const empty = await setFilters([{ id: 'g', kind: 'category', field: ' ' }]);
    expect(empty.body.error.fields[0].message).toBe('Pick a field for the filter');
    const kind = await setFilters([{ id: 'g', kind: 'colour', field: 'genre' }]);
    expect(kind.status).toBe(400);
    const range = await setFilters([{ id: 'g', kind: 'date', field: 'released', range: { kind: 'relative', last: '3y' } }]);
    expect(range.status).toBe(400);
    expect(range.body.error.fields[0].path).toBe('configuration.filters.0.range.last');
    const dup = await setFilters([FILTERS[0], FILTERS[0]]);
    expect(dup.body.error.message).toContain('Filter ids must be unique');
    const id = await setFilters([{ ...FILTERS[0], id: 'a b' }]);
    expect(id.body.error.fields[0].path).toBe('configuration.filters.0.id');
  });

  it('lets a widget opt out of the filter bar', async () => {
    const tabs = [{ id: 't', name: 'Tab', widgets: [{ id: 'w', type: 'kpi', ignoreDashboardFilters: true, configuration: {} }] }];
    const res = await s.http('PATCH', `/api/admin/dashboards/${dashboard.id}`, { body: { configuration: { tabs } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.configuration.tabs[0].widgets[0].ignoreDashboardFilters).toBe(true);
  });
});
