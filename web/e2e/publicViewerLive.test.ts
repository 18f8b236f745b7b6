import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUCKET_TAB, RECORDS, TABLE_TAB, col, cuttableSocket, firstColumn, ingest as ingestFor, seed as seedFor, usePublicBrowser } from './publicFixtures';

const h = usePublicBrowser();
const seed = (tabs: unknown[], name?: string) => seedFor(h, tabs, { name });
const ingest = (sourceId: string, records: unknown[]) => ingestFor(h, sourceId, records);

describe('bucket view', () => {
  it('groups by the bucket key with counts, labels display keys and colours borders by the first matching rule', async () => {
    const { id, ds } = await seed([BUCKET_TAB, { id: 'b2', name: 'Ids only', style: 'bucket', configuration: { bucketKey: 'priority' }, widgets: [] }, { id: 'b3', name: 'No key', style: 'bucket', configuration: {}, widgets: [] }]);
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await page.getByTestId('bucket-group').first().waitFor();
    await ingest(ds.sourceId, [{ ticket_id: 6, subject: 'Second open', status: 'open', priority: 'none' }]);
    await page.getByText('Second open').waitFor();
    // Groups by title (the default order), "Unassigned" last.
    expect(await page.getByTestId('bucket-title').allInnerTexts()).toEqual(['closed', 'in progress', 'open', 'waiting', 'Unassigned']);
    // The count badge rolls its digits when a count changes: read its title, not its text.
    const counts = await page.getByTestId('bucket-group').evaluateAll((groups) => groups.map((g) => g.querySelector('.ant-badge [title]')!.getAttribute('title')));
    expect(counts).toEqual(['1', '1', '2', '1', '1']);
    // First matching rule's colour; "urgent" matches a rule coloured "teal" and no rule matches "none": both gray.
    const colors = await page.getByTestId('bucket-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-color')));
    expect(colors).toEqual(['yellow', 'purple', 'red', 'gray', 'gray', 'purple']);
    const borders = await page.getByTestId('bucket-card').evaluateAll((cards) => cards.map((c) => getComputedStyle(c).borderTopColor));
    expect(new Set(borders).size).toBe(4);
    const first = await page.getByTestId('bucket-card').first().innerText();
    expect(first).toContain('Subject:');
    expect(first).toContain('Login broken');
    expect(first).toContain('missing_field:');
    expect(first).toContain('N/A');
    await h.shot('public-viewer-bucket');

    // As many columns of at least the Bucket Width (300) as fit: four at 1366 px (no cap of three),
    // three at 1024×768, two on a tablet, one on a phone.
    const columns = () => page.getByTestId('bucket-group').evaluateAll((gs) => new Set(gs.map((g) => Math.round(g.getBoundingClientRect().left))).size);
    for (const [width, n] of [[1366, 4], [1024, 3], [800, 2], [390, 1]]) {
      await page.setViewportSize({ width, height: 768 });
      await page.waitForFunction((count) => new Set([...document.querySelectorAll('[data-testid=bucket-group]')].map((g) => Math.round(g.getBoundingClientRect().left))).size === count, n);
      expect(await columns(), `${width} px`).toBe(n);
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    await page.getByRole('tab', { name: 'Ids only' }).click();
    await page.getByText('Record ID: 1').waitFor();
    await page.getByRole('tab', { name: 'No key' }).click();
    await page.getByText('No Bucket Key Configured').waitFor();
    expect(await page.getByText('Configure a bucket key to group records.').isVisible()).toBe(true);
  });
});

