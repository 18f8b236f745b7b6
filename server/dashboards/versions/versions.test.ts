import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { buildDashboard, buildPerson, buildSource, type BuiltPerson } from '../../test/factories';
import { eventually } from '../../test/eventually';
import { join, nextWhere, openSocket } from '../../test/sockets';
import { sweepDashboardVersions } from './retention';
import { versionsOf } from './versionModel';

/*
 * Every way a dashboard changes stores a version (with its author, message and summary); the
 * history reads newest first by pages, one version with its content, a diff in sentences; a restore
 * is a new version pushed like any save; If-Match refuses a stale save; retention and the delete
 * cascade trim the history. Against the real server (offline engine), over HTTP and Socket.IO.
 */

let s: TestServer;
let editor: BuiltPerson;
let viewer: BuiltPerson;
let source: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  editor = await buildPerson(s, 'editor', { name: 'Ann Editor' });
  viewer = await buildPerson(s, 'viewer');
  source = await buildSource(s, { name: 'Sales', records: [{ region: 'EMEA', revenue: 10, at: '2024-01-02T00:00:00Z' }] });
});
afterAll(() => s?.close());

const versions = async (id: string, query = '') => (await s.http('GET', `/api/admin/dashboards/${id}/versions${query}`)).body;
const kpi = (id: string, name: string, configuration: Record<string, unknown> = { metric: 'count' }) => ({ id, name, type: 'kpi', configuration, layout: { x: 0, y: 0, w: 3, h: 2 } });

