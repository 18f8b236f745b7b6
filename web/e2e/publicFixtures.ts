import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startBrowser, type BrowserHarness } from './browser';

/** The viewport every public test starts from (phone tests set their own). */
export const DESKTOP = { width: 1366, height: 900 };

/**
 * Registers the suite's hooks: one server (serving the WEB_DIST build) and chromium per file, an
 * empty database and the desktop viewport before each test. The returned harness is filled in by
 * beforeAll, so use it inside tests only.
 */
export function usePublicBrowser(): BrowserHarness {
  const h = {} as BrowserHarness;
  beforeAll(async () => {
    // The harness's server ignores WEB_DIST from the environment: pass it on so it serves this build.
    Object.assign(h, await startBrowser({ env: { WEB_DIST: process.env.WEB_DIST ?? 'dist/web' } }));
  });
  afterAll(() => h.close?.());
  beforeEach(async () => {
    await h.server.reset();
    await h.page.setViewportSize(DESKTOP);
    // Below the 30 s test timeout, so a failure names the step that waited.
    h.page.setDefaultTimeout(15_000);
  });
  // A rare failure under full-suite load: leave what the page showed in the CI log.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    const text = await h.page.locator('body').innerText().catch(() => '(no page)');
    console.log(`[public e2e failure] url=${h.page.url()}\n${text.slice(0, 1500)}`);
  });
  return h;
}

const LONG = 'x'.repeat(130);

/**
 * Five support tickets that cover the cell rules: every status and priority badge colour (with a
 * value outside the palette and an empty status), an object, arrays, a 130-character text, an
 * empty string and a custom field.
 */
export const RECORDS = [
  { ticket_id: 1, subject: 'Printer on fire', status: 'open', priority: 'high', meta: { a: 1, b: 'two', c: [1, 2, 3], d: 'a fairly long string value here' }, tags: ['a', 'b', 'c'], notes: LONG, custom_fields: [{ id: 77, value: 'email' }], assignee: 'Ada' },
  { ticket_id: 2, subject: 'Login broken', status: 'closed', priority: 'medium', meta: null, tags: [], notes: '', custom_fields: [{ id: 77, value: 'chat' }] },
  { ticket_id: 3, subject: 'Slow export', status: 'in progress', priority: 'low', meta: {}, tags: ['x'], notes: 'short', custom_fields: [] },
  { ticket_id: 4, subject: 'Weird status', status: 'waiting', priority: 'urgent', meta: {}, tags: [], notes: 'n', custom_fields: [] },
  { ticket_id: 5, subject: 'No status yet', status: '', priority: 'low', meta: {}, tags: [], notes: 'n', custom_fields: [] },
];

/** A visible table column setting. */
export const col = (name: string, order: number) => ({ name, visible: true, width: 150, order });

/** A table tab over every kind of field, with one hidden column. */
export const TABLE_TAB = {
  id: 'tab1', name: 'All Tickets', style: 'table',
  configuration: { sortable: true, filterable: true, columns: [col('ticket_id', 0), col('subject', 1), col('status', 2), col('priority', 3), col('meta', 4), col('tags', 5), col('notes', 6), col('custom_77', 7), { ...col('hidden', 8), visible: false }] },
  widgets: [],
};

/** A bucket tab by status; "urgent" matches a rule whose colour is outside the palette (gray). */
export const BUCKET_TAB = {
  id: 'tab2', name: 'By Status', style: 'bucket',
  configuration: {
    bucketKey: 'status', displayKeys: ['subject', 'priority', 'missing_field'],
    highlightRules: [
      { key: 'priority', value: 'high', color: 'red' }, { key: 'priority', value: 'medium', color: 'yellow' },
      { key: 'priority', value: 'low', color: 'purple' }, { key: 'priority', value: 'urgent', color: 'teal' },
    ],
  },
  widgets: [],
};

/** Field labels of the seeded data source. */
export const KEY_MAPPINGS = { subject: 'Subject', custom_77: 'Channel' };

/**
 * Creates a data source holding `records` (default RECORDS) and a dashboard with these tabs over it,
 * published unless told otherwise.
 */
export async function seed(h: BrowserHarness, tabs: unknown[], opts: { name?: string; publish?: boolean; records?: unknown[] } = {}) {
  const ds = (await h.server.http('POST', '/api/admin/data-sources', { body: { name: 'Tickets' } })).body as { id: string; sourceId: string };
  const records = opts.records ?? RECORDS;
  if (records.length) await ingest(h, ds.sourceId, records);
  await h.server.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { keyMappings: KEY_MAPPINGS } });
  const res = await h.server.http('POST', '/api/admin/dashboards', {
    body: { name: opts.name ?? 'Support Board', description: 'Tickets live', dataSourceId: ds.id, isPublished: opts.publish ?? true, configuration: { tabs } },
  });
  expect(res.status).toBe(201);
  // Creating with no tabs gives a default tab: an empty list has to be patched in.
  if (tabs.length === 0) await h.server.http('PATCH', `/api/admin/dashboards/${res.body.id}`, { body: { configuration: { tabs: [] } } });
  return { id: res.body.id as string, ds };
}

