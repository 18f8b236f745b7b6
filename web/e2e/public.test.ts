import { describe, expect, it } from 'vitest';
import { BUCKET_TAB, TABLE_TAB, layoutShift, listedDashboard, lowContrastTexts, newTabPath as openedPath, seed, trackLayoutShift, usePublicBrowser } from './publicFixtures';

const h = usePublicBrowser();
const dashboard = (name: string, isPublished: boolean) => listedDashboard(h, name, isPublished);
const newTabPath = (click: () => Promise<void>) => openedPath(h, click);

/** Every sub-page of the user-dashboard shell and the title it must carry. */
const SHELL_PAGES: [string, string][] = [
  ['/dashboards/analytics', 'Analytics'],
  ...['overview', 'reports', 'trends', 'charts'].map((p): [string, string] => [`/dashboards/analytics/${p}`, 'Analytics']),
  ['/dashboards/reports', 'Reports'],
  ...['scheduled', 'custom', 'export'].map((p): [string, string] => [`/dashboards/reports/${p}`, 'Reports']),
  ['/dashboards/settings', 'Settings'],
  ...['profile', 'preferences', 'notifications', 'security'].map((p): [string, string] => [`/dashboards/settings/${p}`, 'Settings']),
];

describe('landing page', () => {
  it('shows every section and every button opens what it names', async () => {
    const { page } = h;
    await page.goto('/');
    // Landmarks and one h1 for screen readers.
    await page.getByText('Three steps to live insights').waitFor();
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    const header = page.locator('header');
    await expect(header.getByRole('link', { name: 'Dashboard', exact: true }).getAttribute('target')).resolves.toBe('_blank');
    expect(await newTabPath(() => header.getByRole('link', { name: 'Dashboard', exact: true }).click())).toBe('/dashboards');
    expect(await newTabPath(() => header.getByRole('link', { name: 'Admin', exact: true }).click())).toBe('/admin');

    for (const text of ['Support tickets', 'Ecommerce', 'Analytics', 'APIs', 'Databases', 'Cloud services', 'Connect', 'Build', 'Analyze', '99.9%', '24/7', 'GDPR', 'ISO 27001', 'SOC 2 Type II', 'HIPAA', '© 2024']) {
      await expect(page.getByText(text, { exact: false }).first().isVisible()).resolves.toBe(true);
    }
    for (const group of ['Product', 'Resources', 'Company']) await expect(page.locator('footer').getByText(group, { exact: true }).isVisible()).resolves.toBe(true);
    const footerHrefs = await page.locator('footer a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(footerHrefs).toEqual(expect.arrayContaining(['/dashboards', '/admin', '/admin?tab=api-docs']));
    expect(footerHrefs.every((href) => href && href !== '#')).toBe(true);

    const sameTab: [string, string, string][] = [
      ['header', 'Start Free Trial', '/dashboards'],
      ['main', 'See a Demo', '/dashboards'],
      ['main', 'View Dashboards', '/admin'],
      ['#get-started', 'Start Free Trial', '/dashboards'],
      ['#get-started', 'View Demo', '/admin'],
    ];
    for (const [scope, name, path] of sameTab) {
      await page.goto('/');
      const root = scope === 'main' ? page.locator('section').first() : page.locator(scope);
      expect(await root.getByRole('link', { name }).getAttribute('target')).toBeNull();
      await root.getByRole('link', { name }).click();
      await page.waitForURL((u) => u.pathname === path);
    }
  });

  it('does not shift while it loads, on a desktop or a phone', async () => {
    await trackLayoutShift(h);
    for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
      await h.page.setViewportSize(viewport);
      await h.page.goto('/');
      await h.page.getByText('Three steps to live insights').waitFor();
      await h.page.waitForTimeout(500);
      // 0.1 is "good" for Core Web Vitals; a page that renders in place scores ~0.
      expect(await layoutShift(h)).toBeLessThan(0.01);
    }
  });

  it('fits a phone screen without horizontal scrolling', async () => {
    await h.page.setViewportSize({ width: 390, height: 844 });
    await h.page.goto('/');
    await h.page.getByText('Three steps to live insights').waitFor();
    const overflow = await h.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await h.shot('public-landing-phone');
  });
});

