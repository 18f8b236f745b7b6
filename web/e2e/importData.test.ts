import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHarness } from './browser';
import { pickOption, publishAndView, sidebar, signIn, startAdminBrowser } from './adminHelpers';

/** A real CSV nobody here wrote: 1,461 days of Seattle weather (vega-datasets), a date column first. */
const require = createRequire(import.meta.url);
const weatherCsv = path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data', 'seattle-weather.csv');

describe('Import Data', () => {
  let h: BrowserHarness;
  beforeAll(async () => {
    h = await startAdminBrowser();
    await signIn(h.page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('imports a 1,461-row CSV with a date column (dry run, then import with progress), opens a dashboard on it, and exports it back', async () => {
    const { page } = h;
    await sidebar(page, 'data-sources', 'import');
    const screen = page.getByTestId('import-screen');
    await screen.waitFor();
    expect(await page.title()).toBe('Import Data · LiveDash');
    await h.shot('import-1-file');

    // File: picked (the dragger's file input), uploaded once; settings detected.
    await screen.locator('input[type=file]').setInputFiles(weatherCsv);
    const columns = screen.getByTestId('import-columns');
    await columns.waitFor();
    expect(await screen.getByLabel('Delimiter').locator('xpath=ancestor::*[contains(@class,"ant-select")][1]').innerText()).toContain('Comma');
    const dateRow = columns.locator('tr', { hasText: 'date' }).first();
    expect(await dateRow.innerText()).toContain('Date & time');
    expect(await columns.locator('tr', { hasText: 'weather' }).first().innerText()).toContain('Category');
    await screen.getByTestId('import-preview').locator('tbody tr.ant-table-row').first().waitFor();
    await h.shot('import-2-columns');
    await screen.getByRole('button', { name: 'Next: target & key' }).click();

    // Target & key: a new source keyed by date.
    await screen.getByLabel('Name of the new data source').fill('Seattle weather');
    await pickOption(page, 'Key', 'date');
    await h.shot('import-3-target');
    await screen.getByRole('button', { name: 'Next: dry run' }).click();

    // Dry run: it runs as its step opens (the import button says why it waits meanwhile); 1,461 would be inserted, nothing written yet.
    const dry = screen.getByTestId('import-dry-run');
    await dry.waitFor();
    expect(await dry.innerText()).toMatch(/Would be inserted\s*1,461/);
    expect((await h.server.http('GET', '/api/data/sources')).body).toHaveLength(0);
    await h.shot('import-4-dry-run');

    // Import: progress seen (the running state, then done), every row written.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { importStates: string[] }).importStates = seen;
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="import-progress"]');
        if (el) seen.push(`${el.getAttribute('data-state')}: ${el.querySelector('[data-testid="import-progress-text"]')?.textContent ?? ''}`);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await screen.getByRole('button', { name: 'Import 1,461 rows' }).click();
    await screen.locator('[data-testid="import-progress"][data-state="done"]').waitFor({ timeout: 60_000 });
    expect(await screen.getByTestId('import-progress-text').innerText()).toBe('1,461 rows read · 1,461 written · 0 rejected');
    expect(await screen.getByTestId('import-result').innerText()).toContain('Imported 1,461 rows into the data source "Seattle weather"');
    const states = await page.evaluate(() => (window as unknown as { importStates: string[] }).importStates);
    expect(states.some((s) => s.startsWith('running:'))).toBe(true);
    // The new source's ingest key in full, once, with a copy button: the one the source now answers to.
    const next = screen.getByTestId('import-next-step');
    const key = await next.getByTestId('ingest-key-full').innerText();
    await next.getByRole('button', { name: 'Copy ingest key' }).waitFor();
    await next.getByTestId('ingest-key-once').waitFor();
    const created = ((await h.server.http('GET', '/api/data/sources')).body as { name: string; ingestKeyHint: string }[]).find((d) => d.name === 'Seattle weather')!;
    expect(created.ingestKeyHint).toBe(`${key.slice(0, 7)}…${key.slice(-4)}`);
    await h.shot('import-5-done');

    // A dashboard on it, published, opened: its rows are there.
    const viewer = await publishAndView(h, 'Seattle weather', 'Seattle weather');
    await viewer.getByTestId('table-row').first().waitFor();
    await h.shot('import-6-dashboard', viewer);
    // The date column reads as dates (typed on import), every row counted.
    await viewer.getByText('1,461 records').waitFor();
    await viewer.getByText('Jan 1, 2012', { exact: true }).first().waitFor();
    await viewer.close();

    // Exported back: the same 1,461 rows.
    await sidebar(page, 'data-sources', 'export');
    const exportScreen = page.getByTestId('export-screen');
    await exportScreen.waitFor();
    await pickOption(page, 'Data source', 'Seattle weather');
    const [csv] = await Promise.all([page.waitForEvent('download'), exportScreen.getByRole('button', { name: 'Export CSV' }).click()]);
    const lines = fs.readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    expect(lines).toHaveLength(1 + 1461);
    expect(lines[0].replace(/^\uFEFF/, '')).toBe('date,precipitation,temp_max,temp_min,wind,weather');
    await h.shot('import-7-exported');
  }, 180_000);
});
