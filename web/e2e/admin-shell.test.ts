import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHarness } from './browser';
import { ADMIN_TOKEN } from '../../server/test/harness';
import { sidebar, signIn, startAdminBrowser } from './adminHelpers';

describe('admin console: sign-in and shell', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startAdminBrowser();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('asks for the first admin, refuses a wrong admin token, then creates the admin and signs in', async () => {
    const { page } = h;
    await page.goto('/admin');
    const setup = page.getByTestId('setup-form');
    await setup.waitFor();
    await h.shot('admin-sign-in');
    await setup.getByLabel('Admin token').fill('wrong-token');
    await setup.getByLabel('Name').fill('Someone');
    await setup.getByLabel('Email').fill('someone@example.com');
    await setup.getByLabel('Password').fill('a long enough passphrase');
    await setup.getByRole('button', { name: 'Create admin and sign in' }).click();
    await page.getByTestId('sign-in-error').waitFor();
    expect(await page.getByTestId('sign-in-error').innerText()).toContain('Invalid admin token');
    await signIn(page);
    // The console keeps no token in the browser's storage: the session is an HttpOnly cookie.
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)).not.toMatch(/token|session/i);
    expect(await page.getByTestId('connection-state').innerText()).toContain('Live');
    expect(new URL(page.url()).pathname).toBe('/admin');
  }, 60_000); // two first-admin attempts, one hashing a password

  it('navigates by sidebar, sub-tabs, the in-page event and the URL query; back keeps the place', async () => {
    const { page } = h;
    await sidebar(page, 'dashboard-builder', 'configure');
    await page.waitForURL(/tab=dashboard-builder&sub=configure/);
    await sidebar(page, 'published-dashboards');
    // Choosing a main tab selects its first sub-tab.
    await page.waitForURL(/tab=published-dashboards&sub=public/);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await page.waitForURL(/sub=analytics/);
    // Also from another sub-tab of the same group, the group title selects its first sub-tab.
    await sidebar(page, 'published-dashboards');
    await page.waitForURL(/tab=published-dashboards&sub=public/);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await page.waitForURL(/sub=analytics/);
    await page.goBack();
    await page.waitForURL(/sub=public/);
    await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Docs Source' } });
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('admin:navigate', { detail: { mainTab: 'api-docs', subTab: 'documentation' } })));
    await page.getByTestId('api-docs').waitFor();
    await page.reload();
    const docs = page.getByTestId('api-docs');
    await docs.waitFor();
    for (const tab of ['Standard', 'Zendesk', 'Generic', 'Direct Array']) await docs.getByRole('tab', { name: tab }).waitFor();
    await docs.getByRole('combobox', { name: 'Data source' }).waitFor();
    await docs.getByRole('tab', { name: 'Direct Array' }).click();
    const curl = await docs.getByRole('tabpanel').getByTestId('code-block').nth(1).innerText();
    // Without PUBLIC_URL the samples use the default local port 5000 (apiDocs.test.ts covers PUBLIC_URL).
    expect(curl).toContain(`curl -X POST 'http://localhost:5000/api/data/ingest'`);
    expect(curl).toContain("'Authorization: Bearer <token>'");
    await docs.getByRole('tabpanel').getByRole('button', { name: 'Copy Direct Array cURL' }).click();
    const n = page.locator('.ant-notification-notice');
    await n.getByText('Copied', { exact: true }).waitFor();
    expect(await n.innerText()).toContain('Code copied to clipboard');
    await h.shot('admin-api-docs');
    // The samples work when pasted: run the Standard cURL with a token put in.
    await docs.getByRole('tab', { name: 'Standard' }).click();
    const standard = (await docs.getByRole('tabpanel').getByTestId('code-block').nth(1).innerText()).replace('<token>', ADMIN_TOKEN);
    // Async: the server runs in this process, a blocking exec would starve it.
    const { stdout } = await promisify(execFile)('bash', ['-c', `${standard.replace('http://localhost:5000', h.server.url)} --silent`]);
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({ success: true, inserted: 1 });
    // Import Data has its screen; Templates and Widgets too.
    await sidebar(page, 'data-sources', 'import');
    await page.getByTestId('import-screen').waitFor();
    expect(await page.getByTestId('not-available').count()).toBe(0);
    // Permissions (share links per dashboard) and Activity Log have their own screens.
    for (const [item, marker] of [['permissions', 'permissions-empty'], ['activity', 'activity-screen']]) {
      await sidebar(page, 'published-dashboards', item);
      await page.waitForURL(new RegExp(`sub=${item}`));
      await page.getByTestId(marker).waitFor();
      expect(await page.getByTestId('not-available').count()).toBe(0);
    }
  });

  it('at 1024 px wide no card header is clipped or covered by its button', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 1024, height: 900 });
    try {
      const screens: [string, string, string][] = [
        ['data-sources', 'overview', 'Custom Data Sources'],
        ['data-sources', 'integrations', 'Salesforce'],
        ['dashboard-builder', 'builder', 'Create New Dashboard'],
      ];
      for (const [mainTab, subTab, marker] of screens) {
        await sidebar(page, mainTab, subTab);
        await page.getByText(marker, { exact: true }).first().waitFor();
        await page.waitForTimeout(300);
        const problems = await page.locator('.ant-card-head').evaluateAll((heads) =>
          heads.flatMap((head) => {
            const title = head.querySelector<HTMLElement>('.ant-card-head-title');
            const extra = head.querySelector<HTMLElement>('.ant-card-extra');
            if (!title) return [];
            const out: string[] = [];
            if (title.scrollWidth > title.clientWidth + 1) out.push(`"${title.textContent}" is cut`);
            if (extra && title.getBoundingClientRect().right > extra.getBoundingClientRect().left + 1) out.push(`"${title.textContent}" runs under its button`);
            return out;
          }));
        expect(problems, `${mainTab}/${subTab}`).toEqual([]);
        // The layout: two columns of sources, the dashboards list left of the form.
        const [left, right] = mainTab === 'data-sources' && subTab === 'overview'
          ? [page.getByTestId('custom-sources'), page.getByTestId('integration-sources')]
          : mainTab === 'dashboard-builder' ? [page.getByTestId('dashboards-card'), page.getByTestId('dashboard-form')] : [];
        if (left && right) {
          const [a, b] = [(await left.boundingBox())!, (await right.boundingBox())!];
          expect(Math.abs(a.y - b.y), `${mainTab}/${subTab} side by side`).toBeLessThan(2);
          expect(a.x + a.width).toBeLessThanOrEqual(b.x);
        }
        await h.shot(`admin-1024-${mainTab}-${subTab}`);
      }
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 });
    }
  });

  it('collapses the sidebar, and an ended session returns to sign-in with a message', async () => {
    const { page } = h;
    const before = (await page.getByTestId('admin-sidebar').boundingBox())!.width;
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect.poll(async () => (await page.getByTestId('admin-sidebar').boundingBox())!.width).toBeLessThan(before);
    await h.shot('admin-sidebar-collapsed');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    // Signed out everywhere from elsewhere (a script with the same account): the next call finds the session ended.
    const sessions = (await h.context.cookies()).filter((c) => c.name === 'livedash_session');
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await h.server.http('DELETE', '/api/auth/sessions', { token: null, headers: { cookie: `livedash_session=${sessions[0].value}` } });
    await page.getByTestId('admin-sign-in').waitFor();
    await signIn(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('admin-sign-in').waitFor();
  });
});