describe('public dashboards list', () => {
  it('lists published dashboards only, with Live badge and View, and follows publish changes live', async () => {
    const live = await dashboard('Live Board', true);
    const draft = await dashboard('Draft Board', false);
    const { page } = h;
    await page.goto('/dashboards');
    await page.getByRole('heading', { name: 'Live Board' }).waitFor();
    expect(await page.getByTestId('dashboard-card').count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Draft Board' }).count()).toBe(0);
    const card = page.getByTestId('dashboard-card').first();
    expect(await card.getByText('Live', { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText('Live Board description').isVisible()).toBe(true);
    expect(await card.getByText(/Last updated/).isVisible()).toBe(true);
    await h.shot('public-list');

    await h.server.http('PATCH', `/api/admin/dashboards/${draft.id}`, { body: { isPublished: true } });
    await page.getByRole('heading', { name: 'Draft Board' }).waitFor();
    await h.server.http('PATCH', `/api/admin/dashboards/${live.id}`, { body: { isPublished: false } });
    await page.getByRole('heading', { name: 'Live Board' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('dashboard-card').count()).toBe(1);

    const view = page.getByRole('link', { name: 'View Draft Board' });
    expect(await view.getAttribute('href')).toBe(`/dashboards/${draft.id}`);
    await view.click();
    await page.waitForURL(`**/dashboards/${draft.id}`);
    await page.getByRole('heading', { name: 'Draft Board' }).waitFor();
  });

  it('shows an empty state', async () => {
    await h.page.goto('/dashboards');
    await h.page.getByText('No Published Dashboards').waitFor();
  });

  it('shows a load failure with retry', async () => {
    const { page } = h;
    let fail = true;
    await page.route('**/api/dashboards', (route) => (fail ? route.fulfill({ status: 500, body: 'boom' }) : route.continue()));
    await page.goto('/dashboards');
    await page.getByText('Failed to fetch dashboards').waitFor();
    fail = false;
    await dashboard('Recovered', true);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Recovered', { exact: true }).waitFor();
    await page.unroute('**/api/dashboards');
  });
});

describe('user dashboard shell', () => {
  it('shows the Coming Soon card with its three teasers and the section title on every sub-page of the shell', async () => {
    const { page } = h;
    for (const [path, title] of SHELL_PAGES) {
      await page.goto(path);
      const card = page.getByTestId('coming-soon');
      await card.waitFor();
      expect(await page.getByRole('heading', { level: 1 }).allInnerTexts(), path).toEqual([title]);
      expect(await page.title(), path).toBe(`${title} · LiveDash`);
      const text = await card.innerText();
      for (const t of ['Coming Soon', 'The User Dashboard is under development', 'Analytics', 'Advanced data visualization', 'Reports', 'Custom report generation', 'Settings', 'Personalized preferences']) {
        expect(text, path).toContain(t);
      }
    }
  }, 90_000); // fifteen pages in one test

  it('answers unknown sub-pages of a section with the 404 page', async () => {
    for (const path of ['/dashboards/analytics/bogus', '/dashboards/reports/overview', '/dashboards/settings/profile/extra']) {
      await h.page.goto(path);
      await h.page.getByText('404 Page Not Found').waitFor();
      expect(await h.page.getByTestId('coming-soon').count(), path).toBe(0);
    }
  });

  it('titles pages by path prefix, shows Coming Soon, collapses to 64px, Back to Home opens a new tab', async () => {
    const { page } = h;
    for (const [path, title] of [['/dashboards', 'User Dashboard'], ['/dashboards/analytics/trends', 'Analytics'], ['/dashboards/reports', 'Reports'], ['/dashboards/settings/security', 'Settings']]) {
      await page.goto(path);
      await page.locator('header h1').filter({ hasText: title }).waitFor();
    }
    await page.getByText('Coming Soon').waitFor();
    for (const t of ['The User Dashboard is under development', 'Advanced data visualization', 'Custom report generation', 'Personalized preferences']) {
      expect(await page.getByText(t).isVisible()).toBe(true);
    }
    const sider = page.getByTestId('user-sidebar');
    expect(Math.round((await sider.boundingBox())!.width)).toBe(256);
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="user-sidebar"]')!.getBoundingClientRect().width === 64);
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await page.getByRole('menuitem', { name: 'Reports' }).click();
    await page.getByRole('menuitem', { name: 'Scheduled' }).click();
    await page.waitForURL('**/dashboards/reports/scheduled');
    expect(await newTabPath(() => page.getByRole('button', { name: 'Back to Home' }).click())).toBe('/');
  });
});

describe('readability', () => {
  it('has no text under WCAG AA contrast on the landing page, the list, the shell, the viewer and the 404 page', async () => {
    const { id } = await seed(h, [TABLE_TAB, BUCKET_TAB]);
    const pages: [string, string][] = [
      ['/', 'Three steps to live insights'], ['/dashboards', 'Support Board'], ['/dashboards/settings', 'Coming Soon'],
      [`/dashboards/${id}`, 'Printer on fire'], ['/no/such/page', '404 Page Not Found'],
    ];
    for (const [path, ready] of pages) {
      await h.page.goto(path);
      await h.page.getByText(ready).first().waitFor();
      expect(await lowContrastTexts(h), path).toEqual([]);
    }
    await h.page.goto(`/dashboards/${id}`);
    await h.page.getByRole('tab', { name: 'By Status' }).click();
    await h.page.getByTestId('bucket-card').first().waitFor();
    expect(await lowContrastTexts(h), 'bucket view').toEqual([]);
  });
});

describe('not found', () => {
  it('shows the 404 page for unknown paths', async () => {
    for (const path of ['/no/such/page', '/dashboards/a/b']) {
      await h.page.goto(path);
      await h.page.getByText('404 Page Not Found').waitFor();
      expect(await h.page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
    }
  });

  it('loads the landing page without the admin console or table code', async () => {
    const scripts: string[] = [];
    h.page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await h.page.goto('/');
    await h.page.getByText('Three steps to live insights').waitFor();
    expect(scripts.some((s) => /AdminPage|ViewerPage|TableView/.test(s))).toBe(false);
  });
});
