import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, startPostgres, type SqlServer } from '../../server/integrations/sql/test/sqlServers';
import type { BrowserHarness } from './browser';
import { signIn, startAdminBrowser, toast } from './adminHelpers';

/**
 * Data Sources › Integrations with a real PostgreSQL and a real MariaDB (each started once for this
 * file): connect each through its form (a pasted connection string fills the fields; Test
 * connection says a wrong password in the server's words, then shows the detected fields and
 * sample rows), sync, and edit with the password kept.
 */

let h: BrowserHarness;
let pg: SqlServer;
let maria: SqlServer;
const PASSWORD = 'Console-Reader-Pw-9';
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => `(${i + 1}, 'Order ${i + 1}', ${(i + 1) * 10}.50, '${['open', 'shipped', 'paid'][i % 3]}', '2024-06-0${1 + (i % 9)} 09:30:00')`).join(', ');

beforeAll(async () => {
  [pg, maria] = await Promise.all([startPostgres(), startMariadb()]);
  await pg.sql('CREATE TABLE orders (id integer PRIMARY KEY, name text, total numeric(10,2), status text, updated_at timestamp NOT NULL)');
  await maria.sql('CREATE TABLE orders (id INT PRIMARY KEY, name VARCHAR(50), total DECIMAL(10,2), status VARCHAR(20), updated_at DATETIME NOT NULL)');
  await Promise.all([pg.sql(`INSERT INTO orders VALUES ${rows(12)}`), maria.sql(`INSERT INTO orders VALUES ${rows(8)}`)]);
  await Promise.all([pg.addReader('reader', PASSWORD), maria.addReader('reader', PASSWORD)]);
  h = await startAdminBrowser({ OUTBOUND_ALLOWED_HOSTS: `${pg.hostPort},${maria.hostPort}`, INTEGRATION_BATCH_RECORDS: '5', ZENDESK_SCHEDULER_TICK_MS: '0' });
});
afterAll(async () => {
  await h?.close();
  await Promise.all([pg?.stop(), maria?.stop()]);
});

describe('database integrations in the console', () => {
  it('PostgreSQL: a pasted connection string, a wrong password in words, fields and sample rows, a sync, the password kept on edit', { timeout: 90_000 }, async () => {
    const { page } = h;
    await signIn(page, '/admin?tab=data-sources&sub=integrations');
    await page.getByTestId('provider-postgres').getByRole('button', { name: 'Connect PostgreSQL' }).click();
    const dialog = page.getByTestId('pull-dialog');
    await dialog.getByLabel('Name').fill('Shop orders');
    await dialog.getByTestId('db-paste').fill(pg.url('reader', 'not-the-password'));
    expect(await dialog.getByLabel('Host').inputValue()).toBe('127.0.0.1');
    expect(await dialog.getByLabel('Port').inputValue()).toBe(String(pg.port));
    expect(await dialog.getByLabel('Database').inputValue()).toBe('postgres');
    await dialog.getByTestId('db-query').fill('SELECT id, name, total, status, updated_at FROM orders');
    await dialog.getByLabel('Primary key').fill('id');
    await dialog.getByLabel('Incremental column').fill('updated_at');

    await dialog.getByTestId('test-connection').click();
    await dialog.getByText('password authentication failed for user "reader"').waitFor();
    await h.shot('postgres-integration-wrong-password');
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByTestId('test-connection').click();
    await dialog.getByText('Connected: the first page holds 12 records').waitFor();
    expect(await dialog.getByTestId('detected-field').allInnerTexts()).toEqual(['id', 'name', 'total', 'status', 'updated_at']);
    const sample = dialog.getByTestId('sample-rows');
    expect(await sample.locator('tbody tr.ant-table-row').count()).toBe(5);
    expect(await sample.locator('tbody tr.ant-table-row').first().innerText()).toContain('2024-06-01T09:30:00.000Z');
    await sample.scrollIntoViewIfNeeded();
    await h.shot('postgres-integration-test-connection');
    await dialog.getByRole('button', { name: 'Create Integration' }).click();
    await toast(page, 'Integration Created');

    const card = page.locator('[data-testid^="integration-"]').filter({ hasText: 'Shop orders' });
    await card.getByText(`${pg.hostPort}/postgres`).waitFor();
    await card.getByTestId('sync-button').click();
    await toast(page, 'Sync Complete', 'Synced 12 records in 3 pages.');
    await card.getByTestId('integration-totals').getByText('12 records').waitFor();
    await card.getByTestId('last-runs').getByText('Last runs').click();
    await card.getByTestId('last-runs').getByText('Succeeded').waitFor();
    await h.shot('postgres-integration-synced');

    // Edit: the password stays on the server (masked here) and Save keeps it.
    await card.getByTestId('edit-button').click();
    const edit = page.getByTestId('pull-dialog');
    expect(await edit.getByLabel('Password').inputValue()).toBe('••••••••');
    await edit.getByText('Stored on the server').waitFor();
    await edit.getByTestId('db-query').fill(`SELECT id, name, total, status, updated_at FROM orders WHERE status <> 'paid'`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Integration Saved');
    await pg.sql(`INSERT INTO orders VALUES (13, 'Order 13', 1.00, 'open', '2024-07-01 10:00:00')`);
    await card.getByTestId('sync-button').click();
    // A changed query reads from the beginning: the 8 rows not paid, the new one among them.
    await toast(page, 'Sync Complete', 'Synced 9 records in 2 pages.');
  });

  it('MySQL (MariaDB): the fields filled one by one, Test connection and a sync', { timeout: 60_000 }, async () => {
    const { page } = h;
    await page.getByTestId('provider-mysql').getByRole('button', { name: 'Connect MySQL' }).click();
    const dialog = page.getByTestId('pull-dialog');
    await dialog.getByLabel('Name').fill('Warehouse orders');
    await dialog.getByLabel('Host').fill('127.0.0.1');
    await dialog.getByLabel('Port').fill(String(maria.port));
    await dialog.getByLabel('Database').fill('livedash_test');
    await dialog.getByLabel('User').fill('reader');
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByTestId('db-query').fill('SELECT * FROM orders;');
    await dialog.getByLabel('Primary key').fill('id');
    await dialog.getByTestId('test-connection').click();
    await dialog.getByText('Connected: the first page holds 8 records').waitFor();
    expect(await dialog.getByTestId('detected-field').allInnerTexts()).toEqual(['id', 'name', 'total', 'status', 'updated_at']);
    await dialog.getByTestId('sample-rows').scrollIntoViewIfNeeded();
    await h.shot('mysql-integration-test-connection');
    await dialog.getByRole('button', { name: 'Create Integration' }).click();
    await toast(page, 'Integration Created');
    const card = page.locator('[data-testid^="integration-"]').filter({ hasText: 'Warehouse orders' });
    await card.getByText(`${maria.hostPort}/livedash_test`).waitFor();
    await card.getByTestId('sync-button').click();
    await toast(page, 'Sync Complete', 'Synced 8 records in 2 pages.');
    await card.getByTestId('next-step').waitFor();
    await h.shot('mysql-integration-synced');
  });
});
