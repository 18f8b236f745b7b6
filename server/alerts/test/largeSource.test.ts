import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Aggregator } from '@common/widgets/aggregate';
import { startTestServer, type TestServer } from '../../test/harness';
import { buildDashboard, buildLargeSource, buildSource, type BuiltSource } from '../../test/factories';
import { setSliceMs } from '../../core/slices';
import { SourceView } from '../../publicView/viewCache/sourceView';

/** mongoose's query cursor (what `find().cursor()` makes), whose `next` both passes of an export call per record. */
const QueryCursor = createRequire(import.meta.url)('mongoose/lib/cursor/queryCursor') as { prototype: object };

/*
 * Heavy rules and large sources never freeze the process: a rule's count of a source, a view's
 * build and a CSV export go in slices, so other requests are answered meanwhile — shown by asking
 * /livez in the middle of each (the slice length set to 0 here: a turn of the loop after every
 * record, so "in the middle" is certain) and seeing its answer before the work is done. And rules
 * are capped per data source and per team, with a 409 that says what to do.
 */

const RECORDS = 3_000;
const PER_SOURCE = 3;
const PER_TEAM = 7;
let s: TestServer;
let large: BuiltSource;
let dashboardId: string;

beforeAll(async () => {
  s = await startTestServer({ ALERT_MAX_RULES_PER_SOURCE: String(PER_SOURCE), ALERT_MAX_RULES: String(PER_TEAM) });
  const data = (i: number) => ({ id: `r${i}`, amount: (i * 7919) % 1_000, category: `c${i % 700}`, created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() });
  large = await buildLargeSource(s, RECORDS, data, { timeField: 'created_at', fieldTypes: { id: 'text', amount: 'number', category: 'text', created_at: 'datetime' } });
  dashboardId = (await buildDashboard(s, { source: large, published: true })).id;
});
afterAll(() => s?.close());
afterEach(() => vi.restoreAllMocks());

/**
 * Runs `work` with the slice length at 0 and `step` spied: when the work has called it `at` times,
 * /livez is asked; answers how many calls the work had made when that answer came, and how many in all.
 */
async function askedMidway<T>(step: { object: object; method: string }, at: number, work: () => Promise<T>): Promise<{ answeredAt: number; total: number; result: T }> {
  let calls = 0;
  let answeredAt = -1;
  let probe: Promise<void> | null = null;
  const target = step.object as Record<string, (...args: unknown[]) => unknown>;
  const original = target[step.method];
  const spy = vi.spyOn(target, step.method).mockImplementation(function (this: unknown, ...args: unknown[]) {
    if (++calls === at) probe = fetch(`${s.url}/livez`).then(async (r) => {
      await r.arrayBuffer();
      answeredAt = calls;
    });
    return original.apply(this, args);
  });
  const restore = setSliceMs(0);
  try {
    const result = await work();
    await probe;
    return { answeredAt, total: calls, result };
  } finally {
    restore();
    spy.mockRestore();
  }
}

describe('a large source', () => {
  it('counts a heavy rule in slices: /livez asked during the count is answered before it ends', async () => {
    const { answeredAt, total, result } = await askedMidway({ object: Aggregator.prototype, method: 'add' }, 200, () =>
      s.http('POST', '/api/admin/alerts', { body: { name: 'p95', dataSourceId: large.id, metric: 'p95', valueField: 'amount', condition: { operator: 'gt', value: 1e9 } } }),
    );
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(total).toBe(RECORDS);
    expect(answeredAt, `answered after ${answeredAt} of ${total} records`).toBeGreaterThan(0);
    expect(answeredAt).toBeLessThan(total);
  });

  it('builds the first anonymous view in slices: /livez asked during the build is answered before it ends', async () => {
    const { answeredAt, total, result } = await askedMidway({ object: SourceView.prototype, method: 'put' }, 200, () => s.http('GET', `/api/dashboards/${dashboardId}`, { token: null }));
    expect(result.status).toBe(200);
    expect(result.body.records).toHaveLength(RECORDS);
    expect(total).toBe(RECORDS);
    expect(answeredAt, `answered after ${answeredAt} of ${total} records`).toBeGreaterThan(0);
    expect(answeredAt).toBeLessThan(total);
  });

  it('exports CSV in slices: /livez asked during the pass that finds the columns is answered before that pass ends', async () => {
    // The records are read twice (the columns of a tab that names none, then the rows): the spy counts both.
    const { answeredAt, total, result } = await askedMidway({ object: QueryCursor.prototype, method: 'next' }, 200, () => s.http('GET', `/api/dashboards/${dashboardId}/export`, { token: null }));
    expect(result.status).toBe(200);
    expect(result.text.trim().split('\n')).toHaveLength(RECORDS + 1);
    expect(total).toBeGreaterThanOrEqual(2 * RECORDS);
    expect(answeredAt, `answered at read ${answeredAt} of ${total}`).toBeGreaterThan(0);
    expect(answeredAt).toBeLessThan(RECORDS);
  });
});

describe('rules per data source and per team', () => {
  it('are capped: past ALERT_MAX_RULES_PER_SOURCE or ALERT_MAX_RULES a new rule (or one moved) answers 409 saying what to do', async () => {
    const rule = (ds: BuiltSource, i: number) => ({ name: `Rule ${i}`, dataSourceId: ds.id, condition: { operator: 'gt', value: 1e9 } });
    const a = await buildSource(s, { name: 'A', records: [{ id: 1 }] });
    const b = await buildSource(s, { name: 'B', records: [{ id: 1 }] });
    for (let i = 0; i < PER_SOURCE; i++) expect((await s.http('POST', '/api/admin/alerts', { body: rule(a, i) })).status).toBe(201);
    const fourth = await s.http('POST', '/api/admin/alerts', { body: rule(a, PER_SOURCE) });
    expect(fourth.status).toBe(409);
    expect(fourth.body.error).toEqual({
      code: 'alert_limit',
      message: `This data source has ${PER_SOURCE} alerts, the most one data source may have (ALERT_MAX_RULES_PER_SOURCE): delete or move one of its alerts first, or ask the operator to raise the limit.`,
    });
    // One on B may not move onto the full A either.
    const onB = await s.http('POST', '/api/admin/alerts', { body: rule(b, 0) });
    expect(onB.status).toBe(201);
    const moved = await s.http('PATCH', `/api/admin/alerts/${onB.body.id}`, { body: { dataSourceId: a.id } });
    expect([moved.status, moved.body.error?.code]).toEqual([409, 'alert_limit']);
    // The team: 1 on the large source, 3 on A, and B up to the team's cap.
    const existing = (await s.http('GET', '/api/admin/alerts')).body.length as number;
    for (let i = existing; i < PER_TEAM; i++) expect((await s.http('POST', '/api/admin/alerts', { body: rule(b, i) })).status).toBe(201);
    const over = await s.http('POST', '/api/admin/alerts', { body: rule(large, 99) });
    expect(over.status).toBe(409);
    expect(over.body.error.message).toBe(`The team has ${PER_TEAM} alerts, the most it may have (ALERT_MAX_RULES): delete alerts that are no longer needed first, or ask the operator to raise the limit.`);
    // Room again once one goes.
    expect((await s.http('DELETE', `/api/admin/alerts/${onB.body.id}`)).status).toBe(200);
    expect((await s.http('POST', '/api/admin/alerts', { body: rule(large, 100) })).status).toBe(201);
  });
});
