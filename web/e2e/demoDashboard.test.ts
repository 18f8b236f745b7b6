import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type BrowserHarness } from './browser';

/** A condition polled for up to 10 s (the machine is shared). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describe('the demo a fresh start seeds', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startBrowser({ env: { WEB_DIST: process.env.WEB_DIST ?? 'dist/web', SEED_DEMO: 'true' } });
    h.page.setDefaultTimeout(15_000);
  });
  afterAll(() => h?.close());

  it('publishes the Support queue template: KPI tiles and charts that follow an ingest live', async () => {
    const { page } = h;
    const [listed] = (await h.server.http('GET', '/api/dashboards', { token: null })).body as { id: string; name: string }[];
    expect(listed.name).toBe('Support Overview');
    // The public view does not reveal the source's id (the ingest target); the admin list does.
    const viewed = (await h.server.http('GET', `/api/dashboards/${listed.id}`, { token: null })).body as { dataSource: { id: string } };
    const sources = (await h.server.http('GET', '/api/data/sources')).body as { id: string; sourceId: string }[];
    const { sourceId } = sources.find((d) => d.id === viewed.dataSource.id)!;
    await page.goto(`/dashboards/${listed.id}`);
    const tile = (name: string) => page.locator('[data-testid=widget]', { hasText: name }).first().getByTestId('kpi-value');
    await poll(() => tile('Open').getAttribute('data-value')).toMatch(/^\d+$/);
    const open = Number(await tile('Open').getAttribute('data-value'));
    const bar = page.locator('[data-testid=widget]', { hasText: 'Tickets by priority' }).getByTestId('widget-table');
    const high = async () => Number((await bar.locator('tr', { hasText: 'high' }).locator('td').nth(1).textContent()) ?? NaN);
    const before = await high();
    await page.locator('[data-testid=widget]', { hasText: 'Tickets per day' }).locator('svg').first().waitFor();
    await page.setViewportSize({ width: 1366, height: 1000 });
    await h.shot('demo-dashboard');

    // What the README's curl does, with the admin token.
    const res = await h.server.http('POST', '/api/data/ingest', { body: { sourceId, records: [{ ticket_id: 9001, subject: 'Printer on fire', status: 'open', priority: 'high', created_at: new Date().toISOString() }] } });
    expect(res.status).toBe(200);
    await poll(() => tile('Open').getAttribute('data-value')).toBe(String(open + 1));
    await poll(high).toBe(before + 1);
  }, 90_000);
});
