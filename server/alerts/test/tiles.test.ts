import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { buildDashboard, buildSource } from '../../test/factories';
import { join, nextWhere, openSocket, type TestSocket } from '../../test/sockets';

/*
 * A KPI tile tied to an alert shows its state to every viewer: the anonymous viewer of the published
 * dashboard and the holder of a share link — pushed live, and read with the view. Nothing of the
 * rule (its channels, its condition) reaches them.
 */

let s: TestServer;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  sockets.forEach((x) => x.disconnect());
  await s.close();
});

it('pushes a tied tile\'s state to anonymous viewers and share-link viewers, and answers it with the view', async () => {
  const ds = await buildSource(s, { name: 'Queue', primaryKey: 'id', records: [{ id: 'a', wait: 1 }] });
  const kpi = { id: 'k1', type: 'kpi', configuration: { metric: 'max', valueField: 'wait' } };
  const published = await buildDashboard(s, { source: ds, published: true, widgets: [kpi] });
  const draft = await buildDashboard(s, { source: ds, published: false, widgets: [kpi] });
  const link = (await s.http('POST', `/api/admin/dashboards/${draft.id}/links`, { body: { label: 'Wall' } })).body;
  const rule = (widget: { dashboardId: string; widgetId: string }) => ({
    name: 'Long wait', dataSourceId: ds.id, metric: 'max', valueField: 'wait', condition: { operator: 'gte', value: 30 }, widget,
    channels: [{ type: 'email', to: ['secret-recipient@example.com'] }],
  });
  for (const widget of [{ dashboardId: published.id, widgetId: 'k1' }, { dashboardId: draft.id, widgetId: 'k1' }]) {
    expect((await s.http('POST', '/api/admin/alerts', { body: rule(widget) })).status).toBe(201);
  }
  const states = async (path: string) => {
    const res = await s.http('GET', path, { token: null });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.text).not.toContain('secret-recipient');
    return res.body;
  };
  expect(await states(`/api/dashboards/${published.id}/alerts`)).toEqual([{ dashboardId: published.id, widgetId: 'k1', state: 'ok', since: null }]);
  expect(await states(`/api/share/${link.token}/alerts`)).toEqual([{ dashboardId: draft.id, widgetId: 'k1', state: 'ok', since: null }]);
  // A draft's tiles are not anyone's to read without the link.
  expect((await s.http('GET', `/api/dashboards/${draft.id}/alerts`, { token: null })).status).toBe(404);

  const viewer = await openSocket(s.url);
  const holder = await openSocket(s.url);
  sockets.push(viewer, holder);
  expect(await join(viewer, 'dashboard:join', published.id)).toMatchObject({ ok: true });
  expect(await new Promise((r) => holder.emit('share:join', link.token, r))).toMatchObject({ ok: true });
  const seenByViewer = nextWhere(viewer, 'alert:state', (e) => e.dashboardId === published.id);
  const seenByHolder = nextWhere(holder, 'alert:state', (e) => e.dashboardId === draft.id);
  expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 'b', wait: 45 }] } })).status).toBe(200);
  const [v, h] = await Promise.all([seenByViewer, seenByHolder]);
  expect(v).toMatchObject({ widgetId: 'k1', state: 'firing' });
  expect(Object.keys(v).sort()).toEqual(['dashboardId', 'since', 'state', 'widgetId']);
  expect(Date.parse(v.since!)).toBeGreaterThan(Date.now() - 10_000);
  expect(h).toMatchObject({ widgetId: 'k1', state: 'firing' });
  expect((await states(`/api/dashboards/${published.id}/alerts`))[0].state).toBe('firing');

  const back = nextWhere(viewer, 'alert:state', (e) => e.dashboardId === published.id);
  expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 'b', wait: 2 }] } })).status).toBe(200);
  expect(await back).toMatchObject({ state: 'ok', since: null });
});

it('shows a share link with locked filters only the states counted within them', async () => {
  const ds = await buildSource(s, { name: 'Queues', primaryKey: 'id', records: [{ id: 'a', queue: 'EU', wait: 1 }] });
  const widgets = ['all', 'eu'].map((id) => ({ id, type: 'kpi', configuration: { metric: 'max', valueField: 'wait' } }));
  const d = await buildDashboard(s, { source: ds, published: false, widgets });
  const eu = [{ field: 'queue', operator: 'eq', value: 'EU' }];
  const lockedLink = await s.http('POST', `/api/admin/dashboards/${d.id}/links`, { body: { label: 'EU wall', filters: eu } });
  expect(lockedLink.status, JSON.stringify(lockedLink.body)).toBe(201);
  const open = (await s.http('POST', `/api/admin/dashboards/${d.id}/links`, { body: { label: 'Everything' } })).body;
  const rule = (widgetId: string, filters: unknown[]) => ({ name: widgetId, dataSourceId: ds.id, metric: 'max', valueField: 'wait', filters, condition: { operator: 'gte', value: 30 }, widget: { dashboardId: d.id, widgetId } });
  // Over every queue (records the EU link may not see), and over the EU queue only.
  expect((await s.http('POST', '/api/admin/alerts', { body: rule('all', []) })).status).toBe(201);
  expect((await s.http('POST', '/api/admin/alerts', { body: rule('eu', eu) })).status).toBe(201);
  const tiles = async (token: string) => (await s.http('GET', `/api/share/${token}/alerts`, { token: null })).body.map((t: { widgetId: string }) => t.widgetId).sort();
  expect(await tiles(lockedLink.body.token)).toEqual(['eu']);
  expect(await tiles(open.token)).toEqual(['all', 'eu']);

  const locked = await openSocket(s.url);
  const whole = await openSocket(s.url);
  sockets.push(locked, whole);
  const seen: { widgetId: string }[] = [];
  locked.on('alert:state', (e) => seen.push(e));
  expect(await new Promise((r) => locked.emit('share:join', lockedLink.body.token, r))).toMatchObject({ ok: true });
  expect(await new Promise((r) => whole.emit('share:join', open.token, r))).toMatchObject({ ok: true });
  // A long wait in the US queue fires the rule over every queue: the open link sees it, the EU link does not.
  const allFires = nextWhere(whole, 'alert:state', (e) => e.widgetId === 'all');
  expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 'b', queue: 'US', wait: 45 }] } })).status).toBe(200);
  expect(await allFires).toMatchObject({ state: 'firing' });
  // Then one in the EU queue: pushed after the first on the same connection, so the EU link has had both.
  const euFires = nextWhere(locked, 'alert:state', (e) => e.widgetId === 'eu');
  expect((await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 'c', queue: 'EU', wait: 50 }] } })).status).toBe(200);
  expect(await euFires).toMatchObject({ state: 'firing' });
  expect(seen.map((e) => e.widgetId)).toEqual(['eu']);
});
