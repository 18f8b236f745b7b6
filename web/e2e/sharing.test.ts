import { describe, expect, it } from 'vitest';
import { sidebar, signIn } from './adminHelpers';
import { ingest, seed, TABLE_TAB, usePublicBrowser } from './publicFixtures';

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
