import { create } from 'zustand';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { FieldTyping } from '@common/types/fieldTyping';
import { useTyping } from '../../public/viewer/widgets/widgetContext';
import { api } from '../../api/client';
import { createEntityStore } from './entityStore';

/** Every data source the console knows, fed by GET /api/data/sources and admin pushes. */
export const useDataSources = createEntityStore<DataSourceDto>('/api/data/sources', (p) => api.get<DataSourceDto[]>(p));

/** A source's type model (each field's type, its day/month order) as the builder's previews read it. */
export function useSourceTyping(source: DataSourceDto | undefined | null): FieldTyping {
  return useTyping(source?.fieldTypes, source?.dateOrder);
}

/** Full ingest keys seen this session (only create and rotate return them), by data source id. */
export const useFreshIngestKeys = create<{ keys: Record<string, string>; remember(id: string, key: string): void }>((set) => ({
  keys: {},
  remember: (id, key) => set((s) => ({ keys: { ...s.keys, [id]: key } })),
}));
