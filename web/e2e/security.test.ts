import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, sidebar, startAdminBrowser } from './adminHelpers';
import type { BrowserHarness } from './browser';
import { BUCKET_TAB, seed, TABLE_TAB } from './publicFixtures';

let h: BrowserHarness;
const violations: string[] = [];

/** Records every CSP violation the page reports, as events and as console errors. */
function watchCsp(page: Page) {
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
}

beforeAll(async () => {
  h = await startAdminBrowser();
  await h.context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const list = ((window as unknown as { __csp?: string[] }).__csp ??= []);
      list.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  watchCsp(h.page);
});
afterAll(() => h.close());

async function pageViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

describe('security headers in the browser', () => {
  it('sends CSP, nosniff, Referrer-Policy and frame-ancestors on pages and API answers', async () => {
    for (const path of ['/', '/api/health', '/api/dashboards']) {
      const res = await fetch(h.server.url + path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'self'");
      expect(csp).toContain("script-src 'self' 'nonce-");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('runs the built app and the OAuth callback page with zero CSP violations', async () => {
    const { id } = await seed(h, [TABLE_TAB, BUCKET_TAB]);
    const page = h.page;
    const visited: string[] = [];
    const visit = async (path: string, ready: () => Promise<unknown>) => {
      await page.goto(path);
      await ready();
      visited.push(path);
      violations.push(...(await pageViolations(page)).map((v) => `${path}: ${v}`));
    };
    await visit('/', () => page.getByRole('heading', { level: 1 }).first().waitFor());
    await visit('/dashboards', () => page.getByText('Support Board').waitFor());
    await visit(`/dashboards/${id}`, () => page.getByRole('tab', { name: 'By Status' }).waitFor());
    await page.getByRole('tab', { name: 'By Status' }).click();
    await page.getByText('Unassigned').or(page.getByText('open').first()).first().waitFor();
    violations.push(...(await pageViolations(page)));
    await signIn(page);
    await sidebar(page, 'dashboard-builder', 'configure');
    await page.getByText('Support Board').first().waitFor();
    await sidebar(page, 'api-docs');
    await page.getByText('Standard').first().waitFor();
    violations.push(...(await pageViolations(page)).map((v) => `/admin: ${v}`));
    // The callback page's inline script (with the response's nonce) must run: it sends the popup back to the console.
    await page.goto('/api/integrations/zendesk/callback?error=access_denied&state=nothing');
    await page.getByText('Zendesk authorization failed').waitFor();
    violations.push(...(await pageViolations(page)).map((v) => `callback: ${v}`));
    await page.waitForURL(/\/admin/, { timeout: 15_000 });
    expect(visited).toHaveLength(3);
    expect(violations).toEqual([]);
  });
});
