import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserHarness } from './browser';
import { seedSource, sidebar, signIn, startAdminBrowser, toast } from './adminHelpers';

/** Picks an option of the antd Select labelled `label`, in the dropdown that select controls. */
async function pick(page: Page, label: string, option: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  // The open dropdown (ids are not unique in a bundle built with NODE_ENV=test, so no aria-controls).
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  await dropdown.locator('.ant-select-item-option', { hasText: option }).first().waitFor();
  // Click once the list has slid in: a click during the motion can land on another option.
  await page.waitForFunction(() => !document.querySelector('.ant-select-dropdown[class*="-enter"], .ant-select-dropdown[class*="-appear"]'));
  await dropdown.locator('.ant-select-item-option', { hasText: option }).first().click();
}

/** Drags a column header by its handle until its centre passes the target header's centre. */
async function dragTo(page: Page, header: ReturnType<Page['locator']>, target: ReturnType<Page['locator']>) {
  const from = (await header.boundingBox())!;
  const to = (await target.boundingBox())!;
  await dragBy(page, header.getByTestId('drag-handle'), to.x + to.width / 2 - (from.x + from.width / 2) + 10);
}

async function dragBy(page: Page, selector: ReturnType<Page['locator']>, dx: number) {
  const box = (await selector.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width / 2 + (dx * i) / 10, box.y + box.height / 2);
  await page.mouse.up();
}

