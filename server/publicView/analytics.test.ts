import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JoinAck } from '@common/realtime';
import type { DashboardAnalyticsDto, ViewersChangedEvent } from '@common/schemas/analytics';
import { buildDashboard, buildSource } from '../test/factories';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../test/harness';
import { collect, join, openSocket, type TestSocket } from '../test/sockets';

let s: TestServer;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  sockets.forEach((x) => x.close());
  await s?.close();
});
beforeEach(() => s.reset());

const open = async (token?: string) => {
  const socket = await openSocket(s.url, token);
  sockets.push(socket);
  return socket;
};
const analytics = async () => (await s.http<DashboardAnalyticsDto[]>('GET', '/api/admin/analytics')).body;
const of = (list: DashboardAnalyticsDto[], id: string) => list.find((d) => d.dashboardId === id)!;

describe('analytics', () => {
  it('counts open viewers (public and share links) and views per day, pushing each change to the admin room', async () => {
    const ds = await buildSource(s);
    const pub = await buildDashboard(s, { source: ds, name: 'Public', published: true });
    const draft = await buildDashboard(s, { source: ds, name: 'Draft' });
    const { token } = (await s.http('POST', `/api/admin/dashboards/${draft.id}/links`, { body: { label: 'Acme' } })).body;

    const before = await analytics();
    expect(of(before, pub.id)).toMatchObject({ name: 'Public', isPublished: true, viewers: 0 });
    expect(of(before, pub.id).viewsByDay).toHaveLength(30);
    expect(of(before, pub.id).viewsByDay.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), views: 0 });

    const admin = await open(ADMIN_TOKEN);
    const pushes = collect(admin, 'admin:viewers');
    const v1 = await open();
    const v2 = await open();
    const v3 = await open();
    expect((await join(v1, 'dashboard:join', pub.id)).ok).toBe(true);
    expect((await join(v2, 'dashboard:join', pub.id)).ok).toBe(true);
    expect((await new Promise<JoinAck>((r) => v3.emit('share:join', token, r))).ok).toBe(true);
    // A join refused (draft by id) is no viewer and no view.
    expect((await join(v3, 'dashboard:join', draft.id)).ok).toBe(false);

    const last = (id: string) => [...pushes.items].reverse().find((e: ViewersChangedEvent) => e.dashboardId === id);
    await expect.poll(() => last(pub.id)?.viewers, { timeout: 10_000 }).toBe(2);
    await expect.poll(() => last(draft.id)?.viewers, { timeout: 10_000 }).toBe(1);
    expect(last(pub.id)?.viewsToday).toBe(2);
    const now = await analytics();
    expect(of(now, pub.id).viewers).toBe(2);
    expect(of(now, draft.id).viewers).toBe(1);
    expect(of(now, pub.id).viewsByDay.at(-1)!.views).toBe(2);
    expect(of(now, draft.id).viewsByDay.at(-1)!.views).toBe(1);

    v2.close();
    await expect.poll(() => last(pub.id)?.viewers, { timeout: 10_000 }).toBe(1);
    v1.emit('dashboard:leave', pub.id);
    await expect.poll(() => last(pub.id)?.viewers, { timeout: 10_000 }).toBe(0);
    const after = await analytics();
    expect(of(after, pub.id)).toMatchObject({ viewers: 0 });
    expect(of(after, pub.id).viewsByDay.at(-1)!.views).toBe(2);
    pushes.stop();
  });
});
