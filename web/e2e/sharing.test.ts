import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { sidebar, signIn, toast } from './adminHelpers';
import { ingest, seed, TABLE_TAB, usePublicBrowser } from './publicFixtures';

// Sharing a dashboard with people outside the console: share links, embedding in another site, and
// the live count of who is watching. One server and one browser for them all.
const h = usePublicBrowser();

describe('share links', () => {
  it('a link made with the Share button opens a draft live, without CSV; revoking it empties the open viewer at once', async () => {
    const { id, ds } = await seed(h, [TABLE_TAB], { name: 'Customer Queue', publish: false });
    const admin = h.page;
    await signIn(admin);
    await sidebar(admin, 'published-dashboards');
    await admin.getByTestId('published-card').filter({ hasText: 'Customer Queue' }).getByRole('button', { name: 'Share' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Share "Customer Queue"' });
    await dialog.getByLabel('Label').fill('Acme support');
    await dialog.getByRole('switch', { name: 'Allow CSV export' }).click();
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    const url = (await dialog.getByTestId('share-url').innerText()).trim();
    expect(url).toMatch(new RegExp(`^${h.server.url}/s/[A-Za-z0-9_-]{32}$`));
    expect(await dialog.getByTestId('iframe-snippet').innerText()).toContain(`<iframe src="${url}?embed=1"`);
    await dialog.getByTestId('share-links').getByText('Acme support').waitFor();
    await h.shot('share-dialog');

    const viewer = await h.context.newPage();
    await viewer.goto(url);
    await viewer.getByRole('heading', { name: 'Customer Queue' }).waitFor();
    await viewer.getByText('Printer on fire').waitFor();
    expect(await viewer.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Back' }).count()).toBe(0);
    await viewer.locator('[data-testid="live-indicator"]').getByText('Live').waitFor();
    await ingest(h, ds.sourceId, [{ ticket_id: 42, subject: 'Shared and live', status: 'open' }]);
    await viewer.getByText('Shared and live').waitFor();
    await h.shot('share-viewer', viewer);
    // The draft stays unlisted.
    expect((await h.server.http('GET', `/api/dashboards/${id}`, { token: null })).status).toBe(404);

    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await admin.getByRole('tooltip').getByRole('button', { name: 'Revoke' }).click();
    await viewer.getByText('Dashboard Not Found').waitFor();
    await dialog.getByTestId('share-links').getByText('Revoked').waitFor();
    await h.shot('share-viewer-revoked', viewer);
    await viewer.close();

    await admin.keyboard.press('Escape');
    await sidebar(admin, 'published-dashboards', 'permissions');
    const card = admin.getByTestId('permissions-dashboard').filter({ hasText: 'Customer Queue' });
    await card.getByText('Acme support').waitFor();
    expect(await card.getByText('Revoked').count()).toBe(1);
    await h.shot('permissions-screen');
  }, 60_000);

  it('an expiring link exports CSV when allowed and empties its viewer when it expires', async () => {
    const { id } = await seed(h, [TABLE_TAB], { name: 'Office TV', publish: true });
    // Long enough for a loaded machine to open the page and download before it expires.
    const expiresAt = new Date(Date.now() + 15_000).toISOString();
    const made = await h.server.http('POST', `/api/admin/dashboards/${id}/links`, { body: { label: 'Lobby screen', expiresAt, allowCsv: true } });
    expect(made.status).toBe(201);

    const viewer = await h.context.newPage();
    await viewer.goto(made.body.path);
    await viewer.getByText('Printer on fire').waitFor();
    const download = viewer.waitForEvent('download');
    await viewer.getByRole('button', { name: 'Export CSV' }).click();
    expect((await download).suggestedFilename()).toBe('Office TV - All Tickets.csv');

    await viewer.getByText('Dashboard Not Found').waitFor({ timeout: 30_000 });
    expect((await h.server.http('GET', `/api/share/${made.body.token}`, { token: null })).status).toBe(404);
    await viewer.close();
  }, 60_000);
});

const hosts: http.Server[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((s) => {
    s.closeAllConnections();
    return new Promise((r) => s.close(r));
  }));
});

/** Another site on its own loopback port whose page embeds `src` in an iframe. */
async function embeddingSite(src: string): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Intranet</title><h1>Intranet</h1><iframe src="${src}" width="1000" height="600" title="Dashboard"></iframe>`);
  });
  hosts.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('embedding', () => {
  it('an allowed origin shows the viewer without its header in an iframe; another origin is refused', async () => {
    const { id } = await seed(h, [TABLE_TAB], { name: 'Support Board', publish: true });
    const src = `${h.server.url}/dashboards/${id}?embed=1`;
    const allowed = await embeddingSite(src);
    const refused = await embeddingSite(src);

    const admin = h.page;
    await signIn(admin);
    await sidebar(admin, 'published-dashboards');
    await admin.getByTestId('published-card').filter({ hasText: 'Support Board' }).getByRole('button', { name: 'Share' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Share "Support Board"' });
    await dialog.getByRole('tab', { name: 'Embed' }).click();
    const origins = dialog.getByLabel('Allowed embedding origins');
    await origins.fill('ftp://nope');
    await origins.press('Enter');
    await dialog.getByText('"ftp://nope" must start with https:// or http://').waitFor();
    await dialog.locator('.ant-select-selection-item-remove').click();
    await origins.fill(allowed);
    await origins.press('Enter');
    await dialog.getByRole('button', { name: 'Save Origins' }).click();
    await toast(admin, 'Embedding origins saved', `${allowed} may embed this dashboard.`);
    expect(await dialog.getByTestId('embed-origins').innerText()).toContain(`<iframe src="${h.server.url}/dashboards/${id}?embed=1"`);
    await h.shot('share-dialog-embedding');

    const host = await h.context.newPage();
    await host.goto(allowed);
    const frame = host.frameLocator('iframe');
    await frame.getByText('Printer on fire').waitFor();
    expect(await frame.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    expect(await frame.getByTestId('live-indicator').count()).toBe(0);
    await h.shot('embedded-allowed', host);

    const other = await h.context.newPage();
    const blocked = other.waitForEvent('console', { predicate: (m) => m.text().includes('frame-ancestors'), timeout: 15_000 });
    await other.goto(refused);
    const refusal = (await blocked).text();
    expect(refusal).toContain(`Framing '${h.server.url}/' violates the following Content Security Policy directive: "frame-ancestors 'self' ${allowed}"`);
    expect(refusal).toContain('blocked');
    await other.getByRole('heading', { name: 'Intranet' }).waitFor();
    const child = other.frames().find((f) => f !== other.mainFrame())!;
    expect(child.url()).not.toContain('/dashboards/');
    await h.shot('embedded-refused', other);
    await host.close();
    await other.close();
  }, 60_000);
});

// Several pages and tabs per test: 60 s, as the default 30 s is tight when the suite runs two files at once.
describe('live viewer counts', () => {
  it('move on Analytics and the Published Dashboards card as viewer tabs open and close', async () => {
    const { id } = await seed(h, [TABLE_TAB], { name: 'Support Board', publish: true });
    const admin = h.page;
    await signIn(admin);
    await sidebar(admin, 'published-dashboards', 'analytics');
    const viewers = admin.getByTestId(`viewers-${id}`);
    await expect.poll(() => viewers.innerText(), { timeout: 15_000 }).toBe('0');

    const first = await h.context.newPage();
    await first.goto(`/dashboards/${id}`);
    await first.getByText('Printer on fire').waitFor();
    await expect.poll(() => viewers.innerText(), { timeout: 15_000 }).toBe('1');
    const second = await h.context.newPage();
    await second.goto(`/dashboards/${id}`);
    await second.getByText('Printer on fire').waitFor();
    await expect.poll(() => viewers.innerText(), { timeout: 15_000 }).toBe('2');
    await expect.poll(() => admin.getByTestId(`views-today-${id}`).innerText(), { timeout: 15_000 }).toBe('2');
    await h.shot('analytics-screen');

    await second.close();
    await expect.poll(() => viewers.innerText(), { timeout: 15_000 }).toBe('1');
    await sidebar(admin, 'published-dashboards', 'public');
    const count = admin.getByTestId('published-card').filter({ hasText: 'Support Board' }).getByTestId('viewer-count');
    await expect.poll(() => count.getAttribute('data-viewers'), { timeout: 15_000 }).toBe('1');
    await first.close();
    await expect.poll(() => count.getAttribute('data-viewers'), { timeout: 15_000 }).toBe('0');
    await h.shot('published-viewer-count');
  }, 60_000);
});
