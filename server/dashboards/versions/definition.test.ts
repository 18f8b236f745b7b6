import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { buildDashboard, buildPerson, buildSource, type BuiltPerson } from '../../test/factories';

/*
 * A dashboard as one file: exported from one server, imported onto another (two real servers, two
 * databases), with no id of the first in the file; an import checks every field the dashboard
 * reads against the target source and refuses a file it cannot read, each with a 422 naming why.
 */

let here: TestServer;
let there: TestServer;
let sourceHere: { id: string; name: string };
let sales: { id: string; name: string; sourceId: string };
let limited: BuiltPerson;
const rows = [{ region: 'EMEA', revenue: 10, status: 'open', at: '2024-01-02T00:00:00Z', deal: { stage: 'won' } }];

const configuration = {
  refreshInterval: 60_000,
  keyMappings: { revenue: 'Revenue (€)' },
  filters: [{ id: 'region', kind: 'category', field: 'region', label: 'Region' }],
  tabs: [
    {
      id: 'tab1', name: 'Overview',
      widgets: [
        { id: 'k1', name: 'Total revenue', type: 'kpi', configuration: { metric: 'sum', valueField: 'revenue', filters: [{ field: 'status', operator: 'eq', value: 'open' }] }, layout: { x: 0, y: 0, w: 3, h: 2 } },
        { id: 'b1', name: 'Revenue by region', type: 'bar', configuration: { groupField: 'region', metric: 'sum', valueField: 'revenue' }, layout: { x: 3, y: 0, w: 6, h: 4 } },
      ],
    },
    { id: 'tab2', name: 'Board', style: 'bucket', configuration: { bucketKey: 'deal.stage', buckets: [{ key: 'deal.stage', width: 300 }], displayKeys: ['region'] } },
  ],
};

beforeAll(async () => {
  [here, there] = await Promise.all([startTestServer(), startTestServer()]);
  sourceHere = await buildSource(here, { name: 'Sales', records: rows });
  sales = await buildSource(there, { name: 'Sales', records: rows });
  const own = await buildDashboard(there, { source: sales, name: 'Theirs' });
  limited = await buildPerson(there, 'editor', { dashboardIds: [own.id] });
});
afterAll(() => Promise.all([here?.close(), there?.close()]));

describe('a dashboard as one file', () => {
  it('exports a file with no id of its server and imports it onto another server as a draft that reads the same', async () => {
    const d = await buildDashboard(here, { source: sourceHere, name: 'Revenue', published: true, configuration });
    const link = (await here.http('POST', `/api/admin/dashboards/${d.id}/links`, { body: { label: 'Partner' } })).body.link.id as string;
    const res = await here.http('GET', `/api/admin/dashboards/${d.id.toUpperCase()}/definition`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('filename="Revenue.dashboard.json"');
    const file = res.body;
    expect(file).toMatchObject({ schema: 'livedash.dashboard', schemaVersion: 1, name: 'Revenue', configuration: { refreshInterval: 60_000, keyMappings: { revenue: 'Revenue (€)' } } });
    expect(file.fields).toEqual(expect.arrayContaining([{ name: 'revenue', type: 'number' }, { name: 'region', type: expect.any(String) }, { name: 'deal.stage', type: expect.any(String) }]));
    for (const id of [d.id, sourceHere.id, link]) expect(res.text, `the file holds the id ${id}`).not.toContain(id);
    expect(res.text).not.toMatch(/[0-9a-f]{24}/i);

    const imported = await there.http('POST', '/api/admin/dashboards/import', { body: { definition: file, dataSourceId: sales.sourceId } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({ name: 'Revenue', isPublished: false, dataSourceId: sales.id, dataSourceName: 'Sales', version: 1 });
    expect(imported.body.configuration).toEqual((await here.http('GET', `/api/admin/dashboards/${d.id}`)).body.configuration);
    const [v1] = (await there.http('GET', `/api/admin/dashboards/${imported.body.id}/versions`)).body.versions;
    expect(v1).toMatchObject({ version: 1, summary: "Imported 'Revenue' from a dashboard file", author: { kind: 'adminToken' } });
    // Another name on the way in; the file exported from the copy is the same file.
    const renamed = await there.http('POST', '/api/admin/dashboards/import', { body: { definition: file, dataSourceId: sales.id, name: 'Revenue (EU)' } });
    expect(renamed.body.name).toBe('Revenue (EU)');
    const again = (await there.http('GET', `/api/admin/dashboards/${imported.body.id}/definition`)).body;
    expect(again).toEqual(file);
  });

  it('answers 422 naming each field the target source has not, and for a file of another schema or schemaVersion', async () => {
    const file = (await here.http('GET', `/api/admin/dashboards/${(await buildDashboard(here, { source: sourceHere, name: 'Fields', configuration })).id}/definition`)).body;
    const leads = await buildSource(there, { name: 'Leads', records: [{ region: 'EMEA', at: '2024-01-02T00:00:00Z' }] });
    const missing = await there.http('POST', '/api/admin/dashboards/import', { body: { definition: file, dataSourceId: leads.id } });
    expect(missing.status).toBe(422);
    expect(missing.body.error.code).toBe('definition_invalid');
    // In the dashboard's order: a tab's own settings, then its widgets, tab by tab, then the filter bar.
    expect(missing.body.error.fields.map((f: { message: string }) => f.message)).toEqual([
      "Widget 'Total revenue' uses the field revenue, which Leads has not",
      "Widget 'Total revenue' uses the field status, which Leads has not",
      "Widget 'Revenue by region' uses the field revenue, which Leads has not",
      "Tab 'Board' uses the field deal.stage, which Leads has not",
    ]);
    expect(missing.body.error.message).toMatch(/^Widget 'Total revenue' uses the field revenue, which Leads has not \(and 3 more: /);

    const cases: [unknown, RegExp][] = [
      [{ ...file, schemaVersion: 2 }, /^This dashboard file has schemaVersion 2; this server reads schemaVersion 1\./],
      [{ ...file, schema: 'grafana.dashboard' }, /^This is not a LiveDash dashboard file: its "schema" is "grafana\.dashboard"/],
      [{ ...file, configuration: { tabs: [{ id: 'a', name: '' }] } }, /^The dashboard file is not valid: definition\.configuration\.tabs\.0\.name: Tab name cannot be empty$/],
    ];
    for (const [definition, message] of cases) {
      const res = await there.http('POST', '/api/admin/dashboards/import', { body: { definition, dataSourceId: sales.id } });
      expect([res.status, res.body.error.code], JSON.stringify(res.body)).toEqual([422, 'definition_invalid']);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await there.http('POST', '/api/admin/dashboards/import', { body: { definition: file } })).status).toBe(400);
    expect((await there.http('POST', '/api/admin/dashboards/import', { body: { definition: file, dataSourceId: 'CSTM_NOPE' } })).status).toBe(400);
    // Creating a dashboard needs every dashboard: a person limited to chosen ones may not import, not even onto a source of theirs.
    expect((await limited.http('POST', '/api/admin/dashboards/import', { body: { definition: file, dataSourceId: sales.id } })).status).toBe(403);
  });
});