describe('every save is a version', () => {
  it('keeps creation, each PATCH (name, tabs and widgets, filters, publish, data source) and a source removal, with author, message and summary', async () => {
    const d = await buildDashboard(s, { source, name: 'Revenue' });
    expect(d.version).toBe(1);
    const patch = (body: unknown, as: BuiltPerson | null = editor) => (as ? as.http('PATCH', `/api/admin/dashboards/${d.id}`, { body }) : s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body }));
    // A message over the limit is refused in words and saves nothing (no version, no rename).
    const long = await patch({ name: 'Too long a story', message: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('message: A message is at most 500 characters');
    expect((await patch({ name: 'Revenue board', message: 'a clearer name' })).status).toBe(200);
    const tabs = [{ id: 'tab1', name: 'Overview', widgets: [kpi('k1', 'Revenue')] }];
    expect((await patch({ configuration: { tabs } }, null)).status).toBe(200);
    expect((await patch({ configuration: { filters: [{ id: 'region', kind: 'category', field: 'region', label: 'Region' }] } })).status).toBe(200);
    expect((await patch({ isPublished: true })).status).toBe(200);
    const other = await buildSource(s, { name: 'Leads' });
    expect((await patch({ dataSourceId: other.id })).status).toBe(200);
    expect((await s.http('DELETE', `/api/admin/data-sources/${other.id}`)).status).toBe(200);

    const page = await versions(d.id);
    expect(page.versions.map((v: { version: number }) => v.version)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(page.nextBefore).toBeNull();
    const by = Object.fromEntries(page.versions.map((v: { version: number }) => [v.version, v]));
    expect(by[1]).toMatchObject({ summary: "Created the dashboard 'Revenue'", author: { kind: 'system' }, message: null });
    expect(by[2]).toMatchObject({ summary: "Renamed the dashboard 'Revenue' to 'Revenue board'", message: 'a clearer name', author: { kind: 'person', id: editor.id, name: 'Ann Editor' } });
    expect(by[3]).toMatchObject({ author: { kind: 'adminToken' }, summary: "Added the KPI 'Revenue'; Renamed the tab 'Tab 1' to 'Overview'" });
    expect(by[4].summary).toBe("Added the category filter 'Region'");
    expect(by[5].summary).toBe('Published the dashboard');
    expect(by[6].summary).toBe("Moved the dashboard to the data source 'Leads'");
    expect(by[7]).toMatchObject({ summary: "Left the dashboard with no data source ('Leads' was removed)", author: { kind: 'adminToken' } });
    // The content of each version is the dashboard as that save left it.
    const v3 = (await s.http('GET', `/api/admin/dashboards/${d.id}/versions/3`)).body;
    expect(v3.dashboard).toMatchObject({ name: 'Revenue board', isPublished: false, dataSourceId: source.id });
    expect(v3.dashboard.configuration.tabs[0].widgets[0]).toMatchObject({ id: 'k1', name: 'Revenue' });
    const now = (await s.http('GET', `/api/admin/dashboards/${d.id}`));
    expect(now.headers.get('etag')).toBe('"7"');
    expect(now.body).toMatchObject({ version: 7, dataSourceId: null });
  });

  it('reads the history by pages (before, limit), one version under any spelling of the ids, and 404s what is not there', async () => {
    const d = await buildDashboard(s, { source, name: 'Paged' });
    for (let i = 2; i <= 6; i++) expect((await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { description: `step ${i}` } })).status).toBe(200);
    const first = await versions(d.id, '?limit=2');
    expect(first.versions.map((v: { version: number }) => v.version)).toEqual([6, 5]);
    expect(first.nextBefore).toBe(5);
    const second = await versions(d.id, `?limit=2&before=${first.nextBefore}`);
    expect(second.versions.map((v: { version: number }) => v.version)).toEqual([4, 3]);
    const last = await versions(d.id, '?limit=2&before=3');
    expect(last).toMatchObject({ versions: [{ version: 2 }, { version: 1 }], nextBefore: null });
    const upper = await s.http('GET', `/api/admin/dashboards/${d.id.toUpperCase()}/versions/004`);
    expect(upper.status).toBe(200);
    expect(upper.body).toMatchObject({ dashboardId: d.id, version: 4, dashboard: { description: 'step 4' } });
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}/versions/99`)).body.error.message).toBe(`Version 99 of dashboard ${d.id} not found`);
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}/versions/x1`)).status).toBe(404);
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}/versions?limit=0`)).status).toBe(400);
    expect((await s.http('GET', `/api/admin/dashboards/aaaaaaaaaaaaaaaaaaaaaaaa/versions`)).status).toBe(404);
  });

  it('lets editors and admins read and restore the history, not viewers', async () => {
    const d = await buildDashboard(s, { source, name: 'Roles' });
    expect((await viewer.http('GET', `/api/admin/dashboards/${d.id}/versions`)).status).toBe(403);
    expect((await viewer.http('POST', `/api/admin/dashboards/${d.id}/versions/1/restore`, { body: {} })).status).toBe(403);
    expect((await editor.http('GET', `/api/admin/dashboards/${d.id}/versions`)).status).toBe(200);
  });
});

describe('diff', () => {
  it('names what changed by widget and tab id, with the fields, in sentences and as JSON', async () => {
    const d = await buildDashboard(s, { source, name: 'Diffed', widgets: [kpi('k1', 'Revenue'), kpi('k2', 'Orders')] });
    const tabs = [{
      id: 'tab1', name: 'Tab 1',
      widgets: [
        kpi('k1', 'Total revenue', { metric: 'sum', valueField: 'revenue' }),
        { id: 'b1', name: 'Revenue by region', type: 'bar', configuration: { groupField: 'region' }, layout: { x: 3, y: 0, w: 6, h: 4 } },
      ],
    }, { id: 'tab2', name: 'All', style: 'table' }];
    expect((await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { configuration: { tabs, refreshInterval: 60_000 } } })).status).toBe(200);
    const diff = (await s.http('GET', `/api/admin/dashboards/${d.id}/versions/1/diff`)).body;
    expect(diff).toMatchObject({ from: 1, to: 2, settings: [{ field: 'refreshInterval', from: 30_000, to: 60_000 }] });
    expect(diff.added).toEqual([{ kind: 'tab', id: 'tab2', name: 'All', type: 'table' }, { kind: 'widget', id: 'b1', tabId: 'tab1', name: 'Revenue by region', type: 'bar' }]);
    expect(diff.removed).toEqual([{ kind: 'widget', id: 'k2', tabId: 'tab1', name: 'Orders', type: 'kpi' }]);
    expect(diff.changed).toHaveLength(1);
    expect(diff.changed[0]).toMatchObject({ kind: 'widget', id: 'k1', name: 'Total revenue', previousName: 'Revenue' });
    expect(diff.changed[0].fields.map((f: { field: string }) => f.field).sort()).toEqual(['configuration.metric', 'configuration.valueField', 'name']);
    expect(diff.sentences).toEqual([
      'Changed the refresh interval from 30 s to 60 s',
      "Added the tab 'All'",
      "Added the bar chart 'Revenue by region'",
      "Removed the KPI 'Orders'",
      "Renamed the KPI 'Revenue' to 'Total revenue'",
      "Changed the KPI 'Total revenue': metric from 'count' to 'sum', value field set to 'revenue'",
    ]);
    // Backwards reads the other way; `to` picks any version.
    const back = (await s.http('GET', `/api/admin/dashboards/${d.id}/versions/2/diff?to=1`)).body;
    expect(back.sentences).toContain("Renamed the KPI 'Total revenue' to 'Revenue'");
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}/versions/1/diff?to=9`)).status).toBe(404);
  });
});

