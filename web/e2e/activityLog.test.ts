import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sidebar, signIn } from './adminHelpers';
import { usePublicBrowser } from './publicFixtures';

const h = usePublicBrowser();

describe('activity log screen', () => {
  it('shows entries live, filters by category and exports CSV', async () => {
    const { page, server } = h;
    await signIn(page);
    await sidebar(page, 'published-dashboards', 'activity');
    const table = page.getByTestId('activity-table');
    // First start is the first entry: the admin created with the admin token.
    await table.getByText('Created the first admin admin@example.com with the admin token').waitFor();

    const ds = (await server.http('POST', '/api/admin/data-sources', { body: { name: 'Orders' } })).body;
    await table.getByText('Admin created data source "Orders"').waitFor();
    const ingested = await server.http('POST', '/api/data/ingest', { token: null, headers: { 'x-ingest-key': ds.ingestKey }, body: { sourceId: ds.sourceId, records: [{ id: 1 }] } });
    expect(ingested.status).toBe(200);
    await table.getByText('Ingest in one minute: 1 request, 1 record (1 inserted, 0 updated, 0 rejected)').waitFor();
    await table.getByText(`Ingest key ${ds.ingestKeyHint}`).waitFor();
    await server.http('GET', '/api/admin/dashboards', { token: 'not-the-token-at-all' });
    await table.getByText('Refused admin token on GET /api/admin/dashboards').waitFor();
    await h.shot('activity-log');

    await page.getByLabel('Category').click();
    await page.getByTitle('Ingest requests').click();
    await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(1);
    expect(await table.locator('tbody').innerText()).toContain('Ingest in one minute: 1 request');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const csv = fs.readFileSync(file, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('\uFEFFTime,Kind,Category,Object type,Object id,Object name,Summary,Address,Credential,Key hint,Actor');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(csv).not.toContain(ds.ingestKey);
  }, 60_000); // includes the first admin's setup (a password hash) on a shared machine
});
