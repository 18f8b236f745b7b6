import { useEffect, useState } from 'react';
import type { RawDataResponse, RecordDto } from '@common/schemas/record';
import { api, errorText } from '../../api/client';

/** The most records one raw-data page holds: the builder's preview draws with up to this many. */
export const PREVIEW_LIMIT = 1000;
const REFRESH_MS = 10_000;

/** Up to 1,000 records of a source for the builder's live preview, fetched again every 10 s. */
export function usePreviewRecords(dataSourceId: string | null): { records: RecordDto[]; total: number; error: string | null; loading: boolean } {
  const [state, setState] = useState<{ records: RecordDto[]; total: number; error: string | null; loading: boolean }>({ records: [], total: 0, error: null, loading: true });
  useEffect(() => {
    if (!dataSourceId) {
      setState({ records: [], total: 0, error: null, loading: false });
      return;
    }
    let live = true;
    const load = async () => {
      try {
        const raw = await api.get<RawDataResponse>(`/api/data/raw?dataSourceId=${encodeURIComponent(dataSourceId)}&limit=${PREVIEW_LIMIT}`);
        if (live) setState((s) => (sameRecords(s.records, raw.records) && s.total === raw.total ? s : { records: raw.records, total: raw.total, error: null, loading: false }));
      } catch (e) {
        if (live) setState((s) => ({ ...s, error: errorText(e), loading: false }));
      }
    };
    setState({ records: [], total: 0, error: null, loading: true });
    void load();
    const timer = window.setInterval(() => void load(), REFRESH_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [dataSourceId]);
  return state;
}

function sameRecords(a: RecordDto[], b: RecordDto[]): boolean {
  return a.length === b.length && a.every((r, i) => r.recordId === b[i].recordId && r.revision === b[i].revision && r.lastUpdated === b[i].lastUpdated);
}
