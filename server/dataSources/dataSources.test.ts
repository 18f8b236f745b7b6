import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());
beforeEach(() => s.reset());

describe('data sources', () => {
  it('creates a custom source with a CSTM_ id and an ingest key shown only once', async () => {
    const created = await s.http('POST', '/api/admin/data-sources', { body: { name: '  Orders  ', description: 'Shop orders' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Orders', description: 'Shop orders', primaryKey: null, recordCount: 0, isActive: true });
    expect(created.body.sourceId).toMatch(/^CSTM_[A-Z0-9]+$/);
    expect(created.body.ingestKey).toMatch(/^ik_/);
    expect((await s.http('GET', '/api/data/sources', { token: null })).status).toBe(401);
    const list = await s.http('GET', '/api/data/sources');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].ingestKey).toBeUndefined();
    expect(list.text).not.toContain(created.body.ingestKey);
    expect(list.text).not.toContain('ingestKeyHash');
    expect(list.body[0].ingestKeyHint).toMatch(/^ik_.{4}….{4}$/);
  });

  it('validates create and update with messages a person can act on', async () => {
    const noName = await s.http('POST', '/api/admin/data-sources', { body: { description: 'x' } });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toEqual({ code: 'validation_failed', message: 'name: Name is required', fields: [{ path: 'name', message: 'Name is required' }] });
    const blank = await s.http('POST', '/api/admin/data-sources', { body: { name: '   ' } });
    expect(blank.body.error.message).toBe('name: Name is required');
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'A' } })).body;
    const unknownField = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { colour: 'red' } });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.message).toBe('Unknown field: colour');
    const missing = await s.http('PATCH', '/api/admin/data-sources/6500000000000000000000aa', { body: { name: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Data source 6500000000000000000000aa not found');
  });

  it('updates name, description, primary key and field labels (with odd field names)', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'A' } })).body;
    const res = await s.http('PATCH', `/api/admin/data-sources/${ds.id}`, {
      body: { name: 'B', description: 'd', primaryKey: 'order.id', keyMappings: { 'order.id': 'Order', $total: 'Total' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'B', description: 'd', primaryKey: 'order.id', keyMappings: { 'order.id': 'Order', $total: 'Total' } });
  });

  it('needs the admin token for writes', async () => {
    expect((await s.http('POST', '/api/admin/data-sources', { body: { name: 'A' }, token: null })).status).toBe(401);
    const wrong = await s.http('POST', '/api/admin/data-sources', { body: { name: 'A' }, token: 'not-the-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toEqual({ code: 'invalid_admin_token', message: 'Invalid admin token' });
  });

  it('serves raw records with total, limit, offset and the source revision they reflect', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'A' } })).body;
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: Array.from({ length: 15 }, (_, i) => ({ n: i })) } });
    expect((await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}`, { token: null })).status).toBe(401);
    const first = await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}`);
    expect(first.body.total).toBe(15);
    // One change since the source was created: revision 1.
    expect(first.body.revision).toBe(1);
    expect(first.body.records).toHaveLength(10);
    expect(first.body.records[0]).toMatchObject({ recordId: '0', data: { n: 0 }, keyOrder: ['n'] });
    const page = await s.http('GET', `/api/data/raw?dataSourceId=${ds.sourceId}&limit=5&offset=12`);
    expect(page.body.records.map((r: { recordId: string }) => r.recordId)).toEqual(['12', '13', '14']);
    expect((await s.http('GET', '/api/data/raw')).body.error.message).toBe('dataSourceId: dataSourceId is required');
    expect((await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=0`)).body.error.message).toBe('limit: limit must be at least 1');
    expect((await s.http('GET', '/api/data/raw?dataSourceId=CSTM_NONE')).status).toBe(404);
    // The next change makes it 2.
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ n: 15 }] } });
    expect((await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}`)).body).toMatchObject({ total: 16, revision: 2 });
  });

  it('deletes a source with its records; dashboards on it are left with no data source', async () => {
    const ds = (await s.http('POST', '/api/admin/data-sources', { body: { name: 'A' } })).body;
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1 }, { id: 2 }] } });
    const dash = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'D', dataSourceId: ds.id, isPublished: true } })).body;
    const del = await s.http('DELETE', `/api/admin/data-sources/${ds.id}`);
    expect(del.status).toBe(200);
    expect((await s.http('GET', '/api/data/sources')).body).toEqual([]);
    expect(await s.app.ctx.models.Record.countDocuments()).toBe(0);
    const after = await s.http('GET', `/api/admin/dashboards/${dash.id}`);
    expect(after.body).toMatchObject({ dataSourceId: null, dataSourceName: null });
    const view = await s.http('GET', `/api/dashboards/${dash.id}`, { token: null });
    expect(view.body).toMatchObject({ dataSource: null, records: [] });
    expect((await s.http('DELETE', `/api/admin/data-sources/${ds.id}`)).status).toBe(404);
  });
});
