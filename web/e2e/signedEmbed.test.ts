import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { signEmbed } from '../../server/sharing/signedEmbedding/test/embedTokens';
import { sidebar, signIn, toast } from './adminHelpers';
import { ingest, usePublicBrowser } from './publicFixtures';
import { SCREENSHOTS } from './browser';

// Signed embedding end to end: an admin makes the dashboard's secret in the Share dialog's Embed
// tab and allows the host's origin; the host's page (another loopback origin) signs a token per
// customer and shows each in an iframe — each sees only its rows, live; the URL only narrows them.
const h = usePublicBrowser();

const hosts: http.Server[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((s) => {
    s.closeAllConnections();
    return new Promise((r) => s.close(r));
  }));
});

/** The host application: a loopback server whose page shows the given iframes (set once its origin is known). */
async function hostSite(): Promise<{ origin: string; show(frames: { title: string; src: string }[]): void }> {
  let frames: { title: string; src: string }[] = [];
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Customer portal</title><h1>Customer portal</h1>${frames.map((f) => `<iframe src="${f.src}" title="${f.title}" width="640" height="460"></iframe>`).join('')}`);
  });
  hosts.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, show: (f) => void (frames = f) };
}

const order = (order_id: number, customer: string, subject: string, status: string) => ({ order_id, customer, subject, status });
const col = (name: string, order: number) => ({ name, visible: true, width: 160, order });

describe('signed embedding', () => {
  it('shows each customer only its rows, live, in the host\'s iframes; the URL narrows them, never widens; a rotation ends the open ones', async () => {
    const ds = (await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Orders' } })).body as { id: string; sourceId: string };
    await ingest(h, ds.sourceId, [order(1, 'acme', 'Acme anvils', 'open'), order(2, 'globex', 'Globex gadgets', 'open'), order(3, 'acme', 'Acme rockets', 'closed'), order(4, 'globex', 'Globex widgets', 'closed')]);
    const tabs = [{ id: 'orders', name: 'Orders', style: 'table', configuration: { columns: [col('order_id', 0), col('customer', 1), col('subject', 2), col('status', 3)] }, widgets: [] }];
    // A draft: only signed tokens open it.
    const made = await h.server.http('POST', '/api/admin/dashboards', { body: { name: 'Customer Orders', dataSourceId: ds.id, configuration: { tabs, filters: [{ id: 'status', kind: 'category', field: 'status' }] } } });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const host = await hostSite();

    const admin = h.page;
    await signIn(admin);
    await sidebar(admin, 'published-dashboards');
    await admin.getByTestId('published-card').filter({ hasText: 'Customer Orders' }).getByRole('button', { name: 'Share' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Share "Customer Orders"' });
    await dialog.getByRole('tab', { name: 'Embed' }).click();
    const origins = dialog.getByLabel('Allowed embedding origins');
    await origins.fill(host.origin);
    await origins.press('Enter');
    await dialog.getByRole('button', { name: 'Save Origins' }).click();
    await toast(admin, 'Embedding origins saved', `${host.origin} may embed this dashboard.`);
    await dialog.getByRole('button', { name: 'Create Secret' }).click();
    const secret = (await dialog.getByTestId('embed-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await dialog.getByTestId('embed-secret-status').getByText(`${secret.slice(0, 6)}…`).waitFor();
    expect(await dialog.getByTestId('embed-sample-node').innerText()).toContain(`dashboard: "${id}"`);
    expect(await dialog.getByTestId('embed-iframe').innerText()).toContain(`${h.server.url}/embed/`);
    await h.shot('share-dialog-signed-embedding');

    // The host's server signs one token per customer (as the dialog's samples do).
    const acme = await signEmbed(secret, { dashboard: id, filters: [{ field: 'customer', operator: 'eq', value: 'acme' }], allowCsv: true, theme: 'dark' });
    const globex = await signEmbed(secret, { dashboard: id, filters: [{ field: 'customer', operator: 'eq', value: 'globex' }] });
    const expired = await signEmbed(secret, { dashboard: id, exp: Math.floor(Date.now() / 1000) - 120 });
    host.show([
      { title: 'Acme', src: `${h.server.url}/embed/${acme}` },
      { title: 'Globex', src: `${h.server.url}/embed/${globex}` },
      // Acme's token with a filter in the URL: only Acme's closed orders, never another customer's.
      { title: 'Acme closed', src: `${h.server.url}/embed/${acme}?f.status=closed` },
      { title: 'Expired', src: `${h.server.url}/embed/${expired}` },
    ]);
    const page = await h.context.newPage();
    await page.goto(host.origin);
    const frame = (title: string) => page.frameLocator(`iframe[title="${title}"]`);
    await frame('Acme').getByText('Acme rockets').waitFor();
    await frame('Globex').getByText('Globex widgets').waitFor();
    await frame('Acme closed').getByText('Acme rockets').waitFor();
    await frame('Expired').getByTestId('embed-ended').waitFor();
    expect(await frame('Acme').getByText(/Globex/).count()).toBe(0);
    expect(await frame('Globex').getByText(/Acme/).count()).toBe(0);
    expect(await frame('Acme closed').getByText(/Acme anvils|Globex/).count()).toBe(0);
    // The token's theme, and CSV only where the token allows it.
    expect(await frame('Acme').locator('.lv-page.lv-dark').count()).toBe(1);
    expect(await frame('Acme').getByRole('button', { name: 'Export CSV' }).count()).toBe(1);
    expect(await frame('Globex').getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    await frame('Acme').getByTestId('live-indicator').getByText('Live').waitFor();
    await frame('Globex').getByTestId('live-indicator').getByText('Live').waitFor();

    // Live: each new order reaches its own customer's frame only.
    await ingest(h, ds.sourceId, [order(5, 'acme', 'Acme magnets', 'open'), order(6, 'globex', 'Globex gizmos', 'closed')]);
    await frame('Acme').getByText('Acme magnets').waitFor();
    await frame('Globex').getByText('Globex gizmos').waitFor();
    expect(await frame('Acme').getByText('Globex gizmos').count()).toBe(0);
    expect(await frame('Globex').getByText('Acme magnets').count()).toBe(0);
    expect(await frame('Acme closed').getByText(/Acme magnets|Globex/).count()).toBe(0);
    // The viewport as it is (a full-page shot resizes it, and the frames' tables draw again after).
    await page.screenshot({ path: `${SCREENSHOTS}/signed-embedding-host.png` });

    // Rotating the secret ends the open embeds at once: each says so in place.
    await dialog.getByRole('button', { name: 'Rotate Secret' }).click();
    await admin.getByRole('tooltip').getByRole('button', { name: 'Rotate' }).click();
    await toast(admin, 'Secret rotated');
    await frame('Acme').getByTestId('embed-ended').waitFor();
    await frame('Globex').getByTestId('embed-ended').waitFor();
    expect(await frame('Acme').getByText(/Acme/).count()).toBe(0);
    await h.shot('signed-embedding-rotated', page);
    await page.close();
  }, 90_000);
});
