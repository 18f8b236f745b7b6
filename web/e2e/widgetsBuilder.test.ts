import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserHarness } from './browser';
import { seedSource, signIn, startAdminBrowser, toast } from './adminHelpers';

/** A condition polled for up to 10 s (the machine is shared; expect.poll's default is 1 s). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

/** Picks an option of a labelled select and waits until the select shows it (a click that lands while
 * the dropdown is still sliding in, on a loaded machine, is tried again). */
async function pick(page: Page, label: string, option: string, exact = false) {
  const select = page.getByLabel(label, { exact: true }).locator('xpath=ancestor::div[contains(@class,"ant-select")][1]');
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.getByLabel(label, { exact: true }).click();
    const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
    await dropdown.locator('.ant-select-item-option', { hasText: exact ? new RegExp(`^\\s*${option}\\s*$`) : option }).first().click();
    const shown = await expect.poll(() => select.innerText(), { timeout: 3_000 }).toSatisfy((t: string) => (exact ? t.trim() === option : t.includes(option))).then(() => true, () => false);
    if (shown) return;
  }
  throw new Error(`${label} did not take "${option}"`);
}

const DAY = 86_400_000;
const ORDERS = Array.from({ length: 12 }, (_, i) => ({
  ticket_id: i + 1, subject: `Ticket ${i + 1}`, status: ['open', 'in progress', 'closed'][i % 3], priority: ['high', 'low'][i % 2],
  amount: (i + 1) * 10, created_at: new Date(Date.now() - (i % 4) * DAY).toISOString(),
}));
// Zendesk's statuses: 4 open + 1 new are Open, 2 pending + 1 on hold In progress, 5 solved + 3 closed Closed.
const ZENDESK_STATUSES = { solved: 5, open: 4, closed: 3, pending: 2, new: 1, hold: 1 };
const ZENDESK = Object.entries(ZENDESK_STATUSES).flatMap(([status, n]) => Array.from({ length: n }, () => status)).map((status, i) => ({
  id: 500 + i, subject: `Zendesk ticket ${i + 1}`, status, priority: ['urgent', 'normal'][i % 2], created_at: new Date(Date.now() - (i % 3) * DAY).toISOString(),
}));

/** The whole antd Select around the input labelled `label`. */
const selectOf = (page: Page, label: string) => page.getByLabel(label, { exact: true }).locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " ant-select ")][1]');
/** The texts of the values picked in a multi-select. */
const picked = (page: Page, label: string) => selectOf(page, label).locator('.ant-select-selection-item-content').allInnerTexts();
/** Adds an option to a multi-select, trying again when the click lands while the dropdown slides in. */
async function pickMore(page: Page, label: string, option: string) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.getByLabel(label, { exact: true }).click();
    const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
    await dropdown.locator('.ant-select-item-option', { hasText: option }).first().click({ timeout: 3_000 }).catch(() => {});
    const shown = await expect.poll(() => picked(page, label), { timeout: 3_000 }).toContain(option).then(() => true, () => false);
    if (shown) return;
  }
  throw new Error(`${label} did not take "${option}"`);
}

