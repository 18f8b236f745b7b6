import { useRef, useState } from 'react';
import { PREVIEW_RECORDS } from '@common/constants';
import type { RawDataResponse, RecordDto } from '@common/schemas/records/record';
import { api, errorText } from '../../api/client';
import type { LoadStatus } from './entityStore';
import { followSource } from '../../realtime/sourceRooms';
import { useLiveResource } from '../../realtime/useLiveResource';
import { useAdminSocket } from './useAdminRealtime';

export interface SourceRecords {
  records: RecordDto[];
  total: number;
  status: LoadStatus;
  error: string | null;
  reload(): void;
}

/**
 * The first 10 records of a data source (GET /api/data/raw), kept live: joins the source's room and
 * applies `records:upserted` / `records:removed`, dropping revisions already applied and refetching
 * on a gap or after a reconnect.
 */
export function useSourceRecords(dataSourceId: string | null): SourceRecords {
  const socket = useAdminSocket();
  const [state, setState] = useState<{ records: RecordDto[]; total: number; status: LoadStatus; error: string | null }>({
    records: [], total: 0, status: 'idle', error: null,
  });
  const applied = useRef<{ revision: number; parts: Set<number> }>({ revision: 0, parts: new Set() });
  /** A revision a push named: the next answer is taken as holding at least that much. */
  const atLeast = useRef(0);

  const reload = useLiveResource<RawDataResponse>(() => {
    setState({ records: [], total: 0, status: dataSourceId ? 'idle' : 'ready', error: null });
    if (!dataSourceId) return null;
    applied.current = { revision: 0, parts: new Set() };
    atLeast.current = 0;
    return {
      socket,
      load: (signal) => {
        setState((s) => ({ ...s, status: s.status === 'ready' ? 'ready' : 'loading', error: null }));
        return api.get<RawDataResponse>(`/api/data/raw?dataSourceId=${encodeURIComponent(dataSourceId)}&limit=${PREVIEW_RECORDS}`, { signal });
      },
      revision: { of: (raw) => raw.revision, shown: () => applied.current.revision },
      loaded: (raw) => {
        // A lower bound of what the answer holds: re-applying a delta is harmless, missing one is not.
        const held = raw.records.reduce((max, r) => Math.max(max, r.revision ?? 0), 0);
        applied.current = { revision: Math.max(held, atLeast.current), parts: new Set() };
        atLeast.current = 0;
        setState({ records: raw.records, total: raw.total, status: 'ready', error: null });
      },
      failed: (e) => setState((s) => ({ ...s, status: 'error', error: errorText(e) })),
      // Counted per screen: another screen following this source keeps the room when this one closes.
      room: (on, ack) => followSource(on, dataSourceId, ack),
      pushes: (live) => {
        const refetchFrom = (revision: number) => {
          atLeast.current = Math.max(atLeast.current, revision);
          void live.refetch();
        };
        /** True when the delta is new and follows what we hold; refetches on a gap. */
        const accept = (e: { revision: number; part: number }) => {
          const a = applied.current;
          if (e.revision < a.revision || (e.revision === a.revision && (a.parts.has(e.part) || a.parts.size === 0))) return false;
          if (e.revision > a.revision + 1) {
            refetchFrom(e.revision);
            return false;
          }
          if (e.revision !== a.revision) applied.current = { revision: e.revision, parts: new Set() };
          applied.current.parts.add(e.part);
          return true;
        };
        return {
          'records:upserted': (e) => {
            if (e.dataSourceId !== dataSourceId || e.dashboardId || !accept(e)) return;
            setState((s) => {
              const records = s.records.slice();
              for (const r of e.records) {
                const i = records.findIndex((x) => x.recordId === r.recordId);
                if (i >= 0) records[i] = r;
                else if (records.length < PREVIEW_RECORDS) records.push(r);
              }
              return { ...s, records, total: e.total };
            });
          },
          'records:removed': (e) => {
            if (e.dataSourceId !== dataSourceId || e.dashboardId || !accept(e)) return;
            const gone = new Set(e.recordIds);
            setState((s) => {
              const records = e.all ? [] : s.records.filter((r) => !gone.has(r.recordId));
              if (records.length < PREVIEW_RECORDS && e.total > records.length) queueMicrotask(() => refetchFrom(e.revision));
              return { ...s, records, total: e.total };
            });
          },
        };
      },
    };
  }, [dataSourceId, socket]);

  return { ...state, reload };
}