describe('export and live updates', () => {
  it('downloads the current tab as "<dashboard name> - <tab>.csv", and says so when it fails', async () => {
    const { id } = await seed([TABLE_TAB, BUCKET_TAB], 'Queue: Ünïcode & more');
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await page.getByTestId('table-row').first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`Queue_ Ünïcode & more - ${TABLE_TAB.name}.csv`);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toContain('Subject');
    expect(lines).toHaveLength(RECORDS.length + 1);
    expect(csv).toContain('Printer on fire');

    // The current tab is what gets exported.
    await page.getByRole('tab', { name: 'By Status' }).click();
    const [request] = await Promise.all([page.waitForRequest((r) => r.url().includes('/export')), page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(new URL(request.url()).searchParams.get('tab')).toBe('tab2');

    // A name with nothing usable for a file name falls back to "dashboard".
    const odd = await seed([{ ...TABLE_TAB, name: '???' }], '???');
    await page.goto(`/dashboards/${odd.id}`);
    await page.getByTestId('table-row').first().waitFor();
    const [fallback] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(fallback.suggestedFilename()).toBe('dashboard.csv');

    // The full export comes from the server: a failure there says so.
    await page.route('**/export**', (route) => route.fulfill({ status: 500, body: 'nope' }));
    await page.getByRole('button', { name: 'More export options' }).click();
    await page.getByRole('menuitem', { name: 'Export all records' }).click();
    await page.getByText('Failed to export dashboard').waitFor();
    await page.unroute('**/export**');
  });

  it('applies pushed records in place, keeps filter and sort (also across a tab switch), and switches to Not Found when unpublished', async () => {
    const { id, ds } = await seed([TABLE_TAB, BUCKET_TAB]);
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await page.getByText('Live • Updates every 30s').waitFor();
    await page.getByTestId('table-row').first().waitFor();
    await page.getByPlaceholder('Filter records...').fill('open');
    await page.getByRole('columnheader', { name: 'ticket_id' }).click();
    await page.getByRole('columnheader', { name: 'ticket_id' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=table-row]').length === 1);
    // Mark a row so we can tell whether it was replaced (a refetch/remount would drop the mark).
    await page.locator('[data-record-id="1"]').evaluate((el) => el.setAttribute('data-mark', 'kept'));

    await ingest(ds.sourceId, [{ ticket_id: 9, subject: 'Brand new', status: 'open', priority: 'high' }, { ticket_id: 2, subject: 'Login broken', status: 'open', priority: 'medium' }]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=table-row]').length === 3);
    const ids = await page.getByTestId('table-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-record-id')));
    expect(ids).toEqual(['9', '2', '1']);
    expect(await page.locator('[data-record-id="1"]').getAttribute('data-mark')).toBe('kept');
    expect(await page.getByPlaceholder('Filter records...').inputValue()).toBe('open');

    await page.getByRole('tab', { name: 'By Status' }).click();
    await page.getByTestId('bucket-group').first().waitFor();
    expect(await page.getByTestId('bucket-title').allInnerTexts()).toEqual(['in progress', 'open', 'waiting', 'Unassigned']);

    // The table's tab is hidden now (kept mounted, paused): a record pushed meanwhile shows when it is back, filter and sort kept.
    await ingest(ds.sourceId, [{ ticket_id: 10, subject: 'While away', status: 'open', priority: 'low' }]);
    await page.getByText('While away').waitFor();
    await page.getByRole('tab', { name: TABLE_TAB.name }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=table-row]').length === 4);
    expect(await page.getByTestId('table-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-record-id')))).toEqual(['10', '9', '2', '1']);
    expect(await page.getByPlaceholder('Filter records...').inputValue()).toBe('open');

    await h.server.http('PATCH', `/api/admin/dashboards/${id}`, { body: { isPublished: false } });
    await page.getByText('Dashboard Not Found').waitFor({ timeout: 5000 });
  });
});

describe('scrolling', () => {
  it('keeps the scroll position and renders only the rows in view while records arrive', async () => {
    const { id, ds } = await seed([TABLE_TAB]);
    await ingest(ds.sourceId, Array.from({ length: 300 }, (_, i) => ({ ticket_id: 1000 + i, subject: `Bulk ${i}`, status: 'open', priority: 'low' })));
    const { page } = h;
    await page.goto(`/dashboards/${id}`);
    await page.getByText(`${RECORDS.length + 300} records`).waitFor();
    expect(await page.getByTestId('table-row').count()).toBeLessThan(60);
    const table = page.getByTestId('records-table');
    await table.evaluate((el) => (el.scrollTop = 4000));
    await page.locator('[data-record-id="1100"]').waitFor();
    await ingest(ds.sourceId, [{ ticket_id: 1100, subject: 'Bulk 100 changed', status: 'closed', priority: 'high' }, { ticket_id: 5000, subject: 'Newest', status: 'open', priority: 'low' }]);
    await page.getByText('Bulk 100 changed').waitFor();
    await page.getByText(`${RECORDS.length + 301} records`).waitFor();
    expect(await table.evaluate((el) => el.scrollTop)).toBe(4000);
  });
});

