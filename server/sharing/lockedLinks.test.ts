import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JoinAck, RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { ShareViewResponse } from '@common/schemas/sharing/shareLink';
import { buildDashboard, buildSource } from '../test/factories';
import { startTestServer, type TestServer } from '../test/harness';
import { caughtUp, collect, join, nextWhere, openSocket, type TestSocket } from '../test/sockets';
import { viewCacheOf } from '../publicView/viewCache';

/**
 * A share link with locked filters: its view, CSV export and live pushes hold only the
 * records matching every locked filter, enforced on the server; crafted requests cannot widen it.
 */
let s: TestServer;
let ds: { id: string; sourceId: string };
let draft: { id: string };
const sockets: TestSocket[] = [];

const ticket = (id: number, team: string, amount: number) => ({ id, team, amount, subject: `Ticket ${id} of ${team}` });
const RECORDS = [ticket(1, 'blue', 10), ticket(2, 'red', 20), ticket(3, 'blue', 30), ticket(4, 'green', 40), ticket(5, 'blue', 50), ticket(6, 'red', 60)];
const LOCK = [{ field: 'team', operator: 'eq', value: 'blue' }];

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  sockets.forEach((x) => x.disconnect());
  await s?.close();
});
beforeEach(async () => {
  await s.reset();
  // The source's types are settled after the ingest: views are compared at rest.
  ds = await buildSource(s, { primaryKey: 'id', records: RECORDS });
  draft = await buildDashboard(s, { source: ds, name: 'Teams' });
});

const makeLink = (body: Record<string, unknown>) => s.http('POST', `/api/admin/dashboards/${draft.id}/links`, { body: { label: 'Blue team', ...body } });
const locked = async (filters: unknown[] = LOCK) => {
  const res = await makeLink({ filters });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { token: string; link: { id: string; filters: unknown[] } };
};
const ids = (records: { data: Record<string, unknown> }[]) => records.map((r) => r.data.id).sort();
const csvIds = (text: string) => text.split('\r\n').slice(1).filter(Boolean).map((line) => Number(line.split(',')[0])).sort();

describe('locked filters: validation', () => {
  it('names the field at fault: a bad path, a field the source lacks, a value the field type cannot compare, too many filters', async () => {
    const badPath = await makeLink({ filters: [{ field: 'team..name', operator: 'eq', value: 'x' }] });
    expect(badPath.status, JSON.stringify(badPath.body)).toBe(400);
    expect(badPath.body.error.code).toBe('validation_failed');
    expect(badPath.body.error.fields[0].path).toBe('filters.0.field');
    const unknown = await makeLink({ filters: [{ field: 'colour', operator: 'eq', value: 'x' }] });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(400);
    expect(unknown.body.error.fields).toEqual([{ path: 'filters.0.field', message: '"colour" is not a field of the data source "Tickets"' }]);
    const notNumber = await makeLink({ filters: [{ field: 'amount', operator: 'gt', value: 'lots' }] });
    expect(notNumber.status, JSON.stringify(notNumber.body)).toBe(400);
    expect(notNumber.body.error.fields[0].path).toBe('filters.0.value');
    const noValues = await makeLink({ filters: [{ field: 'team', operator: 'in', values: [] }] });
    expect(noValues.status, JSON.stringify(noValues.body)).toBe(400);
    expect(noValues.body.error.fields[0].path).toBe('filters.0.values');
    const many = await makeLink({ filters: Array.from({ length: 11 }, () => LOCK[0]) });
    expect(many.status, JSON.stringify(many.body)).toBe(400);
    expect(many.body.error.message).toContain('at most 10 filters');
    // A good one is kept and listed.
    const ok = await locked([{ field: 'team', operator: 'in', values: ['blue', 'green'] }, { field: 'amount', operator: 'gte', value: '20' }]);
    expect(ok.link.filters).toEqual([{ field: 'team', operator: 'in', value: '', values: ['blue', 'green'] }, { field: 'amount', operator: 'gte', value: '20' }]);
    const listed = (await s.http('GET', `/api/admin/dashboards/${draft.id}/links`)).body as { filters: unknown[] }[];
    expect(listed[0].filters).toEqual(ok.link.filters);
  });
});

