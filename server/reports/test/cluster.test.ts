import mongoose from 'mongoose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { outlivingDatabase } from '../../test/database';
import { eventually } from '../../test/eventually';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../test/harness';
import { startServerProcess } from '../../test/processes';
import { startReceiver, type TestReceiver } from '../../test/receiver';

/*
 * Two server processes on one database (A in this test's process, B a child): every due run of a
 * report happens once, in whichever process claims it; a report is drawn by one process at a time
 * (its lease) and a "Send now" asked meanwhile waits for it, never lost; and a run missed while
 * every process was down is made up once when one starts, not once per missed slot.
 */

const db = outlivingDatabase();
let rx: TestReceiver;
let a: TestServer;
let b: Awaited<ReturnType<typeof startServerProcess>>;
let reportId = '';
const env = () => ({ MONGODB_URI: db.uri, REPORTS_TICK_MS: '200', OUTBOUND_ALLOWED_HOSTS: rx.hostPort });

const reports = () => db.conn.collection('reports');
const runs = () => db.conn.collection('reportruns');
const oid = () => new mongoose.Types.ObjectId(reportId);
/** The report is at rest: not being drawn, due later, every delivery of its runs answered. */
async function settled(runsWanted: number): Promise<boolean> {
  const r = await reports().findOne({ _id: oid() });
  if (!r || r.lease?.owner || r.sendRequestedAt || !(r.nextRunAt > new Date())) return false;
  const pending = await db.conn.collection('reportdeliveries').countDocuments({ reportId, status: 'pending' });
  return pending === 0 && (await runs().countDocuments({ reportId })) === runsWanted;
}

beforeAll(async () => {
  rx = await startReceiver();
  a = await startTestServer(env());
  b = await startServerProcess({ ...env(), ADMIN_TOKEN, SEED_DEMO: 'false' });
  const source = (await a.http('POST', '/api/admin/data-sources', { body: { name: 'Orders', appendOnly: true } })).body;
  expect((await a.http('POST', '/api/data/ingest', { body: { sourceId: source.sourceId, records: [{ team: 'red' }, { team: 'blue' }] } })).status).toBe(200);
  const tabs = [{ id: 't', name: 'Main', widgets: [{ id: 'k', name: 'Orders', type: 'kpi', configuration: { metric: 'count' } }] }];
  const dashboard = (await a.http('POST', '/api/admin/dashboards', { body: { name: 'Shared', dataSourceId: source.id, configuration: { tabs } } })).body;
  const made = await a.http('POST', '/api/admin/reports', { body: { name: 'Weekly', dashboardId: dashboard.id, schedule: { everyMinutes: 10_080 }, formats: ['csv'], channels: [{ type: 'webhook', url: `${rx.url}/hook` }] } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  reportId = made.body.id;
  // The renderer loads on a process's first drawing (seconds on a busy machine): loaded here, so the waits below wait only for runs.
  for (const url of [a.url, b.url]) {
    const res = await fetch(`${url}/api/admin/reports/preview`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ dashboardId: dashboard.id, width: 480 }) });
    expect(res.status).toBe(200);
  }
}, 240_000);
afterAll(async () => {
  await b?.stop();
  await a?.close();
  await rx?.close();
});

it('runs each due slot once across two processes', async () => {
  for (let round = 1; round <= 4; round++) {
    // The slot comes due now (as the clock makes it): both processes look every 200 ms.
    await reports().updateOne({ _id: oid() }, { $set: { nextRunAt: new Date() } });
    await eventually(() => settled(round), { timeout: 60_000, interval: 50, what: `round ${round} run once and delivered` });
    expect(rx.on('/hook')).toHaveLength(round);
  }
  // Each run announced once per channel, each with its own delivery id.
  expect(new Set(rx.on('/hook').map((c) => c.headers['x-livedash-delivery'])).size).toBe(4);
}, 300_000);

it('draws a report in one process at a time: a "Send now" asked while another holds its lease waits for it, and then runs once', async () => {
  const before = await runs().countDocuments({ reportId });
  const heldUntil = new Date(Date.now() + 60_000);
  await reports().updateOne({ _id: oid() }, { $set: { lease: { owner: 'another process', until: heldUntil } } });
  const asked = await fetch(`${b.url}/api/admin/reports/${reportId}/send`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(asked.status).toBe(202);
  const { requestedAt } = (await asked.json()) as { requestedAt: string };
  // Taken by a process, found busy, and asked again for later: the request is kept, nothing drawn.
  await eventually(async () => {
    const r = await reports().findOne({ _id: oid() });
    return r?.sendRequestedAt instanceof Date && r.sendRequestedAt.getTime() > Date.parse(requestedAt);
  }, { timeout: 60_000, interval: 50 });
  expect(await runs().countDocuments({ reportId })).toBe(before);
  // The other process is done: the request is taken, drawn and sent once.
  await reports().updateOne({ _id: oid() }, { $set: { lease: { owner: null, until: null } } });
  await eventually(() => settled(before + 1), { timeout: 60_000, interval: 50 });
  expect((await runs().find({ reportId }).sort({ at: -1 }).limit(1).toArray())[0].reason).toBe('send');
}, 180_000);

it('makes a run missed while every process was down up once at start, not once per missed slot', async () => {
  await b.stop();
  await a.close();
  const before = await runs().countDocuments({ reportId });
  // Every 5 minutes, and down for half an hour: six slots missed.
  await reports().updateOne({ _id: oid() }, { $set: { schedule: { everyMinutes: 5 }, nextRunAt: new Date(Date.now() - 30 * 60_000) } });
  a = await startTestServer(env());
  await eventually(() => settled(before + 1), { timeout: 60_000, interval: 50 });
  const r = await reports().findOne({ _id: oid() });
  expect(r!.nextRunAt.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
  expect(await runs().countDocuments({ reportId })).toBe(before + 1);
}, 300_000);