describe('restore', () => {
  it('makes an old version the dashboard again as a new version, pushed to open viewers like any save', async () => {
    const d = await buildDashboard(s, { source, name: 'Before', published: true });
    expect((await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { name: 'After' } })).status).toBe(200);
    const viewerSocket = await openSocket(s.url);
    const admin = await openSocket(s.url, editor.token);
    try {
      expect((await join(viewerSocket, 'dashboard:join', d.id)).ok).toBe(true);
      const pushed = nextWhere(viewerSocket, 'dashboard:changed', (e) => e.dashboard.name === 'Before');
      const toEditors = nextWhere(admin, 'admin:dashboard:changed', (e) => e.dashboard.id === d.id && e.dashboard.name === 'Before');
      const res = await editor.http('POST', `/api/admin/dashboards/${d.id}/versions/1/restore`, { body: { message: 'the old name was better' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe('"3"');
      expect(res.body).toMatchObject({ name: 'Before', version: 3 });
      await pushed;
      expect((await toEditors).dashboard.version).toBe(3);
    } finally {
      viewerSocket.disconnect();
      admin.disconnect();
    }
    const [v3] = (await versions(d.id)).versions;
    expect(v3).toMatchObject({ version: 3, restoredFrom: 1, message: 'the old name was better', summary: "Restored from version 1: Renamed the dashboard 'After' to 'Before'", author: { name: 'Ann Editor' } });
  });
});

describe('no lost updates', () => {
  it('answers 409 with the current version and who saved it to a save on an older one, and saves on the current one or without If-Match', async () => {
    const d = await buildDashboard(s, { source, name: 'Shared' });
    const etag = (await s.http('GET', `/api/admin/dashboards/${d.id}`)).headers.get('etag')!;
    expect(etag).toBe('"1"');
    const first = await editor.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { name: 'Mine' }, headers: { 'if-match': etag } });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"2"');
    const stale = await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { name: 'Theirs' }, headers: { 'if-match': etag } });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'version_conflict', current: { version: 2, author: { kind: 'person', name: 'Ann Editor' }, summary: "Renamed the dashboard 'Shared' to 'Mine'" } });
    expect(stale.body.error.message).toMatch(/^This dashboard changed after version 1: Ann Editor saved version 2 at .*Load it, or send the save again with If-Match: "2" to replace it\.$/);
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}`)).body.name).toBe('Mine');
    expect((await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { name: 'Theirs' }, headers: { 'if-match': '"2"' } })).status).toBe(200);
    expect((await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { name: 'No header' } })).status).toBe(200);
    const bad = await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { name: 'x' }, headers: { 'if-match': 'W/"abc"' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'if_match_invalid']);
    expect((await versions(d.id)).versions).toHaveLength(4);
  });

  it('gives racing saves one number each: without If-Match every save lands; with the same If-Match exactly one does', async () => {
    const d = await buildDashboard(s, { source, name: 'Race' });
    const free = await Promise.all([1, 2, 3, 4, 5].map((i) => s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { description: `writer ${i}` } })));
    expect(free.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const page = (await versions(d.id)).versions as { version: number }[];
    expect(page.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
    const guarded = await Promise.all([1, 2, 3].map((i) => s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { description: `guarded ${i}` }, headers: { 'if-match': '"6"' } })));
    expect(guarded.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await s.http('GET', `/api/admin/dashboards/${d.id}`)).body.version).toBe(7);
  });
});

describe('retention', () => {
  it('keeps DASHBOARD_VERSIONS_DAYS and at least the last 50, and removes a deleted dashboard\'s versions with it', async () => {
    const d = await buildDashboard(s, { source, name: 'Old' });
    expect((await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { description: 'v2' } })).status).toBe(200);
    // 53 more saves, written straight to the database (54 saves through the API cost seconds on the offline engine).
    const model = versionsOf.of(s.app.ctx);
    const v2 = await model.findById(`${d.id}:2`).lean();
    await model.insertMany(Array.from({ length: 53 }, (_, i) => ({ ...v2, _id: `${d.id}:${i + 3}`, version: i + 3, createdAt: new Date() })));
    await s.app.ctx.models.Dashboard.updateOne({ _id: d.id }, { $set: { version: 55 } });
    // The first 10 are two years old: 5 of them go (beyond the last 50), the rest are younger than a year.
    await model.updateMany({ dashboardId: d.id, version: { $lte: 10 } }, { $set: { createdAt: new Date(Date.now() - 730 * 86_400_000) } });
    expect(await sweepDashboardVersions(s.app.ctx)).toBe(5);
    const kept = (await model.find({ dashboardId: d.id }).lean()).map((v) => v.version).sort((a, b) => a - b);
    expect(kept[0]).toBe(6);
    expect(kept).toHaveLength(50);
    expect((await s.http('DELETE', `/api/admin/dashboards/${d.id}`)).status).toBe(200);
    await eventually(async () => expect(await model.countDocuments({ dashboardId: d.id })).toBe(0));
  });
});