describe('locked filters: view and CSV', () => {
  it('returns and exports only matching records, whatever the request adds', async () => {
    const { token } = await locked();
    const view = (await s.http('GET', `/api/share/${token}`, { token: null })).body as ShareViewResponse;
    expect(ids(view.records)).toEqual([1, 3, 5]);
    expect(view.share.filters).toEqual([{ field: 'team', operator: 'eq', value: 'blue' }]);
    // Crafted: other query parameters, an admin credential, a filter of its own — still the locked view.
    for (const path of [`/api/share/${token}?filters=[]`, `/api/share/${token}?team=red&all=1`]) {
      const crafted = (await s.http('GET', path, { token: null })).body as ShareViewResponse;
      expect(ids(crafted.records)).toEqual([1, 3, 5]);
    }
    expect(ids(((await s.http('GET', `/api/share/${token}`)).body as ShareViewResponse).records)).toEqual([1, 3, 5]);
    // The CSV: every column (no configured columns) and a configured tab alike.
    const csv = await s.http('GET', `/api/share/${token}/export`, { token: null });
    expect(csv.status).toBe(200);
    expect(csvIds(csv.text.replace(/^\uFEFF/, ''))).toEqual([1, 3, 5]);
    expect(csv.text).not.toContain('red');
    const crafted = await s.http('GET', `/api/share/${token}/export?tab=tab-1&filters=none&all=true`, { token: null });
    expect(crafted.text).not.toContain('red');
    // The draft itself stays closed to the public.
    expect((await s.http('GET', `/api/dashboards/${draft.id}`, { token: null })).status).toBe(404);
    expect((await s.http('GET', `/api/dashboards/${draft.id}/export`, { token: null })).status).toBe(404);
  });

  it('is served from memory and kept current by ingest: a change in or out of the filter shows at once', async () => {
    const { token } = await locked();
    const cache = viewCacheOf(s.app.ctx);
    expect(ids(((await s.http('GET', `/api/share/${token}`, { token: null })).body as ShareViewResponse).records)).toEqual([1, 3, 5]);
    const builds = cache.stats.sourceBuilds;
    const loads = cache.links.loads;
    for (let i = 0; i < 5; i++) expect((await s.http('GET', `/api/share/${token}`, { token: null })).status).toBe(200);
    expect(cache.stats.sourceBuilds).toBe(builds);
    expect(cache.links.loads).toBe(loads);
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [ticket(7, 'blue', 70), ticket(8, 'red', 80), ticket(3, 'red', 30)] } });
    expect(ids(((await s.http('GET', `/api/share/${token}`, { token: null })).body as ShareViewResponse).records)).toEqual([1, 5, 7]);
    expect(cache.stats.sourceBuilds).toBe(builds);
  });

  it('keeps an unlocked link on the same dashboard whole', async () => {
    await locked();
    const open = (await makeLink({})).body as { token: string };
    const view = (await s.http('GET', `/api/share/${open.token}`, { token: null })).body as ShareViewResponse;
    expect(view.records).toHaveLength(6);
    expect(view.share.filters).toBeUndefined();
  });
});

describe('locked filters: live pushes', () => {
  const shareJoin = (socket: TestSocket, token: string) => new Promise<JoinAck>((resolve) => socket.emit('share:join', token, resolve));

  it('pushes only matching records; a record leaving the filter is removed by id; nothing else is ever sent; crafted joins do not widen it', async () => {
    const { token } = await locked();
    const viewer = await openSocket(s.url);
    sockets.push(viewer);
    expect((await shareJoin(viewer, token)).ok).toBe(true);
    // Crafted: the draft's id, the token as a dashboard id, the source's admin room — all refused.
    expect((await join(viewer, 'dashboard:join', draft.id)).ok).toBe(false);
    expect((await join(viewer, 'dashboard:join', token)).ok).toBe(false);
    expect((await join(viewer, 'datasource:join', ds.id)).ok).toBe(false);
    const upserts = collect(viewer, 'records:upserted');
    const removals = collect(viewer, 'records:removed');
    const before = ((await s.http('GET', `/api/share/${token}`, { token: null })).body as ShareViewResponse).revision;

    // One batch: a new blue (in), a new red (never seen), blue 3 turning red (leaves the view).
    // Listen before writing: the push may reach the viewer before the writer has its answer.
    const nextUpsert = nextWhere(viewer, 'records:upserted', (e) => e.revision > before);
    const nextRemoval = nextWhere(viewer, 'records:removed', (e) => e.revision > before);
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [ticket(7, 'blue', 70), ticket(8, 'red', 80), ticket(3, 'red', 30)] } });
    const upserted = (await nextUpsert) as RecordsUpserted;
    expect(ids(upserted.records)).toEqual([7]);
    expect(upserted.total).toBe(3);
    const removed = (await nextRemoval) as RecordsRemoved;
    expect(removed.revision).toBe(upserted.revision);
    expect(removed.recordIds).toEqual(['3']);
    expect([upserted.part, removed.part]).toEqual([0, 1]);
    expect(upserted.parts).toBe(2);

    // A change with nothing matching still moves the revision (an empty part), so no gap is seen.
    const nextEmpty = nextWhere(viewer, 'records:upserted', (e) => e.revision === upserted.revision + 1);
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [ticket(9, 'green', 90)] } });
    const empty = (await nextEmpty) as RecordsUpserted;
    expect(empty.records).toEqual([]);
    // A removal of a red record tells the viewer nothing of it; a blue one's id goes out.
    const nextRedGone = nextWhere(viewer, 'records:removed', (e) => e.revision === empty.revision + 1);
    await s.http('DELETE', `/api/data/sources/${ds.sourceId}/records/2`);
    const redGone = (await nextRedGone) as RecordsRemoved;
    expect(redGone.recordIds).toEqual([]);
    const nextBlueGone = nextWhere(viewer, 'records:removed', (e) => e.revision === redGone.revision + 1);
    await s.http('DELETE', `/api/data/sources/${ds.sourceId}/records/5`);
    const blueGone = (await nextBlueGone) as RecordsRemoved;
    expect(blueGone.recordIds).toEqual(['5']);
    await caughtUp(viewer);

    const sent = JSON.stringify([upserts.items, removals.items]);
    for (const secret of ['red', 'green', '"8"', '"9"', '"2"']) expect(sent, secret).not.toContain(secret);
    expect(upserts.items.flatMap((e) => e.records.map((r) => r.data.team))).toEqual(['blue']);
  });

  it('an unlocked viewer of the same draft still gets every change', async () => {
    await locked();
    const open = (await makeLink({})).body as { token: string };
    const viewer = await openSocket(s.url);
    sockets.push(viewer);
    expect((await shareJoin(viewer, open.token)).ok).toBe(true);
    const next = nextWhere(viewer, 'records:upserted', (x) => x.records.length > 0);
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [ticket(8, 'red', 80)] } });
    const e = (await next) as RecordsUpserted;
    expect(ids(e.records)).toEqual([8]);
  });
});
