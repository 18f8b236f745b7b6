import type { KeyMappings } from '@common/schemas/dataSource';
import { useViewerStore } from './viewerStore';

const EMPTY: KeyMappings = {};

/** Field labels: the data source's keyMappings (the server already merges the dashboard's in). */
export function useKeyMappings(): KeyMappings {
  return useViewerStore((s) => s.head?.dataSource?.keyMappings ?? s.head?.dashboard.configuration.keyMappings ?? EMPTY);
}