describe('admin console: dashboards, configure editor and published list', () => {
  let h: BrowserHarness;
  let dashboardId = '';
  const tabs = async () => (await h.server.http('GET', `/api/admin/dashboards/${dashboardId}`)).body.configuration.tabs;

  beforeAll(async () => {
    h = await startAdminBrowser();
    await seedSource(h, 'Sales Orders', Array.from({ length: 12 }, (_, i) => ({
      order_id: i + 1, customer: `C${i}`, status: i % 3 ? 'open' : 'closed', amount: i * 10, custom_fields: [{ id: 5, value: `v${i}` }],
    })));
    await signIn(h.page, '/admin?tab=dashboard-builder&sub=builder');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates a dashboard: the button waits for name and data source', async () => {
    const { page } = h;
    await page.getByRole('tab', { name: 'Configure' }).click();
    await page.getByText('No Dashboards Available').waitFor();
    await page.getByText('Create a dashboard first to configure tabs and styles.').waitFor();
    await page.getByRole('tab', { name: 'Builder' }).click();
    const form = page.getByTestId('dashboard-form');
    const submit = form.getByRole('button', { name: 'Create Dashboard' });
    expect(await submit.isDisabled()).toBe(true);
    await form.getByLabel('Name').fill('Sales Pipeline');
    expect(await submit.isDisabled()).toBe(true);
    await pick(page, 'Data Source', 'Sales Orders');
    await form.getByLabel('Description').fill('Orders by status');
    await submit.click();
    await toast(page, 'Dashboard Created');
    const item = page.getByTestId('dashboard-list-item');
    await item.getByText('Draft').waitFor();
    dashboardId = (await h.server.http('GET', '/api/admin/dashboards')).body[0].id;
    expect((await tabs()).map((t: { name: string }) => t.name)).toEqual(['Tab 1']);
    await form.getByRole('button', { name: 'Publish' }).click();
    await toast(page, 'Dashboard Updated');
    await item.getByText('Live').waitFor();
    await h.shot('admin-dashboards');
    // The next step is one click: "Add widgets" opens the Widgets screen on the new dashboard, a tab ready to build.
    await page.getByTestId('dashboard-next-step').getByRole('button', { name: 'Add widgets' }).click();
    await page.getByTestId('widgets-screen').waitFor();
    expect(new URL(page.url()).searchParams.get('sub')).toBe('widgets');
    expect(page.url()).toContain(dashboardId);
    expect((await tabs()).map((t: { name: string }) => t.name)).toEqual(['Tab 1']);
    await page.getByRole('button', { name: 'Add widget' }).waitFor();
  });

  it('configures a table tab: reorder, resize, hide, sortable, save', async () => {
    const { page } = h;
    await page.getByRole('tab', { name: 'Configure' }).click();
    await page.getByTestId('configure-card').getByRole('button', { name: 'Configure' }).click();
    const editor = page.getByTestId('config-editor');
    await editor.getByText('Select Style for Tab 1').waitFor();
    await h.shot('admin-configure-style');
    await editor.getByText('Table Style', { exact: true }).click();
    const caption = editor.getByTestId('table-caption');
    await caption.getByText('Showing 10 of 12 records').waitFor();
    await editor.getByRole('button', { name: 'Edit Mode' }).click();
    expect(await caption.innerText()).toContain('(Edit Mode - Changes will be saved when you click Save Changes)');
    const headers = () => editor.getByTestId('column-header').evaluateAll((els) => els.map((e) => e.getAttribute('data-column')));
    expect(await headers()).toEqual(['order_id', 'customer', 'status', 'amount', 'custom_5']);
    // Drag order_id two columns to the right.
    const first = editor.locator('[data-column="order_id"]');
    await dragTo(page, first, editor.locator('[data-column="status"]'));
    await expect.poll(headers).toEqual(['customer', 'status', 'order_id', 'amount', 'custom_5']);
    // Keyboard reordering: Space, ArrowLeft, Space moves amount one to the left.
    await editor.locator('[data-column="amount"]').getByTestId('drag-handle').focus();
    // Each key waits for what the last one did (the handle pressed, then what dnd-kit announces to
    // screen readers), so none lands early on a busy machine.
    await page.keyboard.press('Space');
    await editor.locator('[data-column="amount"]').getByTestId('drag-handle').and(page.locator('[aria-pressed="true"]')).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.locator('[id^="DndLiveRegion"]').filter({ hasText: 'moved over droppable area order_id' }).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await expect.poll(headers).toEqual(['customer', 'status', 'amount', 'order_id', 'custom_5']);
    await dragBy(page, editor.locator('[data-column="customer"]').getByTestId('resize-handle'), 600);
    expect(await editor.locator('[data-column="customer"]').getAttribute('data-width')).toBe('500');
    await editor.getByLabel('Visible status').uncheck();
    expect(await editor.locator('[data-column="status"]').getAttribute('data-visible')).toBe('false');
    await editor.getByRole('button', { name: 'Remove column Custom Field 5' }).click();
    await h.shot('admin-configure-table');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Configuration Saved');
    const [tab] = await tabs();
    expect(tab.style).toBe('table');
    expect(tab.configuration.columns).toEqual([
      { name: 'customer', visible: true, width: 500, order: 0 },
      { name: 'status', visible: false, width: 150, order: 1 },
      { name: 'amount', visible: true, width: 150, order: 2 },
      { name: 'order_id', visible: true, width: 150, order: 3 },
    ]);
    // Sortable is kept with the other settings until Save Changes.
    await editor.getByText('Sortable', { exact: true }).click();
    expect((await tabs())[0].configuration.sortable).not.toBe(false);
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(async () => (await tabs())[0].configuration.sortable).toBe(false);
  });

  it('adds, renames and deletes tabs and configures a bucket tab', async () => {
    const { page } = h;
    const editor = page.getByTestId('config-editor');
    await editor.getByRole('button', { name: 'Add Tab' }).click();
    await editor.getByText('Select Style for Tab 2').waitFor();
    await editor.getByRole('button', { name: 'Rename Tab 2' }).click();
    await editor.getByLabel('Tab name').fill('  By Status  ');
    await page.keyboard.press('Enter');
    await editor.getByText('Select Style for By Status').waitFor();
    await editor.getByRole('button', { name: 'Rename By Status' }).click();
    await editor.getByLabel('Tab name').fill('Nope');
    await page.keyboard.press('Escape');
    await editor.getByText('Select Style for By Status').waitFor();
    await editor.getByText('Bucket Style', { exact: true }).click();
    await editor.getByTestId('bucket-structure').getByText('Primary Key', { exact: true }).waitFor();
    await pick(page, 'Bucket Key', 'status');
    // Out of range is said at the input, not changed silently.
    await editor.getByLabel('Bucket Width').fill('950');
    await editor.getByLabel('Bucket Width').blur();
    await editor.getByText('Bucket Width must be from 200 to 800 pixels').waitFor();
    await editor.getByLabel('Bucket Width').fill('800');
    await pick(page, 'Display Keys', 'customer');
    await page.keyboard.press('Escape');
    await editor.getByRole('button', { name: 'Add Highlight Rule' }).click();
    await pick(page, 'Highlight field', 'status');
    await editor.getByLabel('Highlight value').fill('closed');
    await pick(page, 'Highlight colour', 'green');
    await h.shot('admin-configure-bucket');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Configuration Saved');
    const bucket = (await tabs())[1];
    expect(bucket).toMatchObject({ id: 'tab2', name: 'By Status', style: 'bucket' });
    expect(bucket.configuration).toMatchObject({
      bucketKey: 'status', buckets: [{ key: 'status', width: 800 }], displayKeys: ['customer'],
      highlightRules: [{ key: 'status', value: 'closed', color: 'green' }],
    });
    await editor.getByRole('button', { name: 'Add Tab' }).click();
    await editor.getByText('Select Style for Tab 3').waitFor();
    await editor.getByRole('button', { name: 'Delete Tab 3' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    expect(await confirm.innerText()).toContain('Are you sure you want to delete this tab? This action cannot be undone.');
    await confirm.getByRole('button', { name: 'Delete Tab' }).click();
    await expect.poll(async () => (await tabs()).length).toBe(2);
    await editor.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('configure-grid').waitFor();
    await h.shot('admin-configure-grid');
  });

  it('lists the dashboard under Published Dashboards and deletes it with the exact confirmation', async () => {
    const { page } = h;
    // From a fresh page: a retry must not start under a dialog the failed try left open.
    await page.reload();
    await page.getByTestId('admin-header').waitFor();
    await sidebar(page, 'published-dashboards');
    const card = page.getByTestId('published-card');
    await card.getByText('Live').waitFor();
    expect(await card.getByTestId('published-source').innerText()).toBe('Data Source: Sales Orders');
    expect(await card.getByRole('link', { name: 'View Public' }).getAttribute('href')).toBe(`/dashboards/${dashboardId}`);
    await h.shot('admin-published');
    await card.getByRole('button', { name: 'Unpublish' }).click();
    await toast(page, 'Dashboard Updated');
    await card.getByText('Draft').waitFor();
    expect(await card.getByRole('link', { name: 'View Public' }).count()).toBe(0);
    expect((await h.server.http('GET', `/api/dashboards/${dashboardId}`, { token: null })).status).toBe(404);
    await card.getByRole('button', { name: 'Publish' }).click();
    await card.getByText('Live').waitFor();
    await card.getByRole('button', { name: 'Edit' }).click();
    await page.getByTestId('config-editor').waitFor();
    expect(page.url()).toContain(`dashboard=${dashboardId}`);
    await page.goBack();
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    expect(await confirm.innerText()).toContain(
      'Are you sure you want to delete the dashboard "Sales Pipeline"? This action cannot be undone and will also delete all associated dashboard tabs.',
    );
    await confirm.getByRole('button', { name: 'Delete' }).click();
    // The dialog stays open (its button loading) until the DELETE answers: slow on a loaded machine.
    await confirm.waitFor({ state: 'detached', timeout: 30_000 });
    await toast(page, 'Dashboard Deleted', 'Dashboard has been deleted successfully.');
    await page.getByText('No Dashboards').waitFor();
    await page.getByRole('button', { name: 'Create Dashboard' }).waitFor();
    await h.shot('admin-published-empty');
  });

  it('opens the editor from the URL and shows the bucket empty state for a source without records', async () => {
    const { page } = h;
    const empty = await seedSource(h, 'Empty Source', []);
    const created = await h.server.http('POST', '/api/admin/dashboards', { body: { name: 'Inventory Watch', dataSourceId: empty.id } });
    expect(created.status).toBe(201);
    await page.goto(`/admin?tab=dashboard-builder&sub=configure&dashboard=${created.body.id}`);
    const editor = page.getByTestId('config-editor');
    await editor.getByTestId('config-editor-title').getByText('Inventory Watch').waitFor();
    await editor.getByText('Bucket Style', { exact: true }).click();
    await editor.getByText('No data available to determine columns').waitFor();
    await editor.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('configure-grid').waitFor();
  });
});
