import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type BrowserHarness } from './browser';
import { seedSource, signIn, toast } from './adminHelpers';

describe('admin console: the offline engine banner and a source\'s retention', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    // The banner's size lowered so a few records reach it.
    h = await startBrowser({ env: { WEB_DIST: process.env.WEB_DIST ?? 'dist/web', OFFLINE_ENGINE_WARN_RECORDS: '3' } });
    h.page.setDefaultTimeout(10_000);
    await signIn(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('warns past the slow-write size on the offline engine, and a retention set on the card brings the source back under it', async () => {
    const { page } = h;
    const offline = h.server.app.ctx.db.mode === 'embedded-jongodb';
    const ds = await seedSource(h, 'Metrics', [{ id: 1, at: '2024-01-01T00:00:00Z' }, { id: 2, at: '2024-01-02T00:00:00Z' }]);
    const card = page.locator(`[data-testid="data-source-card"][data-source-id="${ds.sourceId}"]`);
    await card.getByTestId('retention').getByText('Keeps every record').waitFor();
    expect(await page.getByTestId('engine-banner').count()).toBe(0);
    await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 3, at: '2024-01-03T00:00:00Z' }, { id: 4, at: '2024-01-04T00:00:00Z' }] } });
    await card.getByTestId('record-count').getByText('4').waitFor();
    await page.getByTestId('engine-name').getByText(/4 records in all sources/).waitFor();
    expect((await page.getByTestId('engine-name').innerText()).toLowerCase()).toContain(offline ? 'offline engine (jongodb)' : 'mongo');
    if (!offline) return; // on mongod there is nothing to warn about
    const banner = page.getByTestId('engine-banner');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('MONGODB_URI');

    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Time field' }).fill('at');
    await dialog.getByLabel('Keep at most records').fill('2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Data source updated successfully');
    await card.getByTestId('retention').getByText('Keeps the newest 2 records').waitFor();
    await card.getByTestId('time-field').getByText('at').waitFor();
    await card.getByTestId('record-count').getByText('2').waitFor();
    await banner.waitFor({ state: 'detached' });
    const kept = (await h.server.http('GET', `/api/data/raw?dataSourceId=${ds.id}`)).body.records.map((r: { recordId: string }) => r.recordId).sort();
    expect(kept).toEqual(['3', '4']);
  });
});
