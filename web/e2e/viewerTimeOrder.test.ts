import { describe, expect, it } from 'vitest';
import { col, firstColumn, ingest, seed, usePublicBrowser } from './publicFixtures';

const h = usePublicBrowser();

const TAB = { id: 'tab1', name: 'Events', style: 'table', configuration: { sortable: true, filterable: true, columns: [col('name', 0), col('at', 1)] }, widgets: [] };

describe('viewer: a source with a time field', () => {
  it('shows the newest records first when no column is sorted, pushed records included', async () => {
    const records = [
      { name: 'second', at: '2024-01-02T00:00:00Z' },
      { name: 'fourth', at: '2024-01-04T00:00:00Z' },
      { name: 'first', at: '2024-01-01T00:00:00Z' },
      { name: 'third', at: 1_704_240_000 }, // 2024-01-03, epoch seconds
    ];
    const { id, ds } = await seed(h, [TAB], { records });
    expect((await h.server.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { timeField: 'at' } })).status).toBe(200);
    await h.page.goto(`/dashboards/${id}`);
    await h.page.getByTestId('table-row').first().waitFor();
    await h.page.waitForFunction(() => document.querySelectorAll('[data-testid="table-row"]').length === 4);
    expect(await firstColumn(h)).toEqual(['fourth', 'third', 'second', 'first']);
    await ingest(h, ds.sourceId, [{ name: 'fifth', at: '2024-01-05T00:00:00Z' }]);
    await h.page.waitForFunction(() => document.querySelectorAll('[data-testid="table-row"]').length === 5);
    expect(await firstColumn(h)).toEqual(['fifth', 'fourth', 'third', 'second', 'first']);
  });
});
