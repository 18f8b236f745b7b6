import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../../server/integrations/api/test/upstream';
import type { BrowserHarness } from './browser';
import { signIn, startAdminBrowser, toast } from './adminHelpers';

/**
 * Data Sources › Integrations with an HTTP API on loopback: connect it through its form (Test
 * connection shows the detected fields and sample rows), sync it with live progress, read the last
 * runs, see a failed page in words, edit it with its secret kept, and go on to a dashboard on its
 * data source.
 */

let h: BrowserHarness;
let up: Upstream;
const TOKEN = 'e2e-bearer-token-4f1d';

beforeAll(async () => {
  up = await startUpstream({ items: 25, per: 10 });
  up.auth = { header: 'authorization', value: `Bearer ${TOKEN}` };
  h = await startAdminBrowser({ OUTBOUND_ALLOWED_HOSTS: up.hostPort, ZENDESK_SCHEDULER_TICK_MS: '0' });
});
afterAll(async () => {
  await h?.close();
  await up?.close();
});

describe('HTTP API integration in the console', () => {
  it('connects, tests, syncs live, shows the last runs and a failure, keeps the secret on edit, and leads to a dashboard', { timeout: 90_000 }, async () => {
    const { page } = h;
    await signIn(page, '/admin?tab=data-sources&sub=integrations');
    await page.getByTestId('provider-api').getByRole('button', { name: 'Connect HTTP API' }).click();
    const dialog = page.getByTestId('pull-dialog');
    await dialog.getByLabel('Name').fill('Orders API');
    await dialog.getByTestId('api-url').fill(`${up.url}/v1/next-url`);
    await dialog.getByLabel('Records path').fill('data.items');
    await dialog.getByLabel('Primary key').fill('id');
    await dialog.getByRole('combobox', { name: 'Pages' }).click();
    await page.getByTitle('Next URL in the answer').click();
    await dialog.getByLabel('Path of the next URL in the answer').fill('links.next');
    await dialog.getByRole('combobox', { name: 'Authentication' }).click();
    await page.getByTitle('Bearer token').click();
    await dialog.getByLabel('Token').fill('wrong-token');

    // A refused token is said in the server's words; the right one shows fields and sample rows.
    await dialog.getByTestId('test-connection').click();
    await dialog.getByText(`HTTP 401 from ${up.hostPort}/v1/next-url: unauthorized`).waitFor();
    await dialog.getByLabel('Token').fill(TOKEN);
    await dialog.getByTestId('test-connection').click();
    await dialog.getByText('Connected: the first page holds 10 records').waitFor();
    expect(await dialog.getByTestId('detected-field').allInnerTexts()).toEqual(['id', 'name', 'amount', 'updated_at']);
    expect(await dialog.getByTestId('sample-rows').locator('tbody tr.ant-table-row').count()).toBe(5);
    await dialog.getByTestId('sample-rows').scrollIntoViewIfNeeded();
    await h.shot('api-integration-test-connection');
    await dialog.getByRole('button', { name: 'Create Integration' }).click();
    await toast(page, 'Integration Created');

    const card = page.locator('[data-testid^="integration-"]').filter({ hasText: 'Orders API' });
    await card.getByText(`${up.hostPort}/v1/next-url`).waitFor();
    await card.getByTestId('sync-button').click();
    await card.getByTestId('sync-progress').waitFor();
    await toast(page, 'Sync Complete', 'Synced 25 records in 3 pages.');
    await card.getByTestId('integration-totals').getByText('25 records').waitFor();
    await card.getByTestId('last-runs').getByText('Last runs').click();
    await card.getByTestId('last-runs').getByText('Succeeded').waitFor();
    await card.getByTestId('next-step').waitFor();
    await h.shot('api-integration-synced');

    // A page that fails: the run fails naming the page and the reason; what landed stays.
    up.fail('next-url', 1, { status: 502 });
    await card.getByTestId('full-sync-button').click();
    await toast(page, 'Sync Error', `page 1: HTTP 502 from ${up.hostPort}/v1/next-url: upstream trouble`);
    await card.getByTestId('sync-error-text').getByText(`page 1: HTTP 502 from ${up.hostPort}/v1/next-url: upstream trouble`).waitFor();
    await card.getByTestId('last-runs').getByText('Failed').waitFor();
    await h.shot('api-integration-failed');

    // Edit: the token stays on the server (masked here) and is kept by Save.
    await card.getByTestId('edit-button').click();
    const edit = page.getByTestId('pull-dialog');
    expect(await edit.getByLabel('Token').inputValue()).toBe('••••••••');
    await edit.getByText('Stored on the server').waitFor();
    await edit.getByLabel('Records path').fill('data.items');
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Integration Saved');
    await card.getByTestId('sync-button').click();
    await toast(page, 'Sync Complete');
    expect(up.requests.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);

    // The next step: a dashboard on the integration's data source, which the builder opens with.
    await card.getByTestId('next-step').getByRole('button', { name: 'Build a dashboard' }).click();
    await page.getByText('Dashboard Builder').first().waitFor();
    await page.getByText(/^Orders API \(INT_[0-9a-f]{24}\)$/).waitFor();
    await h.shot('api-integration-next-step');
  });
});
