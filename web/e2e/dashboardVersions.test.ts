import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { addPerson, type Person } from '../../server/test/people';
import type { BrowserHarness } from './browser';
import { sharedBrowser } from './browser';
import { pickOption, seedSource, signIn, startAdminBrowser, toast } from './adminHelpers';

/** A condition polled for up to 10 s (the machine is shared). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

// Two editors on one dashboard (the test admin here, an editor in a second browser), its history
// and its file: three page loads in all.
describe('dashboard versions in the console', () => {
  let h: BrowserHarness;
  let editor: Person;
  let other: BrowserContext;
  let dashboardId = '';
  const current = async () => (await h.server.http('GET', `/api/admin/dashboards/${dashboardId}`)).body;
  const editorUrl = () => `/admin?tab=dashboard-builder&sub=configure&dashboard=${dashboardId}`;

  beforeAll(async () => {
    h = await startAdminBrowser();
    const ds = await seedSource(h, 'Sales', [{ id: 1, region: 'North', revenue: 120 }, { id: 2, region: 'South', revenue: 80 }]);
    await seedSource(h, 'Support', [{ id: 1, status: 'open' }]);
    const created = await h.server.http('POST', '/api/admin/dashboards', {
      body: {
        name: 'Sales board', dataSourceId: ds.id,
        configuration: { tabs: [{ id: 't1', name: 'Overview', style: null, configuration: {}, widgets: [
          { id: 'w1', name: 'Revenue', type: 'kpi', configuration: { metric: 'sum', valueField: 'revenue' }, layout: { x: 0, y: 0, w: 4, h: 2 } },
        ] }] },
      },
    });
    expect(created.status).toBe(201);
    dashboardId = created.body.id;
    // The test admin is the first account (signIn makes it), the editor is invited after.
    await signIn(h.page, editorUrl());
    editor = await addPerson(h.server, 'editor');
    other = await (await sharedBrowser()).newContext({ baseURL: h.server.url, reducedMotion: 'reduce', viewport: { width: 1366, height: 900 } });
    const [name, value] = editor.cookie.split('=');
    await other.addCookies([{ name, value, url: h.server.url }]);
  });
  afterAll(async () => {
    await other?.close().catch(() => {});
    await h?.close();
  });

  /** Renames the KPI in the open editor without saving: the draft the conflict must not lose. */
  async function renameKpi(page: Page, from: string, to: string) {
    const config = page.getByTestId('config-editor');
    await config.getByRole('button', { name: `Edit ${from}` }).click();
    const panel = page.getByTestId('widget-editor');
    await panel.getByLabel('Title').fill(to);
    await panel.getByRole('button', { name: 'Done' }).click();
    await panel.waitFor({ state: 'hidden' });
    await config.getByTestId('unsaved-tag').waitFor();
  }
  const kpiTitle = (page: Page) => page.getByTestId('config-editor').getByTestId('builder-widget').first().innerText();

  it('refuses the second of two editors\' saves, says who saved, shows what changed and keeps the typing until a choice', async () => {
    const { page } = h;
    await renameKpi(page, 'Revenue', 'Total revenue');

    // The other editor changes the description in their own browser and saves first.
    const theirs = await other.newPage();
    theirs.setDefaultTimeout(10_000);
    await theirs.goto('/admin?tab=dashboard-builder&sub=builder');
    // A first load of the console: on a busy machine it may take longer than a click's wait.
    await theirs.getByTestId('dashboard-list-item').filter({ hasText: 'Sales board' }).waitFor({ timeout: 30_000 });
    await theirs.getByTestId('dashboard-list-item').filter({ hasText: 'Sales board' }).click();
    const form = theirs.getByTestId('dashboard-form');
    await poll(() => form.getByLabel('Name').inputValue()).toBe('Sales board');
    await form.getByLabel('Description').fill('Revenue by region, live');
    await form.getByRole('button', { name: 'Update Dashboard' }).click();
    await toast(theirs, 'Dashboard Updated');
    await poll(async () => (await current()).description).toBe('Revenue by region, live');

    // Pushed to the first editor: the draft stays; its save (with what it is for) is refused and the dialog names the other editor.
    await page.getByTestId('config-editor').getByLabel('What changed (optional)').fill('Name the revenue KPI as finance does');
    await page.getByTestId('config-editor').getByRole('button', { name: 'Save widgets' }).click();
    const dialog = page.locator('.version-conflict .ant-modal');
    await dialog.waitFor();
    const who = (await editor.http('GET', '/api/auth/me')).body.user.name as string;
    expect(who).toMatch(/^editor/);
    expect(await dialog.locator('.ant-modal-title').innerText()).toBe(`${who} saved "Sales board" while you were editing`);
    expect(await dialog.innerText()).toContain('Your changes are still in the editor');
    await dialog.getByRole('button', { name: 'See what changed' }).click();
    await poll(() => dialog.getByTestId('diff-sentences').innerText()).toContain('Changed the description');
    await h.shot('versions-conflict-dialog');
    expect((await current()).configuration.tabs[0].widgets[0].name).toBe('Revenue');

    // Keep editing: the draft is there, unsaved.
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await kpiTitle(page)).toContain('Total revenue');
    await page.getByTestId('config-editor').getByTestId('unsaved-tag').waitFor();

    // Saved again, and this time over theirs: both changes stand (the save names the widgets, not the description).
    // What the save is for was kept through the refusal, and goes with it.
    expect(await page.getByTestId('config-editor').getByLabel('What changed (optional)').inputValue()).toBe('Name the revenue KPI as finance does');
    await page.getByTestId('config-editor').getByRole('button', { name: 'Save widgets' }).click();
    await dialog.getByRole('button', { name: 'Save mine over theirs' }).click();
    await toast(page, 'Your changes are saved');
    await poll(async () => (await current()).configuration.tabs[0].widgets[0].name).toBe('Total revenue');
    expect((await current()).description).toBe('Revenue by region, live');
    await page.getByTestId('config-editor').getByTestId('unsaved-tag').waitFor({ state: 'detached' });

    // Load theirs: a draft made on an older version is given up for the one now saved.
    await renameKpi(page, 'Total revenue', 'Mine');
    const now = await current();
    const renamed = await editor.http('PATCH', `/api/admin/dashboards/${dashboardId}`, { body: { configuration: { tabs: [{ ...now.configuration.tabs[0], widgets: [{ ...now.configuration.tabs[0].widgets[0], name: 'Theirs' }] }] } } });
    expect(renamed.status).toBe(200);
    await page.getByTestId('config-editor').getByRole('button', { name: 'Save widgets' }).click();
    await dialog.getByRole('button', { name: 'Load theirs' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => kpiTitle(page)).toContain('Theirs');
    await page.getByTestId('config-editor').getByTestId('unsaved-tag').waitFor({ state: 'detached' });
    expect((await current()).configuration.tabs[0].widgets[0].name).toBe('Theirs');
  }, 90_000); // a second browser's first load of the console and three rounds of the dialog, on a shared machine

  it('lists the history, shows what a version changed in words, and restores one after a confirmation', async () => {
    const { page } = h;
    const before = (await current()).version;
    await page.getByTestId('history-button').click();
    const history = page.getByTestId('version-history');
    const entries = history.getByTestId('version-entry');
    await poll(() => entries.count()).toBe(before);
    expect(await entries.first().innerText()).toContain(`Version ${before}`);
    expect(await entries.first().innerText()).toContain('Current');
    // The save over theirs: what it changed, in words.
    const overTheirs = entries.filter({ hasText: `Version ${before - 1}` });
    expect(await overTheirs.innerText()).toContain('"Name the revenue KPI as finance does"');
    await overTheirs.getByRole('button').first().click();
    await poll(() => overTheirs.getByTestId('diff-sentences').innerText()).toContain("Renamed the KPI 'Revenue' to 'Total revenue'");
    await overTheirs.getByRole('tab', { name: 'JSON' }).click();
    expect(await overTheirs.getByTestId('diff-json').innerText()).toContain('"w1"');
    await h.shot('versions-history');

    // Restore the first version: asked first, then a new version with its content.
    const first = entries.last();
    expect(await first.innerText()).toMatch(/^Version 1\b/);
    await first.getByRole('button').first().click();
    await first.getByTestId('restore-version').click();
    const confirm = page.locator('.ant-modal-confirm');
    await poll(() => confirm.innerText()).toContain(`saved as version ${before + 1}`);
    await confirm.getByRole('button', { name: 'Restore version 1' }).click();
    await toast(page, 'Version 1 restored');
    const restored = await current();
    expect(restored.version).toBe(before + 1);
    expect(restored.configuration.tabs[0].widgets[0].name).toBe('Revenue');
    expect(restored.description).toBe('');
    // The list follows: the restore is the newest entry, saying where it came from.
    await poll(() => entries.first().innerText()).toContain('Restored from 1');
    await poll(() => kpiTitle(page)).toContain('Revenue');
    await history.getByRole('button', { name: 'Close' }).click();
  });

  it('exports a dashboard as a file and imports it as a new draft; a source without its fields is refused by name', async () => {
    const { page } = h;
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('admin:navigate', { detail: { mainTab: 'dashboard-builder', subTab: 'builder' } })));
    const item = page.getByTestId('dashboard-list-item').filter({ hasText: 'Sales board' });
    const [download] = await Promise.all([page.waitForEvent('download'), item.getByRole('button', { name: 'Export Sales board' }).click()]);
    expect(download.suggestedFilename()).toBe('Sales board.dashboard.json');
    const file = await download.path();
    const definition = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(definition).toMatchObject({ schema: 'livedash.dashboard', schemaVersion: 1, name: 'Sales board' });
    expect(JSON.stringify(definition)).not.toContain(dashboardId);

    await page.getByRole('button', { name: 'Import from a file' }).click();
    const modal = page.locator('.import-dashboard .ant-modal');
    await modal.locator('input[type=file]').setInputFiles({ name: 'Sales board.dashboard.json', mimeType: 'application/json', buffer: fs.readFileSync(file) });
    await poll(() => modal.getByLabel('Name').inputValue()).toBe('Sales board');
    // Onto Support, which has no revenue field: refused, naming the widget and the field.
    await pickOption(page, 'Onto data source', 'Support');
    await modal.getByLabel('Name').fill('Sales copy');
    await modal.getByRole('button', { name: 'Import' }).click();
    await poll(() => modal.getByTestId('import-error').innerText()).toMatch(/Widget 'Revenue' uses the field revenue, which Support has not/);
    await h.shot('versions-import-refused');
    await pickOption(page, 'Onto data source', 'Sales');
    await modal.getByRole('button', { name: 'Import' }).click();
    await toast(page, 'Dashboard imported', '"Sales copy" is a new draft.');
    const all = (await h.server.http('GET', '/api/admin/dashboards')).body as { name: string; isPublished: boolean; configuration: unknown }[];
    const copy = all.find((d) => d.name === 'Sales copy');
    expect(copy?.isPublished).toBe(false);
    expect(copy?.configuration).toEqual((await current()).configuration);
    await page.getByTestId('dashboard-form').getByLabel('Name').waitFor();
    await poll(() => page.getByTestId('dashboard-form').getByLabel('Name').inputValue()).toBe('Sales copy');
  });
});
