import { describe, expect, it } from 'vitest';
import { sidebar, signIn } from './adminHelpers';
import { seed, TABLE_TAB, usePublicBrowser } from './publicFixtures';

const h = usePublicBrowser();

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
