import { useEffect, useState } from 'react';
import type { DataSourceDto } from '@common/schemas/dataSource';
import type { RawDataResponse } from '@common/schemas/records/record';
import { api, publicApi } from '../../api/client';
import { placeholderRecord } from './samples';

type Json = Record<string, unknown>;

/** The parts of the server's OpenAPI document the docs read. */
export interface OpenApiDocument {
  servers?: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export interface OpenApiOperation {
  summary?: string;
  'x-audience'?: 'public' | 'ingest' | 'embed' | 'viewer' | 'editor' | 'admin' | null;
  parameters?: { name: string; in: 'path' | 'query'; required?: boolean; description?: string }[];
  requestBody?: { description?: string; content?: Record<string, { schema?: Json }> };
  responses: Record<string, { description: string }>;
}

let cached: Promise<OpenApiDocument> | null = null;

/** GET /api/openapi.json, once per page: the endpoint list and the server's public URL. */
export function useOpenApi(): { doc: OpenApiDocument | null; error: string | null } {
  const [state, setState] = useState<{ doc: OpenApiDocument | null; error: string | null }>({ doc: null, error: null });
  useEffect(() => {
    let live = true;
    cached ??= publicApi.get<OpenApiDocument>('/api/openapi.json');
    cached.then(
      (doc) => live && setState({ doc, error: null }),
      (e: unknown) => {
        cached = null;
        if (live) setState({ doc: null, error: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/**
 * One record of the source (GET /api/data/raw?limit=1) for the samples, or placeholder fields
 * while it has none. Asked again when the source gets its first records.
 */
export function useSampleRecord(ds: DataSourceDto | undefined): { record: Json; isPlaceholder: boolean; loading: boolean } {
  const [state, setState] = useState<{ id: string | null; record: Json | null }>({ id: null, record: null });
  const id = ds?.id ?? null;
  const hasRecords = (ds?.recordCount ?? 0) > 0;
  useEffect(() => {
    if (!id || !hasRecords) return;
    let live = true;
    api.get<RawDataResponse>(`/api/data/raw?dataSourceId=${encodeURIComponent(id)}&limit=1`).then(
      (raw) => live && setState({ id, record: raw.records[0]?.data ?? null }),
      () => live && setState({ id, record: null }),
    );
    return () => {
      live = false;
    };
  }, [id, hasRecords]);
  const record = state.id === id && hasRecords ? state.record : null;
  const [placeholder] = useState(placeholderRecord);
  return { record: record ?? placeholder, isPlaceholder: !record, loading: hasRecords && state.id !== id };
}
