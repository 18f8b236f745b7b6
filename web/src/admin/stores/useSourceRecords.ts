import { useCallback, useEffect, useRef, useState } from 'react';
import { PREVIEW_RECORDS } from '@common/constants';
import type { RecordsRemoved, RecordsUpserted } from '@common/realtime';
import type { RawDataResponse, RecordDto } from '@common/schemas/records/record';
import { api, errorText } from '../../api/client';
import type { LoadStatus } from './entityStore';
import { followSource } from '../../realtime/sourceRooms';
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
  const seq = useRef(0);

  const fetchNow = useCallback(async (atLeastRevision = 0) => {
    if (!dataSourceId) return;
    const mine = ++seq.current;
    setState((s) => ({ ...s, status: s.status === 'ready' ? 'ready' : 'loading', error: null }));
    try {
      const raw = await api.get<RawDataResponse>(`/api/data/raw?dataSourceId=${encodeURIComponent(dataSourceId)}&limit=${PREVIEW_RECORDS}`);
      if (mine !== seq.current) return;
      // A lower bound of what the answer holds: re-applying a delta is harmless, missing one is not.
      const held = raw.records.reduce((max, r) => Math.max(max, r.revision ?? 0), 0);
      applied.current = { revision: Math.max(held, atLeastRevision), parts: new Set() };
      setState({ records: raw.records, total: raw.total, status: 'ready', error: null });
    } catch (e) {
      if (mine === seq.current) setState((s) => ({ ...s, status: 'error', error: errorText(e) }));
    }
  }, [dataSourceId]);

  useEffect(() => {
    setState({ records: [], total: 0, status: dataSourceId ? 'idle' : 'ready', error: null });
    if (!dataSourceId) return;
    void fetchNow();
    if (!socket) return;

    /** True when the delta is new and follows what we hold; refetches on a gap. */
    const accept = (e: { revision: number; part: number }) => {
      const a = applied.current;
      if (e.revision < a.revision || (e.revision === a.revision && (a.parts.has(e.part) || a.parts.size === 0))) return false;
      if (e.revision > a.revision + 1 && e.revision !== a.revision) {
        void fetchNow(e.revision);
        return false;
      }
      if (e.revision !== a.revision) applied.current = { revision: e.revision, parts: new Set() };
      applied.current.parts.add(e.part);
      return true;
    };
    const onUpserted = (e: RecordsUpserted) => {
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
    };
    const onRemoved = (e: RecordsRemoved) => {
      if (e.dataSourceId !== dataSourceId || e.dashboardId || !accept(e)) return;
      const gone = new Set(e.recordIds);
      setState((s) => {
        const records = e.all ? [] : s.records.filter((r) => !gone.has(r.recordId));
        if (records.length < PREVIEW_RECORDS && e.total > records.length) queueMicrotask(() => void fetchNow(e.revision));
        return { ...s, records, total: e.total };
      });
    };
    // Counted per screen: another screen following this source keeps the room when this one closes.
    const room = followSource(socket, dataSourceId);
    const onReconnect = () => {
      room.rejoin();
      void fetchNow();
    };
    socket.on('records:upserted', onUpserted);
    socket.on('records:removed', onRemoved);
    socket.on('connect', onReconnect);
    return () => {
      seq.current++;
      room.leave();
      socket.off('records:upserted', onUpserted);
      socket.off('records:removed', onRemoved);
      socket.off('connect', onReconnect);
    };
  }, [dataSourceId, socket, fetchNow]);

  return { ...state, reload: () => void fetchNow() };
}
