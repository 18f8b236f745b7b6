import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';

let s: TestServer;
let source: { id: string; sourceId: string };
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.reset();
  source = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body;
});

describe('admin dashboards', () => {
  it('creates a draft with one tab "Tab 1" and the default refresh interval', async () => {
    const res = await s.http('POST', '/api/admin/dashboards', {
      body: { name: 'Ops', description: 'Ops view', dataSourceId: source.id, configuration: { keyMappings: {}, refreshInterval: 30000 } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Ops', description: 'Ops view', dataSourceId: source.id, dataSourceName: 'Tickets', isPublished: false,
      configuration: { keyMappings: {}, refreshInterval: 30000, tabs: [{ id: 'tab1', name: 'Tab 1', style: null, configuration: {}, widgets: [] }] },
    });
    const list = await s.http('GET', '/api/admin/dashboards');
    expect(list.body.map((d: { id: string }) => d.id)).toEqual([res.body.id]);
    expect(list.body[0]).toHaveProperty('updatedAt');
  });

  it('accepts a sourceId in place of the data source id', async () => {
    const res = await s.http('POST', '/api/admin/dashboards', { body: { name: 'Ops', dataSourceId: source.sourceId } });
    expect(res.body.dataSourceId).toBe(source.id);
  });

  it('validates name and data source', async () => {
    const cases: [unknown, string][] = [
      [{ dataSourceId: source.id }, 'name: Name is required'],
      [{ name: 'x' }, 'dataSourceId: Data source is required'],
      [{ name: 'x', dataSourceId: 'CSTM_NOPE' }, 'dataSourceId: Data source CSTM_NOPE not found'],
      [{ name: 'x', dataSourceId: source.id, configuration: { tabs: [{ id: 'a', name: 'A' }, { id: 'a', name: 'B' }] } }, 'configuration.tabs: Tab ids must be unique'],
      [{ name: 'x', dataSourceId: source.id, configuration: { tabs: [{ id: 'a', name: '  ' }] } }, 'configuration.tabs.0.name: Tab name cannot be empty'],
    ];
    for (const [body, message] of cases) {
      const res = await s.http('POST', '/api/admin/dashboards', { body });
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });

  it('patches any subset, including tabs and publishing', async () => {
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Ops', dataSourceId: source.id } })).body;
    const tabs = [
      { id: 'tab1', name: 'Table', style: 'table', configuration: { sortable: true, filterable: false, columns: [{ name: 'a.b', visible: true, width: 200, order: 0 }] }, widgets: [] },
      { id: 'tab2', name: 'Board', style: 'bucket', configuration: { bucketKey: 'status', buckets: [{ key: 'status', width: 300 }], displayKeys: ['x'], highlightRules: [{ key: 'p', value: 'high', color: 'red' }] }, widgets: [] },
    ];
    const withTabs = await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { configuration: { tabs } } });
    expect(withTabs.status).toBe(200);
    expect(withTabs.body.configuration.tabs).toEqual(tabs);
    expect(withTabs.body.configuration.refreshInterval).toBe(30000);
    const renamed = await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { name: 'Ops 2', isPublished: true } });
    expect(renamed.body).toMatchObject({ name: 'Ops 2', isPublished: true });
    expect(renamed.body.configuration.tabs).toEqual(tabs);
    const badWidth = await s.http('PATCH', `/api/admin/dashboards/${d.id}`, {
      body: { configuration: { tabs: [{ id: 't', name: 'T', configuration: { columns: [{ name: 'a', width: 900 }] } }] } },
    });
    expect(badWidth.status).toBe(400);
    expect(badWidth.body.error.fields[0].path).toBe('configuration.tabs.0.configuration.columns.0.width');
    expect((await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { bogus: 1 } })).body.error.message).toBe('Unknown field: bogus');
  });

  it('deletes a dashboard with its tabs; unknown ids answer 404', async () => {
    const d = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Ops', dataSourceId: source.id } })).body;
    expect((await s.http('DELETE', `/api/admin/dashboards/${d.id}`)).status).toBe(200);
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}`)).status).toBe(404);
    expect((await s.http('DELETE', `/api/admin/dashboards/${d.id}`)).status).toBe(404);
    expect((await s.http('GET', '/api/admin/dashboards/not-an-id')).body.error.message).toBe('Dashboard not-an-id not found');
  });

  it('needs the admin token', async () => {
    expect((await s.http('GET', '/api/admin/dashboards', { token: null })).status).toBe(401);
    expect((await s.http('POST', '/api/admin/dashboards', { body: { name: 'x', dataSourceId: source.id }, token: 'nope' })).status).toBe(401);
  });
});
