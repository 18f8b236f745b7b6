import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { NAV, placeTitle } from '../src/admin/shell/nav';
import { signIn, startAdminBrowser } from './adminHelpers';
import type { BrowserHarness } from './browser';

// axe-core is served at a same-origin address the test answers itself: the app's CSP refuses inline
// scripts, which is what addScriptTag({ path }) would add.
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const AXE_URL = '/__axe-core.js';

interface Finding {
  screen: string;
  problems: string[];
}

/** The critical and serious axe violations of the page, and whether it has exactly one level-1 heading. */
async function audit(page: Page, screen: string): Promise<Finding> {
  // Lazy screens show a spinner or skeleton first; the audit reads the screen once it has drawn.
  await page.locator('.ant-spin-spinning, .ant-skeleton-active, [aria-busy=true]').first().waitFor({ state: 'detached', timeout: 5_000 }).catch(() => {});
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ url: AXE_URL });
  const violations = await page.evaluate(async () => {
    type Node = { target: string[]; any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }[] };
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string; nodes: Node[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    // A contrast failure names its colours: the fix is a theme token.
    const colours = (n: Node) => n.any.map((a) => (a.data?.fgColor ? ` (${a.data.fgColor} on ${a.data.bgColor}, ${a.data.contrastRatio}:1)` : '')).join('');
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ').slice(-90) + colours(n)) }));
  });
  const problems = violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.impact} ${v.id}: ${v.targets.join(' | ')}`);
  const h1 = await page.locator('h1').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null || getComputedStyle(e).position === 'fixed').length);
  if (h1 !== 1) problems.push(`${h1} visible level-1 headings`);
  return { screen, problems };
}

describe('accessibility (axe-core): the viewer, a share link, TV mode and every console screen', () => {
  let h: BrowserHarness;
  let dashboardId: string;
  let token: string;
  let nothing: string;
  let compared: string;
  beforeAll(async () => {
    h = await startAdminBrowser({ SEED_DEMO: 'true' });
    dashboardId = ((await h.server.http('GET', '/api/dashboards', { token: null })).body as { id: string }[])[0].id;
    // KPIs whose change is good and bad news (green and red small text), a split line with its legend, and a filter bar.
    const source = (await h.server.http('GET', '/api/data/sources')).body[0];
    const kpi = (id: string, better: string, x: number) => ({ id, name: `Tickets (${better} is better)`, type: 'kpi', configuration: { metric: 'count', dateField: 'created_at', range: { kind: 'relative', last: '30d' }, compare: true, sparkline: true, better }, layout: { x, y: 0, w: 4, h: 3 } });
    const widgets = [kpi('up', 'higher', 0), kpi('down', 'lower', 4), { id: 'line', name: 'By priority', type: 'line', configuration: { dateField: 'created_at', splitField: 'priority' }, layout: { x: 0, y: 3, w: 12, h: 5 } }];
    compared = (await h.server.http('POST', '/api/admin/dashboards', {
      body: { name: 'Compared', dataSourceId: source.id, isPublished: true, configuration: { filters: [{ id: 'p', kind: 'category', field: 'priority', label: 'Priority' }], tabs: [{ id: 'tab1', name: 'Overview', style: null, configuration: {}, widgets }] } },
    })).body.id;
    await h.context.route(`**${AXE_URL}`, (route) => route.fulfill({ path: AXE, contentType: 'text/javascript' }));
    token = (await h.server.http('POST', `/api/admin/dashboards/${dashboardId}/links`, { body: { label: 'Lobby' } })).body.token;
    const locked = { label: 'Nobody', filters: [{ field: 'priority', operator: 'eq', value: 'none' }] };
    nothing = (await h.server.http('POST', `/api/admin/dashboards/${dashboardId}/links`, { body: locked })).body.token;
  }, 60_000);
  afterAll(() => h?.close());

  it('has no critical or serious violations and one level-1 heading on each screen', async () => {
    const { page } = h;
    const findings: Finding[] = [];
    const visit = async (screen: string, url: string, ready: () => Promise<unknown>) => {
      await page.goto(url);
      await ready();
      findings.push(await audit(page, screen));
    };
    const chart = () => page.locator('[data-testid=widget] svg').first().waitFor();
    await visit('viewer', `/dashboards/${dashboardId}`, chart);
    await visit('share link', `/s/${token}`, chart);
    await visit('viewer with comparisons, a legend and a filter bar', `/dashboards/${compared}`, () => page.getByTestId('kpi-change').first().waitFor());
    await visit('TV mode', `/dashboards/${dashboardId}?tv=1`, chart);
    await visit('share link whose locks match nothing, TV mode', `/s/${nothing}?tv=1`, () => page.getByTestId('widget-empty').first().waitFor());
    await visit('sign-in', '/admin', () => page.getByTestId('setup-form').or(page.getByTestId('login-form')).first().waitFor());
    await signIn(page);
    // The console's screens in one page load: a history entry moves the router as the sidebar does.
    const screen = async (name: string, query: string, title: string, ready?: () => Promise<unknown>) => {
      await page.evaluate((url) => {
        history.pushState(null, '', url);
        dispatchEvent(new PopStateEvent('popstate'));
      }, `/admin?${query}`);
      await page.waitForFunction((t) => document.title.startsWith(t), title);
      await ready?.();
      findings.push(await audit(page, name));
    };
    for (const group of NAV) {
      for (const item of group.items) await screen(`${group.label} › ${item.label}`, `tab=${group.mainTab}&sub=${item.key}`, placeTitle(group.mainTab, item.key));
    }
    await screen('Configure (a dashboard open)', `tab=dashboard-builder&sub=configure&dashboard=${dashboardId}`, 'Configure', () => page.getByTestId('tab-strip').waitFor());
    // The Share dialog over Published Dashboards.
    await screen('Published Dashboards (for the Share dialog)', 'tab=published-dashboards&sub=public', 'Public Dashboards');
    await page.getByTestId('published-card').filter({ hasText: 'Support Overview' }).getByRole('button', { name: 'Share' }).click();
    await page.getByRole('dialog', { name: 'Share "Support Overview"' }).getByTestId('share-links').waitFor();
    findings.push(await audit(page, 'Share dialog'));
    const failing = findings.filter((f) => f.problems.length);
    if (failing.length) console.log(failing.map((f) => `${f.screen}\n  ${f.problems.join('\n  ')}`).join('\n'));
    expect(findings.length).toBeGreaterThan(20);
    expect(failing).toEqual([]);
  }, 300_000);

  it('says why a widget is empty: the share link locks, the filter bar, the widget filter', async () => {
    const { page } = h;
    const says = async () => {
      await page.getByTestId('widget-empty').first().waitFor();
      // What a card shows, without its data table (there for screen readers).
      return page.getByTestId('widget').evaluateAll((cards) =>
        cards.map((c) => (c as HTMLElement).innerText.replace((c.querySelector('table') as HTMLElement | null)?.innerText ?? '', '').replace(/\s+/g, ' ').trim()),
      );
    };
    await page.goto(`/s/${nothing}`);
    // The KPIs keep their 0 with the reason under it; the charts show the reason instead of empty axes.
    expect(await says()).toEqual([
      'Open 0 No records match: Status is one of open, Priority = none',
      'In progress 0 No records match: Status is one of in progress, Priority = none',
      'Closed 0 No records match: Status is one of closed, Priority = none',
      'Tickets by priority No records match: Priority = none',
      'Tickets per day No records match: Priority = none, in the last 30 days',
    ]);
  }, 60_000);
});
