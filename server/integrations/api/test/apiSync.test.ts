import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IntegrationDto } from '@common/schemas/integration';
import { RECORD_MAX_BYTES } from '@common/constants';
import type { DomainEvents } from '../../../core/events';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createPull, pulledRecords, runs, syncAndWait, waitForIdle } from '../../test/pullKit';
import { makeItems, startUpstream, type Upstream } from './upstream';

/** Syncs of the HTTP API provider against a real API on loopback: every pagination style, incremental syncs, failures and resumes. */

let s: TestServer;
let up: Upstream;
beforeAll(async () => {
  up = await startUpstream({ items: 25, per: 10 });
  s = await startTestServer({
    OUTBOUND_ALLOWED_HOSTS: up.hostPort, ZENDESK_SCHEDULER_TICK_MS: '0', INTEGRATION_REQUEST_TIMEOUT_MS: '1500', ZENDESK_MAX_RETRY_AFTER_SECONDS: '2',
  });
});
afterAll(async () => Promise.all([s?.close(), up?.close()]));
beforeEach(async () => {
  await s.reset();
  up.items = makeItems(25);
  up.requests.length = 0;
  up.gzip = false;
});

const STYLES: { route: string; recordsPath?: string; pagination?: Record<string, unknown>; pages: number }[] = [
  { route: 'all', pages: 1 },
  { route: 'next-url', recordsPath: 'data.items', pagination: { type: 'next-url', path: 'links.next' }, pages: 3 },
  { route: 'link', pagination: { type: 'link-header' }, pages: 3 },
  { route: 'cursor', recordsPath: 'items', pagination: { type: 'cursor', param: 'after', path: 'meta.next_cursor' }, pages: 3 },
  // Page and offset end on the first empty page.
  { route: 'page', recordsPath: 'results', pagination: { type: 'page', param: 'page' }, pages: 4 },
  { route: 'offset', recordsPath: 'records', pagination: { type: 'offset', param: 'offset', limitParam: 'limit', limit: 10 }, pages: 4 },
];

const configOf = (style: (typeof STYLES)[number], more: Record<string, unknown> = {}) => ({
  url: `${up.url}/v1/${style.route}`, recordsPath: style.recordsPath, pagination: style.pagination, primaryKey: 'id', ...more,
});
const nextUrl = STYLES[1];
const stored = async (id: string) => (await s.app.ctx.conn.collection('integrations').findOne({ _id: new (await import('mongoose')).Types.ObjectId(id) })) as unknown as { cursor: any };
const get = async (id: string) => (await s.http<IntegrationDto>('GET', `/api/integrations/${id}`)).body;

function collect<K extends keyof DomainEvents>(name: K): { list: DomainEvents[K][]; off: () => void } {
  const list: DomainEvents[K][] = [];
  const off = s.app.ctx.events.on(name, (e) => list.push(e));
  return { list, off };
}

