import { afterAll, beforeAll, expect, it } from 'vitest';
import { signIn, startAdminBrowser } from './adminHelpers';
import type { BrowserHarness } from './browser';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startAdminBrowser();
});
afterAll(() => h?.close());

it('an ingest over HTTP changes an open viewer and the admin console within a second, without a reload', async () => {
  const ds = (await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Live Tickets' } })).body as { id: string; sourceId: string };
  await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ ticket_id: 1, subject: 'Printer on fire', status: 'open' }] } });
  const tabs = [{ id: 'tab1', name: 'All', style: 'table', configuration: { columns: ['ticket_id', 'subject', 'status'].map((name, order) => ({ name, visible: true, width: 200, order })) } }];
  const dash = (await h.server.http('POST', '/api/admin/dashboards', { body: { name: 'Live', dataSourceId: ds.id, isPublished: true, configuration: { tabs } } })).body as { id: string };

  const viewer = h.page;
  await viewer.goto(`/dashboards/${dash.id}`);
  await viewer.getByText('Live • Updates every 30s').waitFor();
  await viewer.getByText('Printer on fire').waitFor();
  await viewer.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  const admin = await h.context.newPage();
  await signIn(admin);
  const card = admin.locator(`[data-testid="data-source-card"][data-source-id="${ds.sourceId}"]`);
  await card.getByTestId('record-count').filter({ hasText: '1' }).waitFor();

  const res = await h.server.http('POST', '/api/data/ingest', {
    body: { sourceId: ds.sourceId, records: [{ ticket_id: 1, subject: 'Printer fixed', status: 'closed' }, { ticket_id: 2, subject: 'New ticket', status: 'open' }] },
  });
  expect(res.status).toBe(200);
  // The bar: the pushed change is on screen within a second of the ingest's answer.
  await Promise.all([
    viewer.getByText('Printer fixed').waitFor({ timeout: 1000 }),
    viewer.getByText('New ticket').waitFor({ timeout: 1000 }),
    card.getByTestId('record-count').filter({ hasText: '2' }).waitFor({ timeout: 1000 }),
  ]);
  expect(await viewer.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await h.shot('realtime-viewer-after-ingest', viewer);
  await admin.close();
});
