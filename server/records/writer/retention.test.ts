import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { buildDashboard, buildSource } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/harness';
import { collect, socketsPerTest } from '../../test/sockets';

let s: TestServer;
const sockets = socketsPerTest(() => s.url);
let ds: { id: string; sourceId: string };
let dash: { id: string };

beforeAll(async () => {
  // A short sweep for the age test, at most 2 removals per sweep; an append-only default small enough to reach.
  s = await startTestServer({ RETENTION_SWEEP_MS: '100', RETENTION_SWEEP_MAX_RECORDS: '2', APPEND_ONLY_MAX_RECORDS: '4' });
});
afterAll(() => s?.close());
beforeEach(async () => {
  await s.reset();
  ds = await buildSource(s, { name: 'Stream' });
  dash = await buildDashboard(s, { source: ds, published: true });
});
const viewer = () => sockets.viewerOf(dash.id);
const ingest = (records: unknown[]) => s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records } });
const patch = (body: unknown) => s.http('PATCH', `/api/admin/data-sources/${ds.id}`, { body });
const recordIds = async () => ((await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=100`)).body.records as { recordId: string }[]).map((r) => r.recordId).sort();
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

describe('retention by count', () => {
  it('answers a write with the source at most maxRecords, the oldest by time field gone, pushed live and logged as a count', async () => {
    expect((await patch({ timeField: 'at', retention: { maxRecords: 3 } })).status).toBe(200);
    const v = await viewer();
    const removed = collect(v, 'records:removed');
    const upserted = collect(v, 'records:upserted');
    // Arrival order differs from time order: the time field decides who goes.
    const evictedAt = minutesAgo(50);
    const res = await ingest([
      { id: 'c', at: minutesAgo(3) },
      { id: 'a', at: evictedAt },
      { id: 'e', at: minutesAgo(1) },
      { id: 'b', at: Math.floor(Date.now() / 1000) - 40 * 60 }, // epoch seconds
      { id: 'd', at: minutesAgo(2) },
    ]);
    expect(res.status).toBe(200);
    expect(await recordIds()).toEqual(['c', 'd', 'e']);
    // The answer counts what was written and says, not silently, that two of them went at once.
    expect(res.body).toMatchObject({ inserted: 5, rejected: 0 });
    expect(res.body.warnings).toEqual([
      {
        index: -1,
        message: `retention removed 2 records of data source ${ds.sourceId}, the oldest by "at" (it keeps at most 3 records); 2 of them were sent in this request. To keep more, raise its limit: PATCH /api/admin/data-sources/${ds.id} with {"retention": {"maxRecords": <n>}}`,
      },
    ]);
    // The public view (served from the view cache) follows the eviction too.
    const view = await eventually(async () => {
      const v = (await s.http('GET', `/api/dashboards/${dash.id}`, { token: null })).body;
      expect(v.records.map((r: { recordId: string }) => r.recordId).sort()).toEqual(['c', 'd', 'e']);
      return v;
    }, { timeout: 10_000 });
    // The viewer orders by the same time field (newest first) when no column is sorted.
    expect(view.dataSource).toMatchObject({ timeField: 'at', appendOnly: false });
    // The two that go are never stored nor pushed: the viewer hears the three kept, and no removal.
    const heard = await eventually(() => upserted.items.length > 0 && upserted.items, { timeout: 10_000 });
    expect(heard).toHaveLength(1);
    expect(heard[0].records.map((r) => r.recordId).sort()).toEqual(['c', 'd', 'e']);
    expect(heard[0].total).toBe(3);
    expect(removed.items).toEqual([]);
    const ds2 = (await s.http('GET', '/api/data/sources')).body.find((d: { id: string }) => d.id === ds.id);
    expect(ds2).toMatchObject({ recordCount: 3, retention: { maxRecords: 3, maxAgeSeconds: null }, timeField: 'at' });

    const log = (await s.http('GET', `/api/admin/activity?kind=records.evicted&objectId=${ds.id}`)).body;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ objectId: ds.id, details: { removed: 2 } });
    // Counts, not contents.
    // (The evicted record's own time, to the second: an hour prefix also matches the entry's own time.)
    expect(JSON.stringify(log[0])).not.toContain(evictedAt.slice(0, 19));
  });

  it('without a time field, the first received go first; a lowered limit applies at once', async () => {
    await ingest([{ id: 1 }, { id: 2 }]);
    await ingest([{ id: 3 }]);
    expect((await ingest([{ id: 4 }])).body.warnings).toEqual([]);
    expect((await patch({ retention: { maxRecords: 2 } })).status).toBe(200);
    expect(await recordIds()).toEqual(['3', '4']);
    // Removing older records only: the request's own record stays, and the warning says whose went.
    const res = await ingest([{ id: 5 }]);
    expect(res.body.warnings).toHaveLength(1);
    expect(res.body.warnings[0].message).toMatch(new RegExp(`^retention removed 1 record of data source ${ds.sourceId}, the oldest first \\(it keeps at most 2 records\\)\\. To keep more`));
    expect(await recordIds()).toEqual(['4', '5']);
  });

  it('re-reads every record\'s time when the time field changes', async () => {
    await ingest([{ id: 'new', at: minutesAgo(1) }]);
    await ingest([{ id: 'old', at: minutesAgo(90) }]);
    // Received last, but it happened first once the time field says so.
    await patch({ timeField: 'at' });
    await patch({ retention: { maxRecords: 1 } });
    expect(await recordIds()).toEqual(['new']);
  });

  it('gives an append-only source a default limit (APPEND_ONLY_MAX_RECORDS), and says so to the sender', async () => {
    // A keyless source's own URL makes it append-only: six records sent, the newest four kept.
    const res = await s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: [1, 2, 3, 4, 5, 6].map((id) => ({ id })) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ inserted: 6, rejected: 0 });
    expect(res.body.warnings.map((w: { index: number; message: string }) => [w.index, w.message.split('. To keep more')[0]])).toEqual([
      [-1, `retention removed 2 records of data source ${ds.sourceId}, the oldest first (it keeps at most 4 records, the append-only default); 2 of them were sent in this request`],
    ]);
    // Append-only records carry server ids: the newest four by arrival stay.
    const kept = ((await s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=100`)).body.records as { data: { id: number } }[]).map((r) => r.data.id);
    expect(kept.sort()).toEqual([3, 4, 5, 6]);
    const engine = (await s.http('GET', '/api/admin/engine')).body;
    expect(engine.appendOnlyDefaultMaxRecords).toBe(4);
  });
});

