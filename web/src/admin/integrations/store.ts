import { create } from 'zustand';
import type { IntegrationDto, IntegrationRecordsDto } from '@common/schemas/integration';
import { errorText } from '../../api/client';
import { integrationsApi } from './api';

/** What the card shows about a sync this console is following. */
export interface SyncView {
  running: boolean;
  progress: number;
  message: string;
  recordsProcessed: number;
  pagesProcessed: number;
}

interface IntegrationsState {
  items: IntegrationDto[];
  loading: boolean;
  error: string | null;
  totals: Record<string, IntegrationRecordsDto>;
  syncs: Record<string, SyncView>;
  load(): Promise<void>;
  loadTotals(id: string): Promise<IntegrationRecordsDto | null>;
  upsert(item: IntegrationDto): void;
  remove(id: string): void;
  setSync(id: string, view: SyncView | null): void;
}

/** Integrations, their totals and live sync state, fed by REST and the admin socket. */
export const useIntegrations = create<IntegrationsState>((set, get) => ({
  items: [],
  loading: false,
  error: null,
  totals: {},
  syncs: {},
  async load() {
    set({ loading: true });
    try {
      const items = await integrationsApi.list();
      set({ items, loading: false, error: null });
      await Promise.all(items.filter((i) => i.sourceId).map((i) => get().loadTotals(i.id)));
    } catch (e) {
      set({ loading: false, error: errorText(e) });
    }
  },
  async loadTotals(id) {
    try {
      const t = await integrationsApi.records(id);
      set((s) => ({ totals: { ...s.totals, [id]: t } }));
      return t;
    } catch {
      return null;
    }
  },
  upsert(item) {
    set((s) => {
      const i = s.items.findIndex((x) => x.id === item.id);
      if (i < 0) return { items: [...s.items, item] };
      // Pushes can overtake each other: keep the newest.
      if (Date.parse(s.items[i].updatedAt) > Date.parse(item.updatedAt)) return s;
      const items = s.items.slice();
      items[i] = item;
      return { items };
    });
  },
  remove(id) {
    set((s) => {
      const { [id]: _t, ...totals } = s.totals;
      const { [id]: _s, ...syncs } = s.syncs;
      return { items: s.items.filter((x) => x.id !== id), totals, syncs };
    });
  },
  setSync(id, view) {
    set((s) => {
      if (view) return { syncs: { ...s.syncs, [id]: view } };
      const { [id]: _gone, ...syncs } = s.syncs;
      return { syncs };
    });
  },
}));
