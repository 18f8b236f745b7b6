import { useEffect } from 'react';
import { create } from 'zustand';
import type { EngineStatusDto } from '@common/schemas/engine';
import { api } from '../../api/client';
import { useDataSources } from '../stores/dataSources';

/** GET /api/admin/engine, as the console last read it. */
export const useEngineStatus = create<{ status: EngineStatusDto | null; load(): Promise<void> }>((set) => ({
  status: null,
  async load() {
    try {
      set({ status: await api.get<EngineStatusDto>('/api/admin/engine') });
    } catch {
      // Keep the last answer: the banner is advice, not a gate.
    }
  },
}));

const REFRESH_MS = 60_000;

/** Keeps the engine status fresh: at mount, when the sources' record counts change, and every minute. */
export function useEngineStatusFeed(): void {
  const records = useDataSources((s) => s.items.reduce((n, d) => n + d.recordCount, 0));
  useEffect(() => {
    const t = window.setTimeout(() => void useEngineStatus.getState().load(), 300);
    return () => window.clearTimeout(t);
  }, [records]);
  useEffect(() => {
    const t = window.setInterval(() => void useEngineStatus.getState().load(), REFRESH_MS);
    return () => window.clearInterval(t);
  }, []);
}
