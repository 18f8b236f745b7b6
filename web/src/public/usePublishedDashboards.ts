import { useState } from 'react';
import type { PublicDashboardSummaryDto } from '@common/schemas/dashboard';
import { publicApi as api } from '../api/client';
import { getPublicSocket } from '../realtime/socket';
import { emitRoom, useLiveResource } from '../realtime/useLiveResource';

export type ListState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; dashboards: PublicDashboardSummaryDto[] };

const byNewest = (a: PublicDashboardSummaryDto, b: PublicDashboardSummaryDto) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0);

/**
 * The published dashboards, kept live over the public socket (`dashboards:join`). A failed refetch
 * keeps the list shown; `retry` starts over from the skeleton.
 */
export function usePublishedDashboards(): { state: ListState; retry(): void } {
  const [state, setState] = useState<ListState>({ status: 'loading' });
  const refetch = useLiveResource<PublicDashboardSummaryDto[]>(() => ({
    socket: getPublicSocket(),
    load: (signal) => api.get<PublicDashboardSummaryDto[]>('/api/dashboards', { signal }),
    loaded: (dashboards) => setState({ status: 'ready', dashboards }),
    failed: (e) => {
      console.error('Failed to fetch dashboards', e);
      setState((s) => (s.status === 'ready' ? s : { status: 'error' }));
    },
    room: (socket, ack) => emitRoom(socket, () => socket.emit('dashboards:join', ack)),
    pushes: () => ({
      'dashboards:changed': ({ dashboard }) =>
        setState((s) => (s.status !== 'ready' ? s : { status: 'ready', dashboards: [dashboard, ...s.dashboards.filter((d) => d.id !== dashboard.id)].sort(byNewest) })),
      'dashboards:removed': ({ dashboardId }) => setState((s) => (s.status !== 'ready' ? s : { status: 'ready', dashboards: s.dashboards.filter((d) => d.id !== dashboardId) })),
    }),
  }), []);
  return {
    state,
    retry: () => {
      setState({ status: 'loading' });
      refetch();
    },
  };
}
