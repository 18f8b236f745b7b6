import { useCallback, useEffect, useRef } from 'react';
import { PUBLIC_REFRESH_MS } from '@common/constants';
import type { PublicDashboardChanged, RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import { ApiCallError } from '../../api/client';
import type { ViewerFeed } from './feed';
import { getPublicSocket } from '../../realtime/socket';
import { RevisionGate } from './revisionGate';
import { useTileAlertSync } from './tileAlerts';
import { applyHead, applyRemoved, applyUpserted, loadView, markFailed, markNotFound, resetViewer, useViewerStore } from './viewerStore';

/** Longest random wait before a refetch that many viewers would make at once (restart, Redis back). */
const RESYNC_JITTER_MS = 2_000;

type Delta = { kind: 'upserted'; e: RecordsUpserted } | { kind: 'removed'; e: RecordsRemoved };

/**
 * Keeps the viewer store in step with the server: REST fetch, then Socket.IO deltas in revision
 * order, a refetch on any gap, a reconnect the server could not recover or a resync it asks for,
 * and the 30 s refetch as a fallback.
 */
export function useViewerSync(feed: ViewerFeed): () => void {
  const feedKey = feed.key;
  useTileAlertSync(feed);
  const refetchRef = useRef<() => Promise<void>>(async () => {});
  useEffect(() => {
    const dashboardId = feed.dashboardId ?? '';
    resetViewer(dashboardId);
    const socket = getPublicSocket();
    let disposed = false;
    let inFlight = false;
    let again = false;
    let buffered: Delta[] = [];
    const gate = new RevisionGate();
    /** The dashboard on screen (a share link learns its id from the first answer). */
    const shownId = () => dashboardId || useViewerStore.getState().head?.dashboard.id || '';

    const apply = (d: Delta) => {
      // Deltas come once per change to the source's audience: keep those of the shown source.
      if (d.e.dataSourceId !== useViewerStore.getState().head?.dataSource?.id) return;
      const action = gate.decide(useViewerStore.getState().revision, d.e.revision, d.e.part);
      if (action === 'refetch') void refetch();
      if (action !== 'apply') return;
      if (d.kind === 'upserted') applyUpserted(d.e);
      else applyRemoved(d.e);
    };

    const refetch = async (): Promise<void> => {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      try {
        const view: PublicDashboardResponse = await feed.fetchView();
        if (disposed) return;
        // Back from "not found" (published again): the server had closed the room, so join anew.
        const rejoin = useViewerStore.getState().status === 'notFound';
        loadView(view);
        if (rejoin && socket.connected) join();
        gate.fetched();
      } catch (e) {
        if (disposed) return;
        if (e instanceof ApiCallError && e.status === 404) markNotFound();
        else markFailed('Failed to fetch dashboard');
      } finally {
        inFlight = false;
      }
      const pending = buffered;
      buffered = [];
      if (useViewerStore.getState().status === 'ready') pending.forEach(apply);
      if (again && !disposed) {
        again = false;
        await refetch();
      }
    };

    const onDelta = (d: Delta) => {
      if (inFlight) buffered.push(d);
      else if (useViewerStore.getState().status === 'ready') apply(d);
    };
    const onUpserted = (e: RecordsUpserted) => onDelta({ kind: 'upserted', e });
    const onRemoved = (e: RecordsRemoved) => onDelta({ kind: 'removed', e });
    const onChanged = (e: PublicDashboardChanged) => {
      if (e.dashboardId !== shownId()) return;
      if (!e.dataSourceChanged) return applyHead(e);
      // Another source now: join its audience (the server moved us already; this keeps it on record).
      join();
      void refetch();
    };
    const onRemovedDashboard = (e: { dashboardId: string }) => {
      if (e.dashboardId === shownId()) markNotFound();
    };
    // After a reconnect the server could not recover (a restart, another process) the view is
    // fetched again as soon as the join is acknowledged — in the room first, so no change falls
    // between the two. No random wait on top: each viewer's reconnect already came at a random
    // moment (its own backoff cap, socket.ts), which spreads a restart's viewers out.
    const join = (reconnected = false) =>
      feed.join(socket, (ack) => {
        if (disposed) return;
        if (reconnected || !ack.ok) void refetch();
        else if (ack.revision !== undefined && ack.revision > useViewerStore.getState().revision && !inFlight) void refetch();
      });
    // A resync the server asks for (Redis lost) reaches every viewer at the same instant: that
    // refetch waits a random moment, so thousands of viewers do not ask at once. Either sends
    // If-None-Match (the browser revalidates), so an unchanged view is a 304.
    let resyncTimer: number | undefined;
    const refetchSoon = () => {
      if (resyncTimer !== undefined || disposed) return;
      resyncTimer = window.setTimeout(() => {
        resyncTimer = undefined;
        void refetch();
      }, Math.random() * RESYNC_JITTER_MS);
    };
    let connectedBefore = socket.connected;
    const onConnect = () => {
      // Back within the server's recovery window: rooms and missed deltas came with the connection.
      if (socket.recovered) return;
      join(connectedBefore);
      connectedBefore = true;
    };

    refetchRef.current = refetch;
    socket.on('records:upserted', onUpserted);
    socket.on('records:removed', onRemoved);
    socket.on('dashboard:changed', onChanged);
    socket.on('dashboard:removed', onRemovedDashboard);
    socket.on('connect', onConnect);
    socket.on('view:resync', refetchSoon);
    if (socket.connected) join();
    void refetch();
    // The 30 s refetch stays as the fallback: it catches what is not pushed to
    // viewers (e.g. field labels edited on the data source) and a dashboard published again. An
    // unchanged view answers 304, and unchanged records keep their objects, so rows do not redraw.
    const timer = window.setInterval(() => void refetch(), PUBLIC_REFRESH_MS);

    return () => {
      disposed = true;
      window.clearInterval(timer);
      window.clearTimeout(resyncTimer);
      socket.off('records:upserted', onUpserted);
      socket.off('records:removed', onRemoved);
      socket.off('dashboard:changed', onChanged);
      socket.off('dashboard:removed', onRemovedDashboard);
      socket.off('connect', onConnect);
      socket.off('view:resync', refetchSoon);
      if (socket.connected) feed.leave(socket);
    };
    // The key names the feed: a new feed object for the same key does not start over.
  }, [feedKey]);
  /** Fetches again now (the Retry of the load-failure screen). */
  return useCallback(() => void refetchRef.current(), []);
}
