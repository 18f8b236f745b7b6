import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import type { RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { RawDataResponse, RecordDto } from '@common/schemas/records/record';
import { api, errorText } from '../../../api/client';
import { orderedRecords } from '../../../public/viewer/recordStore';
import { followSource } from '../../../realtime/sourceRooms';
import { useAdminSocket } from '../../stores/useAdminRealtime';
import { PREVIEW_LIMIT, PREVIEW_MAX, PreviewRecords, type PreviewDelta } from './previewStore';

export { PREVIEW_LIMIT } from './previewStore';

/**
 * The live preview of a data source (previewStore.ts): every record from /api/data/raw (the first
 * page shown at once, the others read after it, up to PREVIEW_MAX), then the source's pushed deltas
 * over the admin socket (`datasource:<id>` room). A missed revision, or a reconnect the server could
 * not recover, reads the records again. Leaves the
 * room when the source changes or the screen closes. Without a source: no records.
 */
export function useLivePreview(dataSourceId: string | null): PreviewRecords {
  const socket = useAdminSocket();
  const preview = useMemo(() => {
    const p = new PreviewRecords(dataSourceId ?? '');
    if (!dataSourceId) p.loaded({ records: [], total: 0, revision: 0 });
    return p;
  }, [dataSourceId]);
  useEffect(() => {
    const id = preview.dataSourceId;
    if (!id) return;
    let disposed = false;
    let inFlight = false;
    let again = false;
    const refetch = async (): Promise<void> => {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      preview.fetching();
      try {
        const page = (offset: number) => api.get<RawDataResponse>(`/api/data/raw?dataSourceId=${encodeURIComponent(id)}&limit=${PREVIEW_LIMIT}&offset=${offset}`);
        const raw = await page(0);
        if (!disposed) preview.loaded(raw);
        // The rest, a page at a time, while the first is already drawn and deltas apply.
        const until = Math.min(raw.total, PREVIEW_MAX);
        for (let offset = raw.records.length; !disposed && raw.records.length > 0 && offset < until; ) {
          const next = await page(offset);
          offset += next.records.length;
          if (!disposed) preview.more(next.records, next.records.length === 0 || offset >= Math.min(next.total, PREVIEW_MAX));
          if (next.records.length === 0) break;
        }
      } catch (e) {
        if (!disposed) preview.failed(errorText(e));
      } finally {
        inFlight = false;
      }
      if (disposed) return;
      if (again || preview.store.getState().stale) {
        again = false;
        await refetch();
      }
    };
    const receive = (d: PreviewDelta) => {
      if (!disposed && preview.receive(d) === 'stale') void refetch();
    };
    const onUpserted = (e: RecordsUpserted) => receive({ kind: 'upserted', e });
    const onRemoved = (e: RecordsRemoved) => receive({ kind: 'removed', e });
    const room = socket ? followSource(socket, id, (ack) => !disposed && preview.setLive(ack.ok)) : null;
    let connectedBefore = socket?.connected ?? false;
    const onDisconnect = () => preview.setLive(false);
    const onConnect = () => {
      // Back within the server's recovery window: the room and the missed deltas came with it.
      if (socket?.recovered) return preview.setLive(true);
      room?.rejoin();
      if (connectedBefore) void refetch();
      connectedBefore = true;
    };
    socket?.on('records:upserted', onUpserted);
    socket?.on('records:removed', onRemoved);
    socket?.on('connect', onConnect);
    socket?.on('disconnect', onDisconnect);
    void refetch();
    return () => {
      disposed = true;
      socket?.off('records:upserted', onUpserted);
      socket?.off('records:removed', onRemoved);
      socket?.off('connect', onConnect);
      socket?.off('disconnect', onDisconnect);
      room?.leave();
    };
  }, [preview, socket]);
  return preview;
}

/** The preview's records in order, with the source's total (the Templates dialog reads the fields from them). */
export function usePreviewRecords(dataSourceId: string | null): { records: RecordDto[]; total: number; error: string | null; loading: boolean } {
  const { store } = useLivePreview(dataSourceId);
  const version = useStore(store, (s) => s.version);
  const total = useStore(store, (s) => s.total);
  const error = useStore(store, (s) => s.error);
  const status = useStore(store, (s) => s.status);
  // `version` stands for the records.
  const records = useMemo(() => orderedRecords(store.getState()), [store, version]);
  return { records, total, error, loading: status === 'loading' };
}
