import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { sidebar, signIn, toast } from './adminHelpers';
import { seed, TABLE_TAB, usePublicBrowser } from './publicFixtures';

const h = usePublicBrowser();
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