describe('30 s refetch', () => {
  it('brings back a dashboard that is published again, and picks up label changes that are not pushed', async () => {
    const { id, ds } = await seed([TABLE_TAB]);
    const { page } = h;
    await page.clock.install();
    await page.goto(`/dashboards/${id}`);
    await page.getByTestId('table-row').first().waitFor();
    await h.server.http('PATCH', `/api/admin/dashboards/${id}`, { body: { isPublished: false } });
    await page.getByText('Dashboard Not Found', { exact: true }).waitFor();
    await h.server.http('PATCH', `/api/admin/dashboards/${id}`, { body: { isPublished: true } });
    await h.server.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { keyMappings: { subject: 'Ticket Subject' } } });
    await page.clock.fastForward(30_000);
    await page.getByRole('columnheader', { name: 'Ticket Subject' }).waitFor();
    // Back in the room: pushes arrive again.
    await ingest(ds.sourceId, [{ ticket_id: 77, subject: 'After republish', status: 'open', priority: 'low' }]);
    await page.getByText('After republish').waitFor();
  });
});

describe('connection loss', () => {
  it('shows Reconnecting… while the socket is down, then refetches what it missed and goes Live again', async () => {
    const { id, ds } = await seed([TABLE_TAB]);
    const { page } = h;
    const socket = await cuttableSocket(h);
    await page.goto(`/dashboards/${id}`);
    await page.getByText('Live • Updates every 30s').waitFor();
    await page.getByTestId('table-row').first().waitFor();

    await socket.cut(id);
    await page.getByText('Reconnecting…').waitFor();
    await ingest(ds.sourceId, [{ ticket_id: 42, subject: 'Missed while offline', status: 'open', priority: 'low' }]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.getByText('Missed while offline').count()).toBe(0);

    socket.restore();
    // A refused handshake leaves socket.io waiting for its 20 s connect timeout before it retries.
    await page.getByText('Live • Updates every 30s').waitFor({ timeout: 45_000 });
    await page.getByText('Missed while offline').waitFor({ timeout: 5_000 });
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  }, 90_000);
});

describe('first connection', () => {
  it('says "Live • Updates every 30s", not Reconnecting…, while the socket is still connecting', async () => {
    const { id } = await seed([TABLE_TAB]);
    // A page of its own, so the hanging socket routes end with it.
    const page = await h.context.newPage();
    try {
      // The handshake never completes: the socket stays "connecting" for its 20 s timeout.
      await page.routeWebSocket(/\/socket\.io\//, () => {});
      await page.route(/\/socket\.io\//, (route) => route.abort());
      await page.goto(`/dashboards/${id}`);
      await page.getByTestId('table-row').first().waitFor();
      await page.waitForTimeout(500);
      expect(await page.getByTestId('live-indicator').innerText()).toBe('Live • Updates every 30s');
    } finally {
      await page.close();
    }
  });
});

describe('phone width', () => {
  it('renders the viewer at 390×844', async () => {
    const { id } = await seed([TABLE_TAB, BUCKET_TAB]);
    await h.page.setViewportSize({ width: 390, height: 844 });
    await h.page.goto(`/dashboards/${id}`);
    await h.page.getByTestId('table-row').first().waitFor();
    const overflow = await h.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await h.shot('public-viewer-phone');
    await h.page.getByRole('tab', { name: 'By Status' }).click();
    await h.page.getByTestId('bucket-card').first().waitFor();
    await h.shot('public-viewer-bucket-phone');
  });
});

const TIME_TAB = { id: 'tab1', name: 'Events', style: 'table', configuration: { sortable: true, filterable: true, columns: [col('name', 0), col('at', 1)] }, widgets: [] };

describe('viewer: a source with a time field', () => {
  it('shows the newest records first when no column is sorted, pushed records included', async () => {
    const records = [
      { name: 'second', at: '2024-01-02T00:00:00Z' },
      { name: 'fourth', at: '2024-01-04T00:00:00Z' },
      { name: 'first', at: '2024-01-01T00:00:00Z' },
      { name: 'third', at: 1_704_240_000 }, // 2024-01-03, epoch seconds
    ];
    const { id, ds } = await seedFor(h, [TIME_TAB], { records });
    expect((await h.server.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body: { timeField: 'at' } })).status).toBe(200);
    await h.page.goto(`/dashboards/${id}`);
    await h.page.getByTestId('table-row').first().waitFor();
    await h.page.waitForFunction(() => document.querySelectorAll('[data-testid="table-row"]').length === 4);
    expect(await firstColumn(h)).toEqual(['fourth', 'third', 'second', 'first']);
    await ingest(ds.sourceId, [{ name: 'fifth', at: '2024-01-05T00:00:00Z' }]);
    await h.page.waitForFunction(() => document.querySelectorAll('[data-testid="table-row"]').length === 5);
    expect(await firstColumn(h)).toEqual(['fifth', 'fourth', 'third', 'second', 'first']);
  });
});
