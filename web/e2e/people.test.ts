import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHarness } from './browser';
import { TEST_ADMIN, sidebar, signIn, startAdminBrowser } from './adminHelpers';

const PASSWORD = 'a long enough passphrase';

describe('people: first start, invitations and roles in the console', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startAdminBrowser();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('invites an editor who signs in without the Users screen, and a viewer who opens a draft read-only', async () => {
    const { page, server } = h;
    const ds = (await server.http('POST', '/api/admin/data-sources', { body: { name: 'Orders' } })).body;
    await server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1, item: 'Widget' }] } });
    const draft = (await server.http('POST', '/api/admin/dashboards', { body: { name: 'Quarterly draft', dataSourceId: ds.id } })).body;

    // First start: the admin is created with the admin token, then invites an editor.
    await signIn(page);
    await sidebar(page, 'published-dashboards', 'users');
    const users = page.getByTestId('users-screen');
    await users.getByLabel('Email').fill('editor@example.com');
    await users.getByRole('button', { name: 'Invite' }).click();
    const link = await page.getByTestId('invite-link').innerText();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]+$/);
    await h.shot('admin-users');

    // Users → Tokens: an admin sees a person's personal API tokens (never the token) and revokes one at once.
    const made = await page.evaluate(() => fetch('/api/auth/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Laptop script' }) }).then((r) => r.json() as Promise<{ token: string }>));
    expect((await server.http('GET', '/api/auth/me', { token: made.token })).status).toBe(200);
    await users.getByRole('row', { name: new RegExp(TEST_ADMIN.email) }).getByRole('button', { name: 'Tokens' }).click();
    const tokens = page.getByTestId('user-tokens');
    await tokens.getByText('Laptop script').waitFor();
    expect(await tokens.innerText()).not.toContain(made.token);
    await tokens.getByRole('button', { name: 'Revoke' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await tokens.getByText('No tokens').waitFor();
    expect((await server.http('GET', '/api/auth/me', { token: made.token })).status).toBe(401);
    await page.keyboard.press('Escape');
    // My account → "Revoke all tokens" ends one's own tokens at once.
    const mine = await page.evaluate(() => fetch('/api/auth/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Old laptop' }) }).then((r) => r.json() as Promise<{ token: string }>));
    await page.getByRole('button', { name: 'My account' }).click();
    const account = page.getByTestId('my-account');
    await account.getByText('Old laptop').waitFor();
    await account.getByRole('button', { name: 'Revoke all tokens' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await account.getByText('No tokens').waitFor();
    expect((await server.http('GET', '/api/auth/me', { token: mine.token })).status).toBe(401);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('login-form').waitFor();
    await page.goto(link);
    const accept = page.getByTestId('accept-form');
    await accept.getByLabel('Name').fill('Eddie Editor');
    await accept.getByLabel('Password').fill(PASSWORD);
    await accept.getByRole('button', { name: 'Join and sign in' }).click();
    await page.getByTestId('admin-header').waitFor();
    await page.getByTestId('nav-published-dashboards').waitFor();
    expect(await page.getByTestId('nav-published-dashboards-users').count()).toBe(0);
    expect(await page.getByTestId('nav-data-sources-integrations').count()).toBe(0);
    expect(await page.getByTestId('nav-published-dashboards-activity').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Rotate' }).count()).toBe(0);

    // A viewer: the team's dashboards, drafts included, opened read-only.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('login-form').waitFor();
    const invited = await server.http('POST', '/api/admin/users', { body: { email: 'viewer@example.com', role: 'viewer' } });
    await page.goto(invited.body.url);
    await page.getByTestId('accept-form').getByLabel('Name').fill('Vera Viewer');
    await page.getByTestId('accept-form').getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Join and sign in' }).click();
    await page.getByTestId('viewer-home').getByText('Quarterly draft').waitFor();
    await page.goto(`/dashboards/${draft.id}`);
    await page.getByText('Quarterly draft').first().waitFor();
    await page.getByText('Widget').first().waitFor();
    // The draft is live for its signed-in viewer: a new record shows without a reload.
    await server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2, item: 'Gadget' }] } });
    await page.getByText('Gadget').first().waitFor();
    await h.shot('viewer-draft');
    // Signed out, the same address is "not found".
    await h.context.clearCookies();
    await page.reload();
    await page.getByText(/not found/i).first().waitFor();
  }, 120_000); // three sign-ins, each hashing a password on a shared machine
});
