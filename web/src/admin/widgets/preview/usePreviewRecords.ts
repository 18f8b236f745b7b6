import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { RawDataResponse, RecordDto } from '@common/schemas/records/record';
import { api, errorText } from '../../../api/client';
import { orderedRecords } from '../../../public/viewer/recordStore';
import { followSource } from '../../../realtime/sourceRooms';
import { useLiveResource } from '../../../realtime/useLiveResource';
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
  useLiveResource<RawDataResponse>(() => {
    const id = preview.dataSourceId;
    if (!id) return null;
    const page = (offset: number, signal: AbortSignal) =>
      api.get<RawDataResponse>(`/api/data/raw?dataSourceId=${encodeURIComponent(id)}&limit=${PREVIEW_LIMIT}&offset=${offset}`, { signal });
    return {
      socket,
      load: (signal) => {
        preview.fetching();
        return page(0, signal);
      },
      loaded: async (raw, signal) => {
        preview.loaded(raw);
        // The rest, a page at a time, while the first is already drawn and deltas apply.
        const until = Math.min(raw.total, PREVIEW_MAX);
        for (let offset = raw.records.length; !signal.aborted && raw.records.length > 0 && offset < until; ) {
          const next = await page(offset, signal);
          offset += next.records.length;
          if (!signal.aborted) preview.more(next.records, next.records.length === 0 || offset >= Math.min(next.total, PREVIEW_MAX));
          if (next.records.length === 0) break;
        }
      },
      failed: (e) => preview.failed(errorText(e)),
      // A delta that showed a gap marked the preview stale: read it again.
      settled: (live) => {
        if (preview.store.getState().stale) void live.refetch();
      },
      pushes: (live) => {
        const receive = (d: PreviewDelta) => {
          if (!live.left && preview.receive(d) === 'stale') void live.refetch();
        };
        return {
          'records:upserted': (e) => receive({ kind: 'upserted', e }),
          'records:removed': (e) => receive({ kind: 'removed', e }),
        };
      },
      room: (on, ack) => followSource(on, id, ack),
      joined: (ack) => preview.setLive(ack.ok),
      recovered: () => preview.setLive(true),
      disconnected: () => preview.setLive(false),
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
