import type { KeyMappings } from '@common/schemas/dataSource';
import type { FieldTyping } from '@common/types/fieldTyping';
import { useTyping } from './widgets/widgetContext';
import { useViewerStore } from './viewerStore';

const EMPTY: KeyMappings = {};

/** Field labels: the data source's keyMappings (the server already merges the dashboard's in). */
export function useKeyMappings(): KeyMappings {
  return useViewerStore((s) => s.head?.dataSource?.keyMappings ?? s.head?.dashboard.configuration.keyMappings ?? EMPTY);
}

/** The source's type model from the public view (each field's type, its day/month order). */
export function useFieldTyping(): FieldTyping {
  const fieldTypes = useViewerStore((s) => s.head?.dataSource?.fieldTypes);
  const dateOrder = useViewerStore((s) => s.head?.dataSource?.dateOrder);
  return useTyping(fieldTypes, dateOrder);
}