describe('retention by age', () => {
  it('sweeps records older than maxAgeSeconds by their time field, live to viewers, logged as a count', async () => {
    const v = await viewer();
    const removed = collect(v, 'records:removed');
    await patch({ timeField: 'at' });
    await ingest([
      { id: 'fresh', at: minutesAgo(1) },
      { id: 'stale', at: minutesAgo(120) },
      { id: 'older', at: minutesAgo(600) },
    ]);
    await patch({ retention: { maxAgeSeconds: 3600 } });
    await eventually(async () => expect(await recordIds()).toEqual(['fresh']), { timeout: 10_000 });
    await eventually(() => expect(removed.items.flatMap((e) => e.recordIds).sort()).toEqual(['older', 'stale']), { timeout: 10_000 });

    // Later arrivals are swept by the loop, not only on the PATCH.
    await ingest([{ id: 'late', at: minutesAgo(61) }]);
    await eventually(async () => expect(await recordIds()).toEqual(['fresh']), { timeout: 10_000 });
    await eventually(async () => {
      const log = (await s.http('GET', `/api/admin/activity?kind=records.evicted&objectId=${ds.id}`)).body as { details: { removed: number } }[];
      expect(log.map((e) => e.details.removed).sort()).toEqual([1, 2]);
    }, { timeout: 10_000 });
  });

  it('removes at most RETENTION_SWEEP_MAX_RECORDS per sweep; the rest goes on the next ones', async () => {
    const v = await viewer();
    const removed = collect(v, 'records:removed');
    await patch({ timeField: 'at' });
    await ingest([1, 2, 3, 4, 5].map((id) => ({ id, at: minutesAgo(120 + id) })).concat([{ id: 6, at: minutesAgo(1) }]));
    await patch({ retention: { maxAgeSeconds: 3600 } });
    await eventually(async () => expect(await recordIds()).toEqual(['6']), { timeout: 10_000 });
    const batches = await eventually(() => {
      const sizes = removed.items.map((e) => e.recordIds.length);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(5);
      return sizes;
    }, { timeout: 10_000 });
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...batches)).toBeLessThanOrEqual(2);
  });
});

describe('retention as one change', () => {
  it('a burst into an append-only source never shows more than maxRecords to the API or to a viewer', async () => {
    expect((await patch({ appendOnly: true, retention: { maxRecords: 5 } })).status).toBe(200);
    const v = await viewer();
    // The viewer holds what it is told, in the order it is told.
    const held = new Set<string>();
    let viewerMax = 0;
    v.on('records:upserted', (e) => {
      e.records.forEach((r) => held.add(r.recordId));
      viewerMax = Math.max(viewerMax, held.size, e.total);
    });
    v.on('records:removed', (e) => {
      e.recordIds.forEach((id) => held.delete(id));
      viewerMax = Math.max(viewerMax, e.total);
    });
    let apiMax = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const [raw, list] = await Promise.all([s.http('GET', `/api/data/raw?dataSourceId=${ds.id}&limit=100`), s.http('GET', '/api/data/sources')]);
        const count = list.body.find((d: { id: string }) => d.id === ds.id).recordCount;
        apiMax = Math.max(apiMax, raw.body.total, raw.body.records.length, count);
      }
    })();
    for (let wave = 0; wave < 4; wave++) {
      const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => s.http('POST', `/api/data/sources/${ds.sourceId}/records`, { body: [{ wave, i }, { wave, i, second: true }] })));
      expect(answers.every((a) => a.status === 200)).toBe(true);
    }
    polling = false;
    await poll;
    await eventually(() => held.size === 5, { timeout: 20_000, what: 'the viewer to hold the 5 kept records' });
    expect(apiMax).toBeLessThanOrEqual(5);
    expect(viewerMax).toBeLessThanOrEqual(5);
    expect(held.size).toBe(5);
    expect((await recordIds()).sort()).toEqual([...held].sort());
  });
});