/** Ingests records into a data source with the admin token. */
export const ingest = (h: BrowserHarness, sourceId: string, records: unknown[]) => h.server.http('POST', '/api/data/ingest', { body: { sourceId, records } });

/** A dashboard with no tabs of its own data source, for the public list. */
export async function listedDashboard(h: BrowserHarness, name: string, isPublished: boolean) {
  const ds = await h.server.http('POST', '/api/admin/data-sources', { body: { name: `${name} source` } });
  const res = await h.server.http('POST', '/api/admin/dashboards', { body: { name, description: `${name} description`, dataSourceId: ds.body.id, isPublished } });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

/** Clicks something that opens a new tab and returns the new tab's path and query. */
export async function newTabPath(h: BrowserHarness, click: () => Promise<void>) {
  const [popup] = await Promise.all([h.context.waitForEvent('page'), click()]);
  await popup.waitForLoadState();
  const url = new URL(popup.url());
  await popup.close();
  return url.pathname + url.search;
}

/** The first cell's text of every rendered table row, top to bottom. */
export const firstColumn = (h: BrowserHarness) =>
  h.page.getByTestId('table-row').evaluateAll((rows) => rows.map((r) => (r.querySelector('[role=cell]') as HTMLElement).innerText));

/** The accumulated layout-shift score of the page so far (install with trackLayoutShift before goto). */
export const layoutShift = (h: BrowserHarness) => h.page.evaluate(() => (window as unknown as { __cls: number }).__cls);

/** Starts recording layout shifts on every page load (not those right after user input). */
export async function trackLayoutShift(h: BrowserHarness) {
  await h.page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * Visible texts on the page whose colour contrast with their background is under WCAG AA (4.5:1,
 * or 3:1 for large text), as "ratio size "text"". Texts over a gradient or image, and disabled
 * controls (exempt in WCAG), are skipped.
 */
export function lowContrastTexts(h: BrowserHarness): Promise<string[]> {
  return h.page.evaluate(async () => {
    // Let colour transitions (e.g. a button turning enabled) end; endless ones (pulsing dots) are left.
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    type Rgba = { r: number; g: number; b: number; a: number };
    const parse = (c: string): Rgba => {
      const [r, g, b, a = 1] = (c.match(/[\d.]+/g) ?? []).map(Number);
      return { r, g, b, a };
    };
    const over = (top: Rgba, under: Rgba): Rgba => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
    const lum = ({ r, g, b }: Rgba) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element): Rgba | null => {
      const layers: Rgba[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.backgroundImage !== 'none') return null;
        const c = parse(cs.backgroundColor);
        if (c.a > 0) layers.push(c);
        if (c.a >= 1) break;
      }
      return layers.reverse().reduce((acc, l) => over(l, acc), { r: 255, g: 255, b: 255, a: 1 });
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('').trim();
      if (!text || !el.getClientRects().length || el.closest('[disabled], [aria-disabled="true"]')) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || Number(cs.opacity) === 0) continue;
      const bg = background(el);
      if (!bg) continue;
      const fg = over(parse(cs.color), bg);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const ratio = (hi + 0.05) / (lo + 0.05);
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (Number(cs.fontWeight) >= 700 && size >= 18.66);
      if (ratio < (large ? 3 : 4.5)) out.push(`${ratio.toFixed(2)} ${size}px "${text.slice(0, 40)}"`);
    }
    return out;
  });
}

/**
 * Routes the page's Socket.IO traffic so a test can cut it: `cut(dashboardId)` waits until the
 * page's socket is in the dashboard's room ("Live" also shows while a first connection is still
 * being made), then closes it and refuses new connections; `restore()` lets them through again.
 */
export async function cuttableSocket(h: BrowserHarness) {
  let down = false;
  const open: { close(): Promise<void> }[] = [];
  await h.page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (down) return void ws.close();
    ws.connectToServer();
    open.push(ws);
  });
  await h.page.route(/\/socket\.io\//, (route) => (down ? route.abort() : route.continue()));
  return {
    async cut(dashboardId: string) {
      await expect.poll(async () => (await h.server.app.realtime.io.in(`dashboard:${dashboardId}`).fetchSockets()).length, { timeout: 15_000 }).toBe(1);
      down = true;
      await Promise.all(open.splice(0).map((ws) => ws.close()));
    },
    restore() {
      down = false;
    },
  };
}
