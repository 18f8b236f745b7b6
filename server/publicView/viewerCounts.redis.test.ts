import { describe, expect, it } from 'vitest';
import type { JoinAck } from '@common/realtime';
import type { DashboardAnalyticsDto } from '@common/schemas/analytics';
import { useCluster } from '../test/cluster';
import { join, openSocket } from '../test/sockets';

const cluster = useCluster();

describe('viewer counts across processes', () => {
  it('counts viewers connected to another process through the Redis adapter', async () => {
    const ds = (await cluster.a.http('POST', '/api/admin/data-sources', { body: { name: 'Shared' } })).body;
    const dash = (await cluster.a.http('POST', '/api/admin/dashboards', { body: { name: 'Shared', dataSourceId: ds.id, isPublished: true } })).body;
    const { token } = (await cluster.a.http('POST', `/api/admin/dashboards/${dash.id}/links`, { body: { label: 'TV' } })).body;
    const onA = await openSocket(cluster.a.url);
    const onB = await openSocket(cluster.b.url);
    const shareOnB = await openSocket(cluster.b.url);
    try {
      expect((await join(onA, 'dashboard:join', dash.id)).ok).toBe(true);
      expect((await join(onB, 'dashboard:join', dash.id)).ok).toBe(true);
      expect((await new Promise<JoinAck>((r) => shareOnB.emit('share:join', token, r))).ok).toBe(true);
      const viewers = async () => (await cluster.a.http<DashboardAnalyticsDto[]>('GET', '/api/admin/analytics')).body.find((d) => d.dashboardId === dash.id)!;
      await expect.poll(async () => (await viewers()).viewers, { timeout: 10_000 }).toBe(3);
      // Each process counts its viewers' views in memory and writes them every few seconds.
      await expect.poll(async () => (await viewers()).viewsByDay.at(-1)!.views, { timeout: 20_000, interval: 500 }).toBe(3);
      onB.disconnect();
      await expect.poll(async () => (await viewers()).viewers, { timeout: 10_000 }).toBe(2);
    } finally {
      [onA, onB, shareOnB].forEach((s) => s.disconnect());
    }
  });
});
