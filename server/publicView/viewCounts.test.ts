import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardAnalyticsDto } from '@common/schemas/analytics';
import { buildDashboard, buildSource } from '../test/factories';
import { startTestServer, type TestServer } from '../test/harness';
import { join, next, type TestSocket } from '../test/sockets';
import { viewerCounter } from './viewerCounts';

let s: TestServer;
let ds: { id: string; sourceId: string };
let d: { id: string };
const sockets: TestSocket[] = [];

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  sockets.forEach((x) => x.disconnect());
  await s?.close();
});
beforeEach(async () => {
  sockets.splice(0).forEach((x) => x.disconnect());
  await s.reset();
  ds = await buildSource(s, { records: [{ id: 1 }] });
  d = await buildDashboard(s, { source: ds, published: true });
});

const stats = () => viewerCounter(s.app.ctx)!.stats;
const page = (n: number) => `page-${String(n).padStart(12, '0')}`;
/** A viewer page's socket as the web app opens it: the page id in the handshake, reconnecting by itself. */
async function viewerPage(pageId: string): Promise<TestSocket> {
  const socket: TestSocket = connect(s.url, { transports: ['websocket'], forceNew: true, reconnectionDelay: 50, reconnectionDelayMax: 100, auth: { page: pageId } });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}
const viewsToday = async (id = d.id) => {
  const list = (await s.http<DashboardAnalyticsDto[]>('GET', '/api/admin/analytics')).body;
  return list.find((x) => x.dashboardId === id)!.viewsByDay.at(-1)!.views;
};
const counterDocs = () => s.app.ctx.conn.models.DashboardViewDay.find({}).lean<{ dashboardId: string; day: string; views: number }[]>();

describe('views per viewer page', () => {
  it('counts 300 join/leave toggles of one page, and its reconnects (recovered or not), as one view', async () => {
    const v = await viewerPage(page(1));
    for (let i = 0; i < 300; i++) {
      expect((await join(v, 'dashboard:join', d.id)).ok).toBe(true);
      v.emit('dashboard:leave', d.id);
    }
    await join(v, 'dashboard:join', d.id);
    expect(await viewsToday()).toBe(1);
    // The transport drops and comes back within the recovery window (rooms restored, no join).
    const live = next(v, 'records:upserted');
    await s.http('POST', '/api/data/ingest', { body: { sourceId: ds.sourceId, records: [{ id: 2 }] } });
    await live;
    const back = new Promise<void>((resolve) => v.once('connect', () => resolve()));
    v.io.engine.close();
    await back;
    expect(v.recovered).toBe(true);
    // The same page on a fresh connection (not recovered): it joins again.
    v.disconnect();
    const again = await viewerPage(page(1));
    expect(again.recovered).toBe(false);
    expect((await join(again, 'dashboard:join', d.id.toUpperCase())).ok).toBe(true);
    await stats().flush();
    expect(await viewsToday()).toBe(1);
    // Another page is another view.
    await join(await viewerPage(page(2)), 'dashboard:join', d.id);
    expect(await viewsToday()).toBe(2);
    await stats().flush();
    // One counter document, under the canonical id, whatever spelling joined.
    expect((await counterDocs()).map((x) => [x.dashboardId, x.views])).toEqual([[d.id, 2]]);
  });

  it('holds views in memory: N joins cost no write until the flush, which writes once per dashboard', async () => {
    const other = (await s.http('POST', '/api/admin/dashboards', { body: { name: 'Other', dataSourceId: ds.id, isPublished: true } })).body;
    await stats().flush();
    const before = stats().writes;
    const viewers = await Promise.all(Array.from({ length: 40 }, (_, i) => viewerPage(page(100 + i))));
    await Promise.all(viewers.map((v, i) => join(v, 'dashboard:join', i % 2 ? d.id : other.id)));
    // Read after every join was answered: the joins are counted, none of them wrote.
    expect(await viewsToday()).toBe(20);
    expect(stats().writes).toBe(before);
    await stats().flush();
    expect(stats().writes - before).toBe(2);
    expect(await viewsToday()).toBe(20);
    expect(await viewsToday(other.id)).toBe(20);
    // Nothing pending: another flush writes nothing.
    await stats().flush();
    expect(stats().writes - before).toBe(2);
  });
});
