import { PUBLIC_REFRESH_MS } from '@common/constants';
import type { RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import { ApiCallError } from '../../api/client';
import type { ViewerFeed } from './feed';
import { getPublicSocket } from '../../realtime/socket';
import { emitRoom, useLiveResource, type LiveControl } from '../../realtime/useLiveResource';
import { RevisionGate } from './revisionGate';
import { useTileAlertSync } from './tileAlerts';
import { applyHead, applyRemoved, applyUpserted, loadView, markFailed, markNotFound, resetViewer, useViewerStore } from './viewerStore';

/** Longest random wait before a refetch that many viewers would make at once (restart, Redis back). */
const RESYNC_JITTER_MS = 2_000;

type Delta = { kind: 'upserted'; e: RecordsUpserted } | { kind: 'removed'; e: RecordsRemoved };

/**
 * Keeps the viewer store in step with the server: REST fetch, then Socket.IO deltas in revision
 * order, a refetch on any gap, a reconnect the server could not recover or a resync it asks for,
 * and the 30 s refetch as a fallback. Gives the refetch (the Retry of the load-failure screen).
 */
export function useViewerSync(feed: ViewerFeed): () => void {
  useTileAlertSync(feed);
  // The key names the feed: a new feed object for the same key does not start over.
  return useLiveResource<PublicDashboardResponse>(() => {
    const dashboardId = feed.dashboardId ?? '';
    resetViewer(dashboardId);
    /** Deltas that came during a fetch: applied on top of its answer. */
    let buffered: Delta[] = [];
    const gate = new RevisionGate();
    /** The dashboard on screen (a share link learns its id from the first answer). */
    const shownId = () => dashboardId || useViewerStore.getState().head?.dashboard.id || '';
    let live: LiveControl | null = null;

    const apply = (d: Delta) => {
      // Deltas come once per change to the source's audience: keep those of the shown source.
      if (d.e.dataSourceId !== useViewerStore.getState().head?.dataSource?.id) return;
      const action = gate.decide(useViewerStore.getState().revision, d.e.revision, d.e.part);
      if (action === 'refetch') void live?.refetch();
      if (action !== 'apply') return;
      if (d.kind === 'upserted') applyUpserted(d.e);
      else applyRemoved(d.e);
    };
    const onDelta = (d: Delta) => {
      if (live?.loading) buffered.push(d);
      else if (useViewerStore.getState().status === 'ready') apply(d);
    };

    return {
      socket: getPublicSocket(),
      load: () => feed.fetchView(),
      // Revisions count per data source: an answer for another source (the dashboard moved) is always taken.
      revision: {
        of: (view) => (view.dataSource?.id === useViewerStore.getState().head?.dataSource?.id ? view.revision : null),
        shown: () => (useViewerStore.getState().status === 'ready' ? useViewerStore.getState().revision : null),
      },
      loaded: (view) => {
        // Back from "not found" (published again): the server had closed the room, so join anew.
        const rejoin = useViewerStore.getState().status === 'notFound';
        loadView(view);
        if (rejoin) live?.join();
        gate.fetched();
      },
      failed: (e) => {
        // 401: a signed embed token refused (expired, its secret rotated): gone, as a dead link's 404.
        if (e instanceof ApiCallError && (e.status === 404 || e.status === 401)) markNotFound();
        else markFailed('Failed to fetch dashboard');
      },
      settled: () => {
        const pending = buffered;
        buffered = [];
        if (useViewerStore.getState().status === 'ready') pending.forEach(apply);
      },
      // After a reconnect the server could not recover (a restart, another process) the view is
      // fetched again as soon as the join is acknowledged. No random wait on top: each viewer's
      // reconnect already came at a random moment (its own backoff cap, socket.ts).
      room: (socket, ack) => emitRoom(socket, () => feed.join(socket, ack), () => feed.leave(socket)),
      pushes: (control) => {
        live = control;
        return {
          'records:upserted': (e) => onDelta({ kind: 'upserted', e }),
          'records:removed': (e) => onDelta({ kind: 'removed', e }),
          'dashboard:changed': (e) => {
            if (e.dashboardId !== shownId()) return;
            if (!e.dataSourceChanged) return applyHead(e);
            // Another source now: join its audience (the server moved us already; this keeps it on record).
            control.join();
            void control.refetch();
          },
          'dashboard:removed': (e) => {
            if (e.dashboardId === shownId()) markNotFound();
          },
          // A resync the server asks for (Redis lost) reaches every viewer at the same instant: that
          // refetch waits a random moment, so thousands of viewers do not ask at once. Either sends
          // If-None-Match (the browser revalidates), so an unchanged view is a 304.
          'view:resync': () => control.refetchSoon(RESYNC_JITTER_MS),
        };
      },
      // The 30 s refetch stays as the fallback: it catches what is not pushed to viewers (e.g.
      // field labels edited on the data source) and a dashboard published again. An unchanged view
      // answers 304, and unchanged records keep their objects, so rows do not redraw.
      pollMs: PUBLIC_REFRESH_MS,
    };
  }, [feed.key]);
}