describe('admin console: templates and the widget builder', () => {
  let h: BrowserHarness;
  let zendeskSourceId: string;
  const dashboards = async () => (await h.server.http('GET', '/api/admin/dashboards')).body as { id: string; name: string; isPublished: boolean; configuration: { tabs: { id: string; widgets: { id: string; name: string; type: string; layout: unknown; configuration: Record<string, unknown> }[] }[] } }[];

  beforeAll(async () => {
    h = await startAdminBrowser();
    await seedSource(h, 'Helpdesk', ORDERS);
    zendeskSourceId = (await seedSource(h, 'Zendesk tickets', ZENDESK)).sourceId;
    await signIn(h.page, '/admin?tab=dashboard-builder&sub=templates');
  });
  afterAll(() => h?.close());

  it('starts a dashboard from the Support queue template, mapped onto the chosen fields', async () => {
    const { page } = h;
    await page.getByTestId('templates-screen').waitFor();
    expect(await page.getByTestId('template-card').locator('.ant-card-head-title').allInnerTexts()).toEqual(['Support queue', 'Sales pipeline', 'Inventory']);
    await page.getByRole('button', { name: 'Use template Support queue' }).click();
    const dialog = page.getByTestId('template-dialog');
    // The fields are suggested from their names once the source's records are read.
    await poll(() => dialog.getByLabel('Date field').locator('xpath=ancestor::div[contains(@class,"ant-select")][1]').innerText()).toContain('created_at');
    expect(await dialog.getByLabel('Status field').locator('xpath=ancestor::div[contains(@class,"ant-select")][1]').innerText()).toContain('status');
    // Each pick shows its field's type from the source's type model.
    await poll(() => dialog.getByLabel('Date field').locator('xpath=ancestor::div[contains(@class,"ant-select")][1]').locator('[data-field-type]').getAttribute('data-field-type')).toBe('datetime');
    // The status values are mapped onto the three KPIs.
    await poll(() => picked(page, 'Closed values')).toEqual(['closed']);
    expect([await picked(page, 'Open values'), await picked(page, 'In progress values')]).toEqual([['open'], ['in progress']]);
    await dialog.getByLabel('Name').fill('Helpdesk queue');
    await dialog.getByText('Publish now').click();
    await h.shot('templates-dialog');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await toast(page, 'Dashboard Created');
    await page.getByTestId('widgets-screen').waitFor();
    await poll(async () => page.getByTestId('builder-widget').count()).toBe(5);
    const [d] = await dashboards();
    expect(d).toMatchObject({ name: 'Helpdesk queue', isPublished: true });
    expect(d.configuration.tabs[0].widgets.map((w) => (w.configuration.filters as unknown[] | undefined)?.[0] ?? w.configuration.groupField ?? w.configuration.dateField)).toEqual([
      { field: 'status', operator: 'in', value: '', values: ['open'] }, { field: 'status', operator: 'in', value: '', values: ['in progress'] }, { field: 'status', operator: 'in', value: '', values: ['closed'] }, 'priority', 'created_at',
    ]);
    // The preview draws with the source's records: 4 open tickets.
    await poll(() => page.locator('[data-testid=builder-widget][data-widget-id=open] [data-testid=kpi-value]').getAttribute('data-value')).toBe('4');
  });

  it('adds, edits, lays out, duplicates and removes widgets, refuses an incomplete one, saves and reloads', async () => {
    const { page } = h;
    // The Add widget menu opens on hover; a click landing while it slides in on a loaded machine is tried again.
    for (let attempt = 0; ; attempt++) {
      await page.getByRole('button', { name: 'Add widget' }).hover();
      // A click that landed but was reported late (the panel is open) counts.
      const clicked = await page.getByRole('menuitem', { name: 'Donut' }).click({ timeout: 3_000 }).then(() => true, async (e: unknown) => (await page.getByTestId('widget-editor').isVisible()) || (attempt < 2 ? false : Promise.reject(e)));
      if (clicked) break;
      await page.mouse.move(0, 0);
    }
    const editor = page.getByTestId('widget-editor');
    await editor.getByLabel('Title').fill('Share by priority');
    await editor.getByRole('button', { name: 'Done' }).click();
    // Saving with a donut that groups by nothing names what is missing, in the editor and above the grid.
    await page.getByRole('button', { name: 'Save widgets' }).click();
    await page.getByTestId('widget-problems').waitFor();
    expect(await page.getByTestId('widget-problems').innerText()).toContain('Share by priority: Pick a field to group by');
    const card = page.locator('[data-testid=builder-widget]', { hasText: 'Share by priority' });
    expect(await card.getByTestId('widget-problem').innerText()).toContain('Pick a field to group by');
    await card.getByRole('button', { name: 'Edit Share by priority' }).click();
    expect(await editor.getByText('Pick a field to group by').count()).toBe(1);
    await pick(page, 'Group by', 'priority');
    await editor.getByRole('button', { name: 'Done' }).click();
    await poll(() => card.getByTestId('widget-table').locator('tbody tr').count()).toBe(2);

    // Keyboard: the move handle takes arrows (move) and Shift+arrows (resize). (The closed drawer
    // gives the focus back to the Edit button first.)
    await editor.waitFor({ state: 'hidden' });
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Edit Share by priority');
    const id = await card.getAttribute('data-widget-id');
    await card.getByRole('button', { name: 'Move Share by priority', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowLeft');
    await poll(() => page.getByTestId('grid-announce').innerText()).toMatch(/^Share by priority: column 3, row \d+, 5 wide, 5 high$/);
    // Mouse: drag the "Tickets per day" chart by its handle to the left edge.
    const line = page.locator('[data-testid=builder-widget]', { hasText: 'Tickets per day' });
    const handle = (await line.getByRole('button', { name: 'Move Tickets per day', exact: true }).boundingBox())!;
    const grid = (await page.getByTestId('builder-grid').boundingBox())!;
    await page.mouse.move(handle.x + 5, handle.y + 5);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(handle.x + 5 - ((handle.x - grid.x) * i) / 12, handle.y + 5 + 2 * i);
    await page.mouse.up();

    await page.locator('[data-testid=builder-widget]', { hasText: 'Closed' }).getByRole('button', { name: 'Duplicate Closed' }).click();
    await page.locator('[data-testid=builder-widget]', { hasText: 'In progress' }).getByRole('button', { name: 'Remove In progress' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Remove' }).click();
    await poll(() => page.getByTestId('builder-widget').count()).toBe(6);
    await h.shot('widgets-builder');

    await page.getByRole('button', { name: 'Save widgets' }).click();
    await toast(page, 'Widgets saved');
    const saved = (await dashboards())[0].configuration.tabs[0].widgets;
    expect(saved.map((w) => w.name)).toEqual(['Open', 'Closed', 'Tickets by priority', 'Tickets per day', 'Share by priority', 'Closed (copy)']);
    const donut = saved.find((w) => w.id === id)!;
    expect(donut).toMatchObject({ type: 'donut', configuration: { groupField: 'priority', metric: 'count' } });
    expect(donut.layout).toMatchObject({ x: 2, w: 5 });
    expect(saved.find((w) => w.name === 'Tickets per day')!.layout).toMatchObject({ x: 0 });

    await page.reload();
    await page.getByTestId('widgets-screen').waitFor();
    await poll(() => page.getByTestId('builder-widget').count()).toBe(6);
    expect(await page.getByRole('button', { name: 'Save widgets' }).isDisabled()).toBe(true);
    const box = async (name: string) => (await page.locator('[data-testid=builder-widget]', { hasText: name }).boundingBox())!;
    const [perDay, builderGrid] = [await box('Tickets per day'), (await page.getByTestId('builder-grid').boundingBox())!];
    expect(perDay.x - builderGrid.x).toBeLessThan(40);

    // The Configure editor opens the same builder for a tab with widgets.
    await page.goto(`/admin?tab=dashboard-builder&sub=configure&dashboard=${(await dashboards())[0].id}`);
    await page.getByTestId('widget-builder').waitFor();
    await poll(() => page.getByTestId('builder-widget').count()).toBe(6);
  });

  it('maps a Zendesk source\'s statuses onto Open, In progress and Closed, and the published tiles count them live', async () => {
    const { page } = h;
    await page.goto('/admin?tab=dashboard-builder&sub=templates');
    await page.getByRole('button', { name: 'Use template Support queue' }).click();
    const dialog = page.getByTestId('template-dialog');
    await pick(page, 'Data source', 'Zendesk tickets');
    // Suggested from the source's values (most frequent first): pending goes with hold, as Zendesk means it.
    await poll(() => picked(page, 'Closed values')).toEqual(['solved', 'closed']);
    expect([await picked(page, 'Open values'), await picked(page, 'In progress values')]).toEqual([['open', 'new'], ['hold', 'pending']]);
    expect(await dialog.getByTestId('template-values-status').locator('.ant-card-head-title').innerText()).toBe('Which values of "status" count as "Open", "In progress" and "Closed"');

    // A KPI without values is refused with a message under its select; picking and typing values mends it.
    const closed = selectOf(page, 'Closed values');
    while ((await picked(page, 'Closed values')).length > 0) await closed.locator('.ant-select-selection-item-remove').first().click();
    await dialog.getByLabel('Name').fill('Zendesk queue');
    await dialog.getByText('Publish now').click();
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await dialog.getByText('Pick at least one value that counts as "Closed"').waitFor();
    await page.getByLabel('Closed values', { exact: true }).click();
    const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
    // The source's values, most frequent first, with their counts and the KPI already counting them.
    await poll(async () => (await dropdown.locator('.ant-select-item-option').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'solved 5 records', 'open Open · 4 records', 'closed 3 records', 'pending In progress · 2 records', 'new Open · 1 record', 'hold In progress · 1 record',
    ]);
    await pickMore(page, 'Closed values', 'solved');
    // Typed values: one the records hold (any case) takes their spelling; one they do not is kept as typed.
    for (const typed of ['CLOSED', 'archived']) {
      await page.getByLabel('Closed values', { exact: true }).fill(typed);
      await page.keyboard.press('Enter');
    }
    await poll(() => picked(page, 'Closed values')).toEqual(['solved', 'closed', 'archived']);
    await poll(() => dialog.getByText('Pick at least one value that counts as "Closed"').count()).toBe(0);
    await h.shot('template-values-dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await toast(page, 'Dashboard Created');

    const d = (await dashboards()).find((x) => x.name === 'Zendesk queue')!;
    expect(d.isPublished).toBe(true);
    expect(d.configuration.tabs[0].widgets.slice(0, 3).map((w) => (w.configuration.filters as unknown[] | undefined)?.[0])).toEqual([
      { field: 'status', operator: 'in', value: '', values: ['open', 'new'] },
      { field: 'status', operator: 'in', value: '', values: ['hold', 'pending'] },
      { field: 'status', operator: 'in', value: '', values: ['solved', 'closed', 'archived'] },
    ]);

    // The widget editor: "is one of" offers the field's values seen in the preview records.
    await page.getByTestId('widgets-screen').waitFor();
    await pick(page, 'Dashboard', 'Zendesk queue');
    const openCard = page.locator('[data-testid=builder-widget][data-widget-id=open]');
    const preview = () => openCard.getByTestId('kpi-value').getAttribute('data-value');
    await poll(preview).toBe('5');
    await openCard.getByRole('button', { name: 'Edit Open', exact: true }).click();
    const editor = page.getByTestId('widget-editor');
    await poll(() => picked(page, 'Filter values')).toEqual(['open', 'new']);
    expect(await selectOf(page, 'Filter operator').innerText()).toContain('is one of');
    await page.getByLabel('Filter values', { exact: true }).click();
    const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last().locator('.ant-select-item-option');
    await poll(async () => (await options.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))).toEqual(['solved 5', 'open 4', 'closed 3', 'pending 2', 'new 1', 'hold 1']);
    await pickMore(page, 'Filter values', 'pending');
    await poll(preview).toBe('7');
    await h.shot('widget-editor-one-of');
    // "is" keeps the first value; back to "is one of" starts from it.
    await pick(page, 'Filter operator', 'is', true);
    expect(await editor.getByLabel('Filter value', { exact: true }).inputValue()).toBe('open');
    await poll(preview).toBe('4');
    await pick(page, 'Filter operator', 'is one of', true);
    expect(await picked(page, 'Filter values')).toEqual(['open']);
    await selectOf(page, 'Filter values').locator('.ant-select-selection-item-remove').click();
    await editor.getByText('Pick at least one value').waitFor();
    await editor.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await poll(preview).toBe('5');

    // The public dashboard counts each KPI's statuses, and follows an ingest live.
    await page.goto(`/dashboards/${d.id}`);
    const tile = (name: string) => page.locator('[data-testid=widget]').filter({ has: page.getByTestId('widget-title').getByText(name, { exact: true }) }).getByTestId('kpi-value');
    await poll(() => tile('Closed').getAttribute('data-value')).toBe('8');
    expect([await tile('Open').getAttribute('data-value'), await tile('In progress').getAttribute('data-value')]).toEqual(['5', '3']);
    await h.shot('template-values-dashboard');
    const ingested = await h.server.http('POST', '/api/data/ingest', { body: { sourceId: zendeskSourceId, records: [{ id: 500, subject: 'Zendesk ticket 1', status: 'Hold', priority: 'urgent', created_at: new Date().toISOString() }] } });
    expect(ingested.status).toBe(200);
    // Ticket 500 was solved and is now on hold (any case): Closed 7, In progress 4.
    await poll(() => tile('In progress').getAttribute('data-value')).toBe('4');
    expect([await tile('Open').getAttribute('data-value'), await tile('Closed').getAttribute('data-value')]).toEqual(['5', '7']);
  });

  it('makes an alert from a KPI ("Alert on this number") and the public tile turns red with a bell while it fires', async () => {
    const { page } = h;
    const ds = (await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Queue waits', primaryKey: 'id' } })).body;
    expect((await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 1, wait: 4 }] } })).status).toBe(200);
    const tabs = [{ id: 'main', name: 'Main', widgets: [{ id: 'wait', name: 'Longest wait', type: 'kpi', configuration: { metric: 'max', valueField: 'wait' }, layout: { x: 0, y: 0, w: 4, h: 2 } }] }];
    const d = (await h.server.http('POST', '/api/admin/dashboards', { body: { name: 'Waits', dataSourceId: ds.id, isPublished: true, configuration: { tabs } } })).body;
    await page.goto(`/admin?tab=dashboard-builder&sub=widgets&dashboard=${d.id}`);
    const card = page.locator('[data-testid=builder-widget][data-widget-id=wait]');
    await poll(() => card.getByTestId('kpi-value').getAttribute('data-value')).toBe('4');
    await card.getByRole('button', { name: 'Edit Longest wait', exact: true }).click();
    await page.getByTestId('widget-editor').getByRole('button', { name: 'Alert on this number' }).click();
    const form = page.getByTestId('alert-form');
    expect(await form.getByLabel('Alert name').inputValue()).toBe('Longest wait');
    await form.getByLabel('Threshold').fill('30');
    await h.shot('alert-on-this-number');
    await form.getByRole('button', { name: 'Create alert' }).click();
    await toast(page, 'Alert created');

    await page.goto(`/dashboards/${d.id}`);
    const tile = page.locator('[data-testid=widget]', { hasText: 'Longest wait' });
    await poll(() => tile.getAttribute('data-alert-state')).toBe('ok');
    expect((await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2, wait: 45 }] } })).status).toBe(200);
    await poll(() => tile.getAttribute('data-alert-state')).toBe('firing');
    expect(await tile.getByTestId('alert-bell').innerText()).toMatch(/since \d\d:\d\d/);
    await h.shot('alert-tile-firing');
    expect((await h.server.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2, wait: 5 }] } })).status).toBe(200);
    await poll(() => tile.getAttribute('data-alert-state')).toBe('ok');

    // The Alerts screen lists it with its state and last value.
    await page.goto('/admin?tab=published-dashboards&sub=alerts');
    const row = page.locator('[data-testid=alerts-screen] tr', { hasText: 'Longest wait' });
    await poll(() => row.getByTestId('alert-state').innerText()).toBe('OK');
    const rule = async () => ((await h.server.http('GET', '/api/admin/alerts')).body as { name: string; condition: { value: number }; mutedUntil: string | null; widget: { dashboardId: string } | null }[]).find((a) => a.widget?.dashboardId === d.id)!;

    // Edit: another name and threshold, saved.
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByTestId('alert-form');
    expect(await edit.getByLabel('Threshold').inputValue()).toBe('30');
    await edit.getByLabel('Alert name').fill('Longest wait (raised)');
    await edit.getByLabel('Threshold').fill('40');
    await edit.getByRole('button', { name: 'Save' }).click();
    const edited = page.locator('[data-testid=alerts-screen] tr', { hasText: 'Longest wait (raised)' });
    await edited.waitFor();
    expect(await rule()).toMatchObject({ name: 'Longest wait (raised)', condition: { value: 40 } });

    // Mute until an hour from now: the rule keeps the moment, the list shows it.
    await edited.getByRole('button', { name: 'Mute…' }).click();
    await page.getByRole('menuitem', { name: 'Mute for 1 hour' }).click();
    await toast(page, 'Alert muted');
    const until = Date.parse((await rule()).mutedUntil ?? '') - Date.now();
    expect(until).toBeGreaterThan(55 * 60_000);
    expect(until).toBeLessThanOrEqual(60 * 60_000);
    await poll(() => edited.locator('td').nth(5).innerText()).not.toBe('—');

    // History: the two changes the tile went through.
    await edited.getByRole('button', { name: 'History' }).click();
    const drawer = page.getByTestId('alert-history');
    await drawer.getByText('History of Longest wait (raised)').waitFor();
    await poll(() => drawer.getByText('firing → ok').count()).toBe(1);
    expect(await drawer.getByText('ok → firing').count()).toBe(1);
    await h.shot('alert-history');
  });
});
