import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { errorText } from '../../api/client';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

interface Entity {
  id: string;
  revision: number;
}

/** A list kept in sync by REST answers and realtime pushes alike. */
export interface EntityState<T extends Entity> {
  items: T[];
  status: LoadStatus;
  error: string | null;
  /** Fetches the whole list; a failure keeps the old items and sets `error`. */
  load(): Promise<void>;
  /** Inserts or replaces one item; an older revision than the one held is ignored. */
  upsert(item: T): void;
  remove(id: string): void;
}

/** Builds one store per domain (data sources, dashboards) over a list endpoint. */
export function createEntityStore<T extends Entity>(path: string, fetchList: (path: string) => Promise<T[]>): UseBoundStore<StoreApi<EntityState<T>>> {
  let loadSeq = 0;
  return create<EntityState<T>>((set, get) => ({
    items: [],
    status: 'idle',
    error: null,
    async load() {
      const seq = ++loadSeq;
      set({ status: get().status === 'ready' ? 'ready' : 'loading', error: null });
      try {
        const items = await fetchList(path);
        if (seq === loadSeq) set({ items, status: 'ready', error: null });
      } catch (e) {
        if (seq === loadSeq) set({ status: 'error', error: errorText(e) });
      }
    },
    upsert(item) {
      set((s) => {
        const i = s.items.findIndex((x) => x.id === item.id);
        if (i < 0) return { items: [...s.items, item] };
        if (s.items[i].revision > item.revision) return s;
        const items = s.items.slice();
        items[i] = item;
        return { items };
      });
    },
    remove(id) {
      set((s) => ({ items: s.items.filter((x) => x.id !== id) }));
    },
  }));
}
