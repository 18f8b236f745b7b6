import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildDashboard, buildSource } from '../test/factories';
import { startTestServer, type TestServer } from '../test/harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

async function setup(records: Record<string, unknown>[], tabs?: unknown[], name = 'Support Overview') {
  const ds = await buildSource(s, { records });
  const d = await buildDashboard(s, { source: ds, name, published: true, configuration: tabs ? { tabs } : undefined });
  return { ds, d };
}

describe('public dashboards', () => {
  it('lists and shows published dashboards only; drafts answer 404', async () => {
    const { ds, d } = await setup([{ id: 1, status: 'open' }]);
    const draft = await buildDashboard(s, { source: ds, name: 'Draft' });
    const list = await s.http('GET', '/api/dashboards', { token: null });
    expect(list.body.map((x: { id: string }) => x.id)).toEqual([d.id]);
    expect(list.body[0]).toMatchObject({ name: 'Support Overview', isPublished: true });
    expect((await s.http('GET', `/api/dashboards/${draft.id}`, { token: null })).status).toBe(404);
    expect((await s.http('GET', `/api/dashboards/${draft.id}/export`, { token: null })).status).toBe(404);

    const view = await s.http('GET', `/api/dashboards/${d.id}`, { token: null });
    expect(view.status).toBe(200);
    expect(view.body.dashboard).toMatchObject({ id: d.id, name: 'Support Overview', isPublished: true });
    expect(view.body.tabs).toEqual([{ id: 'tab1', name: 'Tab 1', type: null, configuration: {}, widgets: [] }]);
    expect(view.body.dataSource).toMatchObject({ id: ds.id, name: 'Tickets', primaryKey: 'id' });
    expect(view.text).not.toContain(ds.sourceId);
    expect(view.body.records).toHaveLength(1);
    expect(view.body.records[0]).toMatchObject({ recordId: '1', data: { id: 1, status: 'open' }, keyOrder: ['id', 'status'] });

    await s.http('PATCH', `/api/admin/dashboards/${d.id}`, { body: { isPublished: false } });
    expect((await s.http('GET', `/api/dashboards/${d.id}`, { token: null })).status).toBe(404);
    expect((await s.http('GET', '/api/dashboards', { token: null })).body).toEqual([]);
  });

  it('answers 304 to If-None-Match until something changes', async () => {
    const { ds, d } = await setup([{ id: 1 }]);
    const first = await s.http('GET', `/api/dashboards/${d.id}`, { token: null });
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await s.http('GET', `/api/dashboards/${d.id}`, { token: null, headers: { 'if-none-match': etag } })).status).toBe(304);
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2 }] } });
    const changed = await s.http('GET', `/api/dashboards/${d.id}`, { token: null, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.records).toHaveLength(2);
  });

  it('exports the first tab\'s visible columns in order, with Last Updated', async () => {
    const tabs = [
      {
        id: 'tab1', name: 'T', style: 'table',
        configuration: { columns: [
          { name: 'title', visible: true, width: 150, order: 1 },
          { name: 'id', visible: true, width: 150, order: 0 },
          { name: 'secret', visible: false, width: 150, order: 2 },
          { name: 'custom_77', visible: true, width: 150, order: 3 },
        ] },
      },
      { id: 'tab2', name: 'All', style: 'table', configuration: {} },
    ];
    const { d } = await setup([
      { id: 1, title: 'Comma, "quote"\nnewline', secret: 'x', custom_fields: [{ id: 77, value: 'vip' }] },
      { id: 2, title: '=HYPERLINK("http://evil")', secret: 'y', extra: '+1', 'dotted.key': -5 },
    ], tabs, 'Überblick / Q3 "Report"');
    const res = await fetch(`${s.url}/api/dashboards/${d.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toContain("filename*=UTF-8''%C3%9Cberblick%20_%20Q3%20_Report_.csv");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('id,title,Custom Field 77,Last Updated');
    expect(text).toContain('1,"Comma, ""quote""\nnewline",vip,');
    expect(text).toContain(`2,"'=HYPERLINK(""http://evil"")",,`);
    expect(text).not.toContain('secret');

    const all = new TextDecoder().decode(new Uint8Array(await (await fetch(`${s.url}/api/dashboards/${d.id}/export?tab=tab2`)).arrayBuffer()).slice(3));
    const [header, , row2] = all.split('\r\n');
    expect(header).toBe('id,title,secret,extra,dotted.key,Custom Field 77,Last Updated');
    expect(row2.startsWith(`2,"'=HYPERLINK(""http://evil"")",y,'+1,-5,,`)).toBe(true);
    expect((await s.http('GET', `/api/dashboards/${d.id}/export?tab=nope`, { token: null })).body.error.message).toBe('Tab nope of this dashboard not found');
  });

  it('round-trips odd field names through the public view and CSV', async () => {
    const { d } = await setup([{ 'a.b': 1, $price: 2, 'ключ': 'значение' }], [{ id: 'tab1', name: 'T', style: 'table', configuration: {} }]);
    const view = await s.http('GET', `/api/dashboards/${d.id}`, { token: null });
    expect(view.body.records[0].data).toEqual({ 'a.b': 1, $price: 2, 'ключ': 'значение' });
    expect(view.body.dataSource.primaryKey).toBe('a.b');
    const csv = new TextDecoder().decode(new Uint8Array(await (await fetch(`${s.url}/api/dashboards/${d.id}/export`)).arrayBuffer()).slice(3));
    expect(csv.split('\r\n')[0]).toBe('a.b,$price,ключ,Last Updated');
    expect(csv.split('\r\n')[1].startsWith('1,2,значение,')).toBe(true);
  });
});
