import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JoinAck } from '@common/realtime';
import type { DashboardAnalyticsDto } from '@common/schemas/analytics';
import type { TestServer } from '../test/harness';
import { startCluster, type TestCluster } from '../test/cluster';
import { join, openSocket } from '../test/sockets';

let cluster: TestCluster;
let a: TestServer;
let b: TestCluster['b'];

beforeAll(async () => {
  cluster = await startCluster();
  ({ a, b } = cluster);
});
afterAll(() => cluster?.stop());

describe('viewer counts across processes', () => {
  it('counts viewers connected to another process through the Redis adapter', async () => {
    const ds = (await a.http('POST', '/api/admin/data-sources', { body: { name: 'Shared' } })).body;
    const dash = (await a.http('POST', '/api/admin/dashboards', { body: { name: 'Shared', dataSourceId: ds.id, isPublished: true } })).body;
    const { token } = (await a.http('POST', `/api/admin/dashboards/${dash.id}/links`, { body: { label: 'TV' } })).body;
    const onA = await openSocket(a.url);
    const onB = await openSocket(b.url);
    const shareOnB = await openSocket(b.url);
    try {
      expect((await join(onA, 'dashboard:join', dash.id)).ok).toBe(true);
      expect((await join(onB, 'dashboard:join', dash.id)).ok).toBe(true);
      expect((await new Promise<JoinAck>((r) => shareOnB.emit('share:join', token, r))).ok).toBe(true);
      const viewers = async () => (await a.http<DashboardAnalyticsDto[]>('GET', '/api/admin/analytics')).body.find((d) => d.dashboardId === dash.id)!;
      await expect.poll(async () => (await viewers()).viewers, { timeout: 10_000 }).toBe(3);
      expect((await viewers()).viewsByDay.at(-1)!.views).toBe(3);
      onB.disconnect();
      await expect.poll(async () => (await viewers()).viewers, { timeout: 10_000 }).toBe(2);
    } finally {
      [onA, onB, shareOnB].forEach((s) => s.disconnect());
    }
  });
});