describe('HTTP API integration: syncs', () => {
  it('reads every item once under each pagination style, page by page, into its own INT_ data source', async () => {
    up.gzip = true; // compressed answers are read too
    for (const style of STYLES) {
      const it = await createPull(s, 'api', configOf(style), `Items by ${style.route}`);
      expect(it).toMatchObject({ type: 'api', status: 'active', config: { domain: `${up.hostPort}/v1/${style.route}` }, dataSourceId: null });
      const run = await syncAndWait(s, it.id);
      expect(run, style.route).toMatchObject({ status: 'succeeded', mode: 'full', trigger: 'manual', records: 25, pages: style.pages, rejected: 0, error: null });
      const after = await get(it.id);
      expect(after.sourceId).toBe(`INT_${it.id}`);
      expect(after.lastRun).toMatchObject({ id: run.id, status: 'succeeded', records: 25 });
      const records = await pulledRecords(s, after.sourceId!);
      expect(records.map((r) => r.id).sort((a, b) => Number(a) - Number(b))).toEqual(up.items.map((i) => i.id));
      expect(records.find((r) => r.id === 7)).toEqual(up.items[6]);
    }
    const sources = (await s.http('GET', '/api/data/sources')).body as { sourceId: string; primaryKey: string; name: string }[];
    expect(sources.filter((d) => d.sourceId.startsWith('INT_'))).toHaveLength(STYLES.length);
    expect(sources.every((d) => d.primaryKey === 'id')).toBe(true);
  });

  it('incremental: the largest value seen is the cursor, sent as the parameter next time; changed and new records are upserted, none duplicated', async () => {
    const it = await createPull(s, 'api', configOf(nextUrl, { incremental: { field: 'updated_at', param: 'since' } }));
    expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded', records: 25, mode: 'full' });
    expect((await stored(it.id)).cursor).toEqual({ since: up.items[24].updated_at });

    up.items[2] = { ...up.items[2], name: 'Renamed', updated_at: '2024-02-01T00:00:00.000Z' };
    up.items.push({ id: 26, name: 'Item 26', amount: 260, updated_at: '2024-02-02T00:00:00.000Z' });
    up.requests.length = 0;
    const second = await syncAndWait(s, it.id);
    // Item 25 again (the cursor's own value), item 3 changed, item 26 new.
    expect(second).toMatchObject({ status: 'succeeded', mode: 'incremental', records: 3, pages: 1 });
    expect(up.requests[0].query.get('since')).toBe(makeItems(25)[24].updated_at);
    const records = await pulledRecords(s, `INT_${it.id}`);
    expect(records).toHaveLength(26);
    expect(records.find((r) => r.id === 3)?.name).toBe('Renamed');
    expect((await stored(it.id)).cursor).toEqual({ since: '2024-02-02T00:00:00.000Z' });

    // {full: true} reads everything again from the beginning.
    up.requests.length = 0;
    expect(await syncAndWait(s, it.id, { full: true })).toMatchObject({ status: 'succeeded', mode: 'full', records: 26 });
    expect(up.requests[0].query.get('since')).toBeNull();
  });

  it('incremental without a parameter: the API sends everything, only records not older than the cursor land', async () => {
    const it = await createPull(s, 'api', configOf(STYLES[0], { incremental: { field: 'amount' } }));
    expect(await syncAndWait(s, it.id)).toMatchObject({ records: 25 });
    up.items.push({ id: 26, name: 'Item 26', amount: 9999, updated_at: '2024-03-01T00:00:00.000Z' });
    const second = await syncAndWait(s, it.id);
    expect(second).toMatchObject({ status: 'succeeded', records: 2 }); // 250 (the cursor) and 9999
    expect(up.requests.at(-1)!.query.get('amount')).toBeNull();
  });

  it('an upstream failure mid-run fails the run naming the page and the reason; the next sync resumes after the stored pages', async () => {
    const cases: [Parameters<Upstream['fail']>[2], RegExp][] = [
      [{ status: 502 }, new RegExp(`^page 2: HTTP 502 from ${up.hostPort}/v1/next-url: upstream trouble$`)],
      ['hang', new RegExp(`^page 2: no answer from ${up.hostPort}/v1/next-url within 1.5 s$`)],
      ['not-json', new RegExp(`^page 2: the answer from ${up.hostPort}/v1/next-url is not JSON \\(text/html, it begins "<!doctype html>`)],
      ['drop', new RegExp(`^page 2: the connection to ${up.hostPort}/v1/next-url dropped before the answer was complete$`)],
    ];
    for (const [failure, why] of cases) {
      await s.reset();
      const it = await createPull(s, 'api', configOf(nextUrl));
      up.fail('next-url', 2, failure);
      const failed = collect('sync.failed');
      const run = await syncAndWait(s, it.id);
      failed.off();
      expect(run, String(failure)).toMatchObject({ status: 'failed', records: 10, pages: 1 });
      expect(run.error).toMatch(why);
      expect(failed.list).toEqual([expect.objectContaining({ integrationId: it.id, isRunning: false, recordsProcessed: 10, pagesProcessed: 1, message: `Sync failed: ${run.error}` })]);
      expect((await get(it.id)).config.lastSyncErrors).toEqual([run.error]);
      expect(await pulledRecords(s, `INT_${it.id}`)).toHaveLength(10);

      up.requests.length = 0;
      const resumed = await syncAndWait(s, it.id);
      expect(resumed).toMatchObject({ status: 'succeeded', mode: 'incremental', records: 15, pages: 2 });
      // Page 1 is not read again.
      expect(up.requests.map((r) => r.query.get('page'))).toEqual(['2', '3']);
      expect(await pulledRecords(s, `INT_${it.id}`)).toHaveLength(25);
      expect((await stored(it.id)).cursor).toEqual({});
    }
  });

  it('429: Retry-After is waited out, a missing one backs off; a wait longer than allowed fails the page', async () => {
    const it = await createPull(s, 'api', configOf(nextUrl));
    up.rateLimit(2, '1');
    const progress = collect('sync.progress');
    expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded', records: 25 });
    progress.off();
    expect(progress.list.some((p) => p.progress.message === `Rate limited by ${up.hostPort}: waiting 1 s before retrying`)).toBe(true);
    up.rateLimit(1, null);
    expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded' });

    up.rateLimit(1, '600');
    const run = await syncAndWait(s, it.id);
    expect(run.status).toBe('failed');
    expect(run.error).toBe(`page 1: HTTP 429 from ${up.hostPort}/v1/next-url: asked to wait 600 s, longer than the 2 s a sync waits; the next sync tries again`);
  });

  it('records without the primary key, records too large and answers without the records array are rejected with a reason; the rest land', async () => {
    up.items.splice(12, 0, { name: 'no id', amount: 1, updated_at: '2024-01-01T00:00:00.000Z' } as never);
    up.items.splice(3, 0, { id: 999, name: 'huge', amount: 0, updated_at: '2024-01-01T00:00:00.000Z', blob: 'x'.repeat(RECORD_MAX_BYTES) });
    const it = await createPull(s, 'api', configOf(nextUrl));
    const run = await syncAndWait(s, it.id);
    expect(run).toMatchObject({ status: 'succeeded', records: 25, rejected: 2, pages: 3 });
    expect(run.rejections).toEqual([
      { page: 'page 1', index: 3, reason: expect.stringMatching(/^record is 4(\.0)? MB of text; the limit is 4(\.0)? MB per record$/) },
      { page: 'page 2', index: 3, reason: 'record has no primary key field "id"' },
    ]);
    expect(await pulledRecords(s, `INT_${it.id}`)).toHaveLength(25);

    const odd = await createPull(s, 'api', { url: `${up.url}/v1/not-array`, recordsPath: 'data.items' }, 'Odd');
    const oddRun = await syncAndWait(s, odd.id);
    expect(oddRun).toMatchObject({ status: 'succeeded', records: 0, rejected: 1 });
    expect(oddRun.rejections[0]).toEqual({ page: 'page 1', index: -1, reason: `recordsPath data.items is not an array in the answer from ${up.hostPort}/v1/not-array (found an object)` });
  });

  it('maxPages stops a run where it is (a note says so); the next sync goes on from there', async () => {
    const it = await createPull(s, 'api', configOf(STYLES[4], { maxPages: 2 }));
    const first = await syncAndWait(s, it.id);
    expect(first).toMatchObject({ status: 'succeeded', records: 20, pages: 2, notes: ['Stopped at maxPages (2): the next sync goes on after page 2'] });
    const second = await syncAndWait(s, it.id);
    expect(second).toMatchObject({ status: 'succeeded', records: 5, pages: 2, notes: [] });
    expect(await pulledRecords(s, `INT_${it.id}`)).toHaveLength(25);
    const history = await runs(s, it.id);
    expect(history.map((r) => r.id)).toEqual([second.id, first.id]);

    // The history keeps the last 100 runs: older ones go when a run ends.
    const old = Array.from({ length: 120 }, (_, i) => ({
      integrationId: it.id, startedAt: new Date(Date.UTC(2020, 0, 1, 0, i)), finishedAt: new Date(Date.UTC(2020, 0, 1, 0, i, 30)),
      status: 'succeeded', mode: 'incremental', trigger: 'auto', records: 0, pages: 0, rejected: 0, rejections: [], error: null, notes: [],
    }));
    await s.app.ctx.conn.collection('integration_runs').insertMany(old);
    const latest = await syncAndWait(s, it.id);
    const kept = await runs(s, it.id);
    expect(kept).toHaveLength(100);
    expect(kept.slice(0, 3).map((r) => r.id)).toEqual([latest.id, second.id, first.id]);
    expect(await s.app.ctx.conn.collection('integration_runs').countDocuments({ integrationId: it.id })).toBe(100);
  });

  it('the run time limit stops a run after the page under way (a note says so); the next sync goes on', async () => {
    const config = s.app.ctx.config as { INTEGRATION_RUN_MAX_SECONDS: number };
    const before = config.INTEGRATION_RUN_MAX_SECONDS;
    config.INTEGRATION_RUN_MAX_SECONDS = 1;
    try {
      const it = await createPull(s, 'api', configOf(nextUrl));
      up.rateLimit(1, '2'); // page 1 takes two seconds: past the limit once it is stored
      const first = await syncAndWait(s, it.id);
      expect(first).toMatchObject({ status: 'succeeded', records: 10, pages: 1, notes: ['Stopped at the run time limit (1 s): the next sync goes on after page 1'] });
      config.INTEGRATION_RUN_MAX_SECONDS = before;
      expect(await syncAndWait(s, it.id)).toMatchObject({ status: 'succeeded', records: 15, pages: 2, notes: [] });
    } finally {
      config.INTEGRATION_RUN_MAX_SECONDS = before;
    }
  });

  it('a second sync while one runs is refused (409); the status and events carry the counts of every provider', async () => {
    const it = await createPull(s, 'api', configOf(nextUrl));
    up.fail('next-url', 2, 'hang');
    const progress = collect('sync.progress');
    expect((await s.http('POST', `/api/integrations/${it.id}/sync`, { body: {} })).status).toBe(202);
    const again = await s.http('POST', `/api/integrations/${it.id}/sync`, { body: {} });
    expect(again.status).toBe(409);
    await waitForIdle(s, it.id);
    expect((await runs(s, it.id))[0].status).toBe('failed');
    const done = await syncAndWait(s, it.id);
    progress.off();
    expect(done.status).toBe('succeeded');
    expect(progress.list.some((p) => p.isRunning && p.recordsProcessed === 10 && p.pagesProcessed === 1 && p.progress.message === 'Read page 1: 10 records in 1 page so far')).toBe(true);
    const status = (await s.http('GET', `/api/integrations/${it.id}/sync-status`)).body;
    expect(status).toMatchObject({ isRunning: false, recordsProcessed: 15, pagesProcessed: 2, progress: { progress: 100 } });
    expect(status).not.toHaveProperty('ticketsProcessed');
  });
});
