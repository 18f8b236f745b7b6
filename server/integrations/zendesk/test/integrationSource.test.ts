import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { connected, sixMonthsAgo, startKit, waitForSync, type Kit } from './kit';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ tickets: 30, users: 5, organizations: 2, perPage: 20 });
});
afterAll(async () => kit?.close());

const sources = async () => (await kit.s.http<DataSourceDto[]>('GET', '/api/data/sources')).body;

describe("an integration's data source", () => {
  it('cannot be deleted alone (409: delete the integration instead); deleting the integration removes it', async () => {
    const zd = await connected(kit, 'Helpdesk');
    await kit.s.http('POST', `/api/integrations/${zd.id}/sync`, { body: { startDate: String(sixMonthsAgo()) } });
    await waitForSync(kit.s, zd.id);
    const ds = (await sources()).find((d) => d.sourceId === `zendesk_${zd.id}`)!;
    expect(ds.recordCount).toBeGreaterThan(0);

    for (const id of [ds.id, ds.sourceId]) {
      const res = await kit.s.http('DELETE', `/api/admin/data-sources/${id}`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('integration_data_source');
      expect(res.body.error.message).toContain('delete the integration instead');
      expect(res.body.error.message).toContain('"Helpdesk"');
    }
    // Nothing was removed: the source and every record are still there.
    const after = (await sources()).find((d) => d.id === ds.id);
    expect(after?.recordCount).toBe(ds.recordCount);
    expect(await kit.s.app.ctx.models.Record.countDocuments({ dataSourceId: ds.id })).toBe(ds.recordCount);

    expect((await kit.s.http('DELETE', `/api/integrations/${zd.id}`)).status).toBe(200);
    expect((await sources()).some((d) => d.id === ds.id)).toBe(false);
    expect(await kit.s.app.ctx.models.Record.countDocuments({ dataSourceId: ds.id })).toBe(0);
  });

  it('custom data sources are still deleted by the admin', async () => {
    const created = await kit.s.http<DataSourceDto>('POST', '/api/admin/data-sources', { body: { name: 'Orders' } });
    expect(created.status).toBe(201);
    expect((await kit.s.http('DELETE', `/api/admin/data-sources/${created.body.id}`)).status).toBe(200);
    expect((await sources()).some((d) => d.id === created.body.id)).toBe(false);
  });
});
