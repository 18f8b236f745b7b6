import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type BrowserHarness } from './browser';
import { seedSource, sidebar, signIn } from './adminHelpers';
import { ADMIN_TOKEN } from '../../server/test/harness';

/** A port free right now, so the server can be told its own public URL before it starts. */
async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

const tickets = [
  { ticket_id: 1001, subject: 'Cannot sign in', status: 'open' },
  { ticket_id: 1002, subject: 'Invoice is missing', status: 'closed' },
];

describe('API docs that follow the source you came from', () => {
  let h: BrowserHarness;
  let publicUrl: string;
  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    h = await startBrowser({ env: { WEB_DIST: process.env.WEB_DIST ?? 'dist/web', PORT: String(port), PUBLIC_URL: publicUrl } });
    h.page.setDefaultTimeout(10_000);
    await h.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.server.url });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('"How To Ingest Data" on a new source opens the docs on it; its first sample, copied and run with curl, lands in that source only', async () => {
    const { page } = h;
    const support = await seedSource(h, 'Support Tickets', tickets);
    const fresh = await seedSource(h, 'Fresh Source', []);
    await signIn(page);
    const card = page.getByTestId('data-source-card').filter({ hasText: 'Fresh Source' });
    await card.getByRole('button', { name: 'How To Ingest Data' }).click();
    const docs = page.getByTestId('api-docs');
    await docs.waitFor();
    await page.waitForURL(new RegExp(`tab=api-docs&sub=documentation&source=${fresh.id}`));
    expect(await docs.getByTestId('docs-source-bar').innerText()).toContain(`Fresh Source (${fresh.sourceId})`);
    expect(await page.title()).toBe('API Documentation · LiveDash');

    // The console keeps no token (cookie sign-in): a token pasted here fills the samples, on this page only.
    await docs.getByLabel('Fill in my token:').fill(ADMIN_TOKEN);

    // The first sample: the Standard format's cURL.
    const panel = docs.getByRole('tabpanel');
    const shown = await panel.getByTestId('code-block').nth(1).innerText();
    await panel.getByRole('button', { name: 'Copy Standard cURL' }).click();
    const n = page.locator('.ant-notification-notice').filter({ hasText: 'Copied' });
    await n.first().waitFor();
    expect(await n.first().innerText()).toContain('Code copied to clipboard');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    expect(copied).toContain(`curl -X POST '${publicUrl}/api/data/ingest'`);
    expect(copied).toContain(`"sourceId": "${fresh.sourceId}"`);
    expect(copied).not.toContain('ticket_id');
    expect(copied).not.toContain('primaryKey');
    expect(await docs.getByTestId('sample-note').innerText()).toContain('placeholders');
    await h.shot('api-docs-documentation');

    // Run it with the real curl binary (async: the server runs in this process).
    const { stdout } = await promisify(execFile)('curl', ['--version']).then(() => promisify(execFile)('bash', ['-c', `${copied} --silent`]));
    expect(JSON.parse(stdout)).toMatchObject({ success: true, inserted: 1, rejected: 0 });
    const landed = await h.server.http('GET', `/api/data/raw?dataSourceId=${fresh.id}`);
    expect(landed.body.total).toBe(1);
    expect(Object.keys(landed.body.records[0].data)).toEqual(['id', 'name', 'amount', 'created_at']);
    expect((await h.server.http('GET', `/api/data/raw?dataSourceId=${support.id}`)).body.total).toBe(2);
    const sources = (await h.server.http('GET', '/api/data/sources')).body as { name: string; recordCount: number }[];
    expect(sources.map((d) => [d.name, d.recordCount])).toEqual([['Support Tickets', 2], ['Fresh Source', 1]]);

    // With a record, the samples carry the source's own fields (fetched from it), still no other source's key.
    await page.waitForFunction(() => !document.querySelector('[data-testid="sample-note"]')?.textContent?.includes('placeholders'));
    expect(await panel.getByTestId('code-block').nth(0).innerText()).toContain('"name": "Example record"');
  });

  it('Examples, Endpoints and Authentication are their own sections, built from the chosen source', async () => {
    const { page } = h;
    const docs = page.getByTestId('api-docs');
    await sidebar(page, 'api-docs', 'examples');
    await page.waitForURL(/sub=examples&source=/);
    await page.locator('[data-testid="api-docs"][data-section="examples"]').waitFor();
    expect(await page.title()).toBe('API Examples · LiveDash');
    for (const title of ['Send one record', 'Send a file', 'Push from a webhook', 'Update one field', 'Delete a record']) {
      await docs.getByText(title, { exact: true }).waitFor();
    }
    const fresh = (await h.server.http('GET', '/api/data/sources')).body.find((d: { name: string }) => d.name === 'Fresh Source');
    const one = await docs.getByTestId('example-one').getByTestId('code-block').first().innerText();
    expect(one).toContain(`'${publicUrl}/api/data/sources/${fresh.sourceId}/records'`);
    // The source URL's sample works too: the same record again, by its key, into this source only.
    const { stdout: sent } = await promisify(execFile)('bash', ['-c', `${one} --silent`]);
    expect(JSON.parse(sent)).toMatchObject({ success: true, inserted: 0, updated: 1 });
    expect((await h.server.http('GET', `/api/data/raw?dataSourceId=${fresh.id}`)).body.total).toBe(1);
    // The first ingest made `id` the Fresh source's key: merge and delete address the record by it.
    expect(await docs.getByTestId('example-merge').innerText()).toContain('"id":"example-1"');
    expect(await docs.getByTestId('example-delete').innerText()).toContain(`/records/example-1'`);
    await h.shot('api-docs-examples');

    // Another source: its own key and fields.
    await docs.getByRole('combobox', { name: 'Data source' }).click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Support Tickets' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="example-merge"]')?.textContent?.includes('ticket_id'));
    const merge = await docs.getByTestId('example-merge').innerText();
    expect(merge).toContain('"ticket_id":1001');
    expect(merge).toContain('mode=merge');
    expect(await docs.getByTestId('example-webhook').innerText()).toContain('?key=<ingest key>');
    await docs.getByText("Use this source's ingest key").click();
    await docs.getByTestId('no-fresh-key').waitFor();

    await sidebar(page, 'api-docs', 'endpoints');
    await page.locator('[data-testid="api-docs"][data-section="endpoints"]').waitFor();
    const table = docs.getByTestId('endpoints-table');
    await table.getByText('/api/data/sources', { exact: true }).waitFor();
    const openapi = (await h.server.http('GET', '/api/openapi.json', { token: null })).body;
    const operations = Object.values(openapi.paths as Record<string, object>).reduce((sum: number, ops) => sum + Object.keys(ops).length, 0);
    expect(await table.locator('tbody tr.ant-table-row').count()).toBe(operations);
    const row = (path: string) => table.locator('tbody tr').filter({ has: page.getByText(path, { exact: true }) }).first();
    expect(await row('/api/data/sources').innerText()).toContain('Editor or admin');
    expect(await row('/api/data/raw').innerText()).toContain('Editor or admin');
    expect(await row('/api/admin/users').innerText()).toContain('Admin (or admin token)');
    for (const path of ['/api/admin/dashboards/{id}/links', '/api/share/{token}', '/api/admin/dashboards/{id}/embedding', '/api/admin/analytics', '/api/admin/activity', '/api/admin/data-sources/{id}/export']) {
      await row(path).waitFor();
    }
    expect(await row('/api/share/{token}').innerText()).toContain('Public');
    expect(await page.title()).toBe('API Endpoints · LiveDash');
    await h.shot('api-docs-endpoints');

    await sidebar(page, 'api-docs', 'authentication');
    await page.locator('[data-testid="api-docs"][data-section="authentication"]').waitFor();
    const auth = await docs.innerText();
    for (const text of ['Personal API token', 'Admin token', 'in a header', 'in the URL', 'Share link', 'Rate limits', '429']) expect(auth).toContain(text);
    await h.shot('api-docs-authentication');

    // The two sub-tabs stay: Documentation and Examples.
    expect(await page.getByRole('tab', { name: 'Documentation' }).count()).toBe(1);
    expect(await page.getByRole('tab', { name: 'Examples' }).count()).toBe(1);
  });

  it('fills in the ingest key of a source whose key was just rotated ("API Examples" on its card)', async () => {
    const { page } = h;
    await sidebar(page, 'data-sources', 'overview');
    const card = page.getByTestId('data-source-card').filter({ hasText: 'Support Tickets' });
    await card.getByRole('button', { name: 'Rotate' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Rotate' }).click();
    const key = await card.getByTestId('ingest-key-full').innerText();
    await card.getByRole('button', { name: 'API Examples' }).click();
    const docs = page.getByTestId('api-docs');
    await page.locator('[data-testid="api-docs"][data-section="examples"]').waitFor();
    expect(await docs.getByTestId('docs-source-bar').innerText()).toContain('Support Tickets');
    await docs.getByText("Use this source's ingest key").click();
    expect(await docs.getByTestId('example-webhook').innerText()).toContain(`/records?key=${key}`);
    expect(await docs.getByTestId('example-one').innerText()).toContain(`Authorization: Bearer ${key}`);
    expect(await docs.getByTestId('no-fresh-key').count()).toBe(0);
  });

  it('has a favicon the CSP allows', async () => {
    const { page } = h;
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
    const res = await fetch(`${h.server.url}/favicon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
  });
});
